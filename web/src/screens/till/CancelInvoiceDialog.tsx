import { useState } from 'preact/hooks';
import { api, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { fiscalStrings } from '../../components/fiscal/fiscal-strings';
import { type FiscalCatalogs, InvoiceForm, type InvoiceRequest } from '../../components/fiscal/InvoiceForm';
import { ModalDialog } from '../../components/ModalDialog';
import { format, useStrings } from '../../core/i18n';
import { messageOf } from '../../core/server-text';
import { strings } from './strings';

/** The SAT's motives, in the SAT's order. */
const MOTIVES = ['01', '02', '03', '04'] as const;
type Motive = (typeof MOTIVES)[number];

/**
 * A manager cancels the bill's invoice, after saying why and confirming: 01 issues the substitute first
 * (the guest's corrected data) and cancels this one naming it; 02 and 03 cancel it once confirmed; 04
 * is only for a global invoice, so it is offered but not chosen here.
 */
export function CancelInvoiceDialog({
  ticketId,
  invoice,
  onDone,
  onClose,
}: {
  ticketId: string;
  invoice: { id: string; uuid: string; label: string };
  onDone: (message: string) => void;
  onClose: () => void;
}) {
  const t = useStrings(fiscalStrings);
  const common = useStrings(strings);
  const [motive, setMotive] = useState<Motive>('02');
  const [catalogs, setCatalogs] = useState<FiscalCatalogs>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const choose = async (chosen: Motive) => {
    setMotive(chosen);
    setError(undefined);
    if (chosen === '01' && !catalogs) {
      setCatalogs(
        (await ok(api.GET('/fiscal/catalogs')).catch(() => undefined)) as FiscalCatalogs | undefined,
      );
    }
  };
  const run = async (work: () => Promise<string>) => {
    setBusy(true);
    setError(undefined);
    try {
      onDone(await work());
    } catch (failure) {
      setError(messageOf(failure, common.unreachable));
    } finally {
      setBusy(false);
    }
  };
  const cancel = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const answer = await writeOnce(() =>
        api.POST('/invoices/{id}/cancel', { params: { path: { id: invoice.id } }, body: { motive } }),
      );
      return answer.status === 'canceled' ? t.canceled : t.cancelPending;
    });
  };
  const substitute = (request: InvoiceRequest) =>
    void run(async () => {
      const created = await writeOnce(() =>
        api.POST('/tickets/{id}/invoice', {
          params: { path: { id: ticketId } },
          body: { ...request, replaces: invoice.id },
        }),
      );
      return format(t.substituted, { uuid: created.uuid });
    });

  return (
    <ModalDialog title={format(t.cancelTitle, { invoice: invoice.label })} onClose={onClose}>
      <div class="stack cancel-invoice">
        <fieldset>
          <legend>{t.cancelMotive}</legend>
          {MOTIVES.map((code) => (
            <label key={code} class="choice">
              <input
                type="radio"
                name="cancel-motive"
                value={code}
                checked={motive === code}
                disabled={code === '04'}
                onChange={() => void choose(code)}
              />
              <span>
                {code} · {t[`motive_${code}`]}
                {code === '04' && <small class="muted"> ({t.motive04Global})</small>}
              </span>
            </label>
          ))}
        </fieldset>
        <p class="muted">{t[`motiveHelp_${motive === '04' ? '02' : motive}`]}</p>
        {motive === '01' && catalogs && (
          <InvoiceForm
            idPrefix={`substitute-${invoice.id.slice(0, 8)}`}
            catalogs={catalogs}
            busy={busy}
            onSubmit={substitute}
          />
        )}
        <Alert message={error} />
        {motive !== '01' && (
          <form class="stack" aria-label={t.cancel} onSubmit={cancel}>
            <p>{format(t.confirmCancel, { invoice: invoice.label })}</p>
            <div class="actions">
              <button type="button" onClick={onClose}>
                {t.back}
              </button>
              <button type="submit" class="danger" disabled={busy}>
                {t.confirmCancelAction}
              </button>
            </div>
          </form>
        )}
        {motive === '01' && (
          <div class="actions">
            <button type="button" onClick={onClose}>
              {t.back}
            </button>
          </div>
        )}
      </div>
    </ModalDialog>
  );
}
