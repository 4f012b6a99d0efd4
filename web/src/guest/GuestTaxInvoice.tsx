import { useEffect, useState } from 'preact/hooks';
import { fiscalStrings } from '../components/fiscal/fiscal-strings';
import { type FiscalCatalogs, InvoiceForm, type InvoiceRequest } from '../components/fiscal/InvoiceForm';
import { format, language, useLocale, useStrings } from '../core/i18n';
import { translateGuestServerText } from '../core/server-text';
import {
  fetchBill,
  fetchFiscalCatalogs,
  GuestApiError,
  type GuestInvoiceOffer,
  requestTaxInvoice,
} from './guest-api';
import { guestFiscalStrings } from './guest-fiscal-strings';

/** How often the page asks again while the receipt is being made, seconds after the payment. */
const POLL_MS = 3000;

/**
 * The key to the invoice's files lives only on the phone that asked for the invoice (this tab): the
 * link is on paper, and anyone else who scans it must not read the customer's RFC and name.
 */
const keyStore = (token: string) => `guest-invoice-key:${token}`;

function storedKey(token: string): string | undefined {
  try {
    return sessionStorage.getItem(keyStore(token)) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * "Request your invoice" on a paid bill: the PAC's self-invoice page when the restaurant's account has
 * one, else the form here; the PDF and XML once it is made.
 */
export function GuestTaxInvoice({
  token,
  initial,
  timeZone,
}: {
  token: string;
  initial: GuestInvoiceOffer;
  /** The restaurant's: the deadline is the date its paper prints, not the phone's. */
  timeZone: string;
}) {
  const t = useStrings(guestFiscalStrings);
  const form = useStrings(fiscalStrings);
  const locale = useLocale();
  const [offer, setOffer] = useState(initial);
  const [catalogs, setCatalogs] = useState<FiscalCatalogs>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [key, setKey] = useState(() => storedKey(token));

  useEffect(() => {
    if (offer.status !== 'pending') return;
    const timer = setTimeout(async () => {
      const bill = await fetchBill(token).catch(() => undefined);
      if (bill?.invoice) setOffer(bill.invoice);
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [offer]);

  const openForm = async () => {
    setError(undefined);
    try {
      setCatalogs(await fetchFiscalCatalogs());
    } catch {
      setError(t.unreachable);
    }
  };
  const submit = async (request: InvoiceRequest) => {
    setBusy(true);
    setError(undefined);
    try {
      const invoice = await requestTaxInvoice(token, request);
      try {
        sessionStorage.setItem(keyStore(token), invoice.download_key);
      } catch {
        // Private browsing without storage: the files stay reachable until the page is closed.
      }
      setKey(invoice.download_key);
      setOffer({ ...offer, status: 'invoiced', uuid: invoice.uuid });
      setCatalogs(undefined);
    } catch (failure) {
      setError(
        failure instanceof GuestApiError
          ? translateGuestServerText(failure.message, language.get())
          : t.unreachable,
      );
    } finally {
      setBusy(false);
    }
  };
  const until =
    offer.expires_at === null
      ? undefined
      : new Date(offer.expires_at).toLocaleDateString(locale, { dateStyle: 'long', timeZone });

  return (
    <section class="guest-card guest-tax-invoice" aria-labelledby="tax-invoice-title">
      <h2 id="tax-invoice-title">{t.title}</h2>
      {offer.status === 'pending' && <p role="status">{t.preparing}</p>}
      {offer.status === 'unavailable' && <p>{t.inGlobal}</p>}
      {offer.status === 'canceled' && <p>{t.canceled}</p>}
      {offer.status === 'available' && offer.self_invoice_url && (
        <>
          <a class="guest-primary" href={offer.self_invoice_url} target="_blank" rel="noreferrer">
            {t.request}
          </a>
          {until && <p class="guest-muted">{format(t.selfInvoiceUntil, { date: until })}</p>}
        </>
      )}
      {offer.status === 'available' && !offer.self_invoice_url && !catalogs && (
        <button type="button" class="guest-primary" onClick={() => void openForm()}>
          {t.request}
        </button>
      )}
      {offer.status === 'available' && catalogs && (
        <InvoiceForm
          idPrefix="guest-invoice"
          catalogs={catalogs}
          busy={busy}
          onSubmit={(request) => void submit(request)}
        />
      )}
      {offer.status === 'invoiced' && !key && <p role="status">{t.alreadyInvoiced}</p>}
      {offer.status === 'invoiced' && key && (
        <>
          <p role="status">{format(t.invoiced, { uuid: offer.uuid ?? '' })}</p>
          <div class="guest-row">
            <a class="guest-secondary" href={`/guest/${token}/invoice.pdf?key=${key}`} download>
              {t.download} {form.pdf}
            </a>
            <a class="guest-secondary" href={`/guest/${token}/invoice.xml?key=${key}`} download>
              {t.download} {form.xml}
            </a>
          </div>
        </>
      )}
      {error && (
        <p class="guest-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
