import { useEffect, useState } from 'preact/hooks';
import { api, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { fiscalStrings } from '../../components/fiscal/fiscal-strings';
import { type FiscalCatalogs, InvoiceForm, type InvoiceRequest } from '../../components/fiscal/InvoiceForm';
import { format, useLocale, useStrings } from '../../core/i18n';
import { messageOf, useServerText } from '../../core/server-text';
import { useCan } from '../../core/session';
import { CancelInvoiceDialog } from './CancelInvoiceDialog';
import { CfdiList } from './CfdiList';
import type { Fiscal } from './fiscal-panel-types';
import { strings } from './strings';

const BADGES: Record<Fiscal['status'], string> = {
  none: 'warn',
  pending: 'warn',
  receipt: 'ok',
  invoiced: 'ok',
  in_global: 'ok',
  canceled: 'danger',
  failed: 'danger',
};

/** How often a paid bill's fiscal state is read while its receipt is being made. */
const POLL_MS = 2000;

/**
 * A paid bill's e-invoice at the till: its state at the PAC, the guest's self-invoice link, the form
 * that invoices it to the guest's RFC, and the PDF and XML once invoiced. Hidden while e-invoicing is off.
 */
export function FiscalPanel({ ticketId }: { ticketId: string }) {
  const t = useStrings(fiscalStrings);
  const common = useStrings(strings);
  const locale = useLocale();
  const serverText = useServerText();
  const canInvoice = useCan('invoices.write');
  const canCancel = useCan('invoices.cancel');
  const [enabled, setEnabled] = useState(false);
  const [fiscal, setFiscal] = useState<Fiscal>();
  const [catalogs, setCatalogs] = useState<FiscalCatalogs>();
  const [showForm, setShowForm] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [isCanceling, setCanceling] = useState(false);

  const load = async () =>
    setFiscal((await ok(api.GET('/tickets/{id}/fiscal', { params: { path: { id: ticketId } } }))) as Fiscal);

  useEffect(() => {
    void (async () => {
      const settings = await ok(api.GET('/settings/fiscal')).catch(() => undefined);
      if (!settings?.enabled || !settings.pac_configured) return;
      setEnabled(true);
      await load().catch(() => undefined);
    })();
  }, [ticketId]);

  // The receipt is made in the background within seconds of the payment; a credit note or a
  // cancellation the PAC is still working on is followed too.
  const isSettling =
    fiscal?.status === 'none' ||
    fiscal?.status === 'pending' ||
    fiscal?.cfdis.some((cfdi) => cfdi.status === 'stamping' || cfdi.status === 'canceling');
  useEffect(() => {
    if (!isSettling) return;
    const timer = setTimeout(() => void load().catch(() => undefined), POLL_MS);
    return () => clearTimeout(timer);
  }, [fiscal]);

  if (!enabled || !fiscal) return null;

  const open = async () => {
    setShowForm(true);
    if (!catalogs) setCatalogs((await ok(api.GET('/fiscal/catalogs'))) as FiscalCatalogs);
  };
  const invoice = async (request: InvoiceRequest) => {
    setBusy(true);
    setError(undefined);
    try {
      const created = await writeOnce(() =>
        api.POST('/tickets/{id}/invoice', { params: { path: { id: ticketId } }, body: request }),
      );
      setNotice(format(t.invoiced, { uuid: created.uuid }));
      setShowForm(false);
      await load();
    } catch (failure) {
      setError(messageOf(failure, common.unreachable));
    } finally {
      setBusy(false);
    }
  };
  const current = fiscal.cfdis.find((cfdi) => cfdi.invoice_id === fiscal.invoice?.id);
  // Canceled for errors (02): the sale stands and gets its corrected invoice.
  const isCorrectable = fiscal.status === 'canceled' && current?.cancel_motive === '02';
  const label = current ? `${current.folio ?? current.uuid ?? ''}`.trim() : '';
  const expires =
    fiscal.expires_at === null
      ? undefined
      : new Date(fiscal.expires_at).toLocaleDateString(locale, { dateStyle: 'long' });

  return (
    <section class="card stack fiscal-panel" aria-labelledby="fiscal-title">
      <h2 id="fiscal-title">{t.title}</h2>
      <p>
        <span class={`badge ${BADGES[fiscal.status]}`} data-fiscal-status={fiscal.status}>
          {t[`status_${fiscal.status}`]}
        </span>
      </p>
      {fiscal.error && <Alert message={serverText(fiscal.error)} />}
      {fiscal.status === 'receipt' && fiscal.self_invoice_url && (
        <p class="muted">
          <a href={fiscal.self_invoice_url} target="_blank" rel="noreferrer">
            {t.selfInvoice}
          </a>
          {expires && ` · ${format(t.selfInvoiceUntil, { date: expires })}`}
        </p>
      )}
      {fiscal.invoice && (
        <>
          <p>
            {t.uuid}: <code>{fiscal.invoice.uuid}</code>
          </p>
          <div class="row">
            <a class="button" href={`/invoices/${fiscal.invoice.id}/pdf`} download>
              {t.pdf}
            </a>
            <a class="button" href={`/invoices/${fiscal.invoice.id}/xml`} download>
              {t.xml}
            </a>
          </div>
        </>
      )}
      <Alert message={error} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <CfdiList cfdis={fiscal.cfdis} />
      {canCancel && fiscal.invoice?.status === 'valid' && current?.kind === 'customer' && (
        <div class="actions">
          <button type="button" class="danger" onClick={() => setCanceling(true)}>
            {t.cancel}
          </button>
        </div>
      )}
      {isCanceling && fiscal.invoice && (
        <CancelInvoiceDialog
          ticketId={ticketId}
          invoice={{ id: fiscal.invoice.id, uuid: fiscal.invoice.uuid, label }}
          onClose={() => setCanceling(false)}
          onDone={(message) => {
            setCanceling(false);
            setNotice(message);
            void load();
          }}
        />
      )}
      {canInvoice && (fiscal.status === 'receipt' || isCorrectable) && !showForm && (
        <div class="actions">
          <button type="button" class="primary" onClick={() => void open()}>
            {isCorrectable ? t.reissue : t.invoice}
          </button>
        </div>
      )}
      {showForm && catalogs && (
        <InvoiceForm
          idPrefix={`invoice-${ticketId.slice(0, 8)}`}
          catalogs={catalogs}
          busy={busy}
          onSubmit={(request) => void invoice(request)}
        />
      )}
    </section>
  );
}
