import { useState } from 'preact/hooks';
import { api, createOnce, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { TextField } from '../../components/FormKit';
import { useStrings } from '../../core/i18n';
import { useServerText } from '../../core/server-text';
import { type PaymentMethod, printerStrings } from './printers-model';
import { useFailureMessage, useLoaded } from './shared';

/**
 * The payment methods the till offers: added with a code, (de)activated. The API deletes none, since
 * past payments name them; an inactive method takes no new payments.
 */
export function PaymentMethodsPanel() {
  const t = useStrings(printerStrings);
  const failureMessage = useFailureMessage();
  const serverText = useServerText();
  const methods = useLoaded(async () => (await ok(api.GET('/payment-methods'))) ?? []);
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      await methods.reload();
    } catch (failure) {
      setError(failureMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  const add = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      await createOnce((key) =>
        api.POST('/payment-methods', {
          params: { header: { 'idempotency-key': key } },
          body: { code: code.trim(), name: name.trim() },
        }),
      );
      setCode('');
      setName('');
    });
  };
  const toggle = (method: PaymentMethod) =>
    void run(() =>
      writeOnce(() =>
        api.PUT('/payment-methods/{id}', {
          params: { path: { id: method.id } },
          body: { is_active: !method.is_active },
        }),
      ),
    );

  return (
    <section class="card stack" aria-labelledby="payment-methods-title">
      <h2 id="payment-methods-title">{t.methods}</h2>
      <Alert message={methods.error ?? error} />
      {methods.data?.length === 0 && <p class="muted">{t.noMethods}</p>}
      {methods.data && methods.data.length > 0 && (
        <table aria-label={t.methods}>
          <thead>
            <tr>
              <th scope="col">{t.name}</th>
              <th scope="col">{t.codeColumn}</th>
              <th scope="col">{t.active}</th>
            </tr>
          </thead>
          <tbody>
            {methods.data.map((method) => (
              <tr key={method.id}>
                <td>{serverText(method.name)}</td>
                <td>{method.code}</td>
                <td>
                  <button
                    type="button"
                    disabled={busy}
                    aria-pressed={method.is_active}
                    onClick={() => toggle(method)}
                  >
                    {method.is_active ? t.deactivate : t.activate}
                    <span class="visually-hidden"> {serverText(method.name)}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form class="stack" aria-label={t.addMethod} onSubmit={add}>
        <div class="fields">
          <TextField
            prefix="method"
            name="code"
            label={t.code}
            value={code}
            onInput={setCode}
            input={{ required: true, maxLength: 32, pattern: '[a-z][a-z0-9_\\-]*' }}
          />
          <TextField
            prefix="method"
            name="name"
            label={t.name}
            value={name}
            onInput={setName}
            input={{ required: true, maxLength: 100 }}
          />
        </div>
        <div class="row">
          <button type="submit" class="primary" disabled={busy}>
            {t.addMethod}
          </button>
        </div>
      </form>
    </section>
  );
}
