import { useState } from 'preact/hooks';
import { type Outcome, writeOnce } from '../api/client';
import { type Strings, useStrings } from '../core/i18n';
import { messageOf } from '../core/server-text';
import { Alert } from './Alert';

const strings: Strings<'print' | 'sent' | 'unreachable'> = {
  en: {
    print: 'Print',
    sent: 'Sent to the printer',
    unreachable: 'The server cannot be reached.',
  },
  es: {
    print: 'Imprimir',
    sent: 'Enviado a la impresora',
    unreachable: 'No se puede contactar con el servidor.',
  },
};

/**
 * A report's "Print" on the receipt printer (the Z report, the day report): the server queues the
 * paper and answers at once, so "sent" means queued; the printer's own trouble shows in the printer
 * alert. A refusal (no receipt printer) is shown in its words.
 */
export function PrintOnPaper({
  send,
  label,
}: {
  send: (idempotencyKey: string) => Promise<Outcome<unknown>>;
  label: string;
}) {
  const t = useStrings(strings);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string>();
  const print = async () => {
    setBusy(true);
    setSent(false);
    setError(undefined);
    try {
      await writeOnce(send);
      setSent(true);
    } catch (failure) {
      setError(messageOf(failure, t.unreachable));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="print-on-paper no-print">
      <button type="button" disabled={busy} onClick={() => void print()}>
        {t.print}
        <span class="visually-hidden"> {label}</span>
      </button>
      {sent && (
        <p class="notice" role="status">
          {t.sent}
        </p>
      )}
      <Alert message={error} />
    </div>
  );
}
