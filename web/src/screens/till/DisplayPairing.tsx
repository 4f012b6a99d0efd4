import { useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import { Alert } from '../../components/Alert';
import { format, type Strings, useStrings } from '../../core/i18n';
import { messageOf } from '../../core/server-text';

const strings: Strings<'pair' | 'code' | 'howTo' | 'unreachable'> = {
  en: {
    pair: 'Connect the customer display',
    code: 'Customer display: code {code}',
    howTo: 'Type it on the customer display within 5 minutes.',
    unreachable: 'The server cannot be reached.',
  },
  es: {
    pair: 'Conectar la pantalla del cliente',
    code: 'Pantalla del cliente: código {code}',
    howTo: 'Escríbelo en la pantalla del cliente antes de 5 minutos.',
    unreachable: 'No se puede contactar con el servidor.',
  },
};

/** A short code that pairs a customer display with this cashier's till. */
export function DisplayPairing() {
  const t = useStrings(strings);
  const [code, setCode] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const ask = async () => {
    setBusy(true);
    try {
      setCode((await ok(api.POST('/displays/pairing-code'))).code);
      setError(undefined);
    } catch (failure) {
      setError(messageOf(failure, t.unreachable));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="row display-pairing">
      <button type="button" disabled={busy} onClick={() => void ask()}>
        {t.pair}
      </button>
      {code && (
        <p role="status">
          <strong class="num">{format(t.code, { code })}</strong> {t.howTo}
        </p>
      )}
      <Alert message={error} />
    </div>
  );
}
