import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { useStore } from '../api/store';
import { fromCents, toCents } from '../core/cents';
import { format, formatTable, language, useStrings } from '../core/i18n';
import { moneyFormatter, satsFormatter } from '../core/money-format';
import { BillSummary } from './BillSummary';
import { GuestReceipt } from './GuestReceipt';
import { GuestTaxInvoice } from './GuestTaxInvoice';
import {
  BILL_CANCELED,
  BILL_PAID,
  BILL_PENDING,
  fetchBill,
  fetchPaymentStatus,
  GuestApiError,
  type GuestBill,
  type GuestInvoice,
  type GuestPaymentStatus,
  newIdempotencyKey,
  requestInvoice,
} from './guest-api';
import { guestStrings } from './guest-strings';
import { InvoicePanel } from './InvoicePanel';
import { PayChooser } from './PayChooser';

/** While an invoice is shown the bill is asked for every second; it shows a settlement at once. */
const POLL_MS = 1000;
/**
 * The own payment is asked for when the bill's paid amount moved, and every few polls besides (its
 * expiry, a change missed): one link's budget (240 requests a minute) holds a table of phones.
 */
const STATUS_EVERY_POLLS = 5;
const AMOUNT_EXCEEDS = 'Amount exceeds the balance';
/** While another phone's invoice is pending, the bill is asked for this often, so its notice goes once paid. */
const OTHERS_POLL_MS = 3000;

/** The phone's own pending invoice outlives a reload: kept on the device, per link. */
const invoiceStore = (token: string) => `guest-lightning:${token}`;

function storedInvoice(token: string): GuestInvoice | undefined {
  try {
    const stored = localStorage.getItem(invoiceStore(token));
    // Whether it is still pending is the server's to say (the first poll asks), not the phone's clock.
    return stored ? (JSON.parse(stored) as GuestInvoice) : undefined;
  } catch {
    return undefined;
  }
}

function storeInvoice(token: string, invoice: GuestInvoice | undefined): void {
  try {
    if (invoice) localStorage.setItem(invoiceStore(token), JSON.stringify(invoice));
    else localStorage.removeItem(invoiceStore(token));
  } catch {
    // Private browsing without storage: the invoice stays shown until the page is reloaded.
  }
}

/**
 * The tips this phone paid, by payment, kept on the device per link: the bill shows each phone its own
 * tip, never the table's.
 */
const tipsStore = (token: string) => `guest-tips:${token}`;

function storedTips(token: string): Record<string, number> {
  try {
    return JSON.parse(localStorage.getItem(tipsStore(token)) ?? '{}') as Record<string, number>;
  } catch {
    return {};
  }
}

function storeTips(token: string, tips: Record<string, number>): void {
  try {
    localStorage.setItem(tipsStore(token), JSON.stringify(tips));
  } catch {
    // Private browsing without storage: the tip shows until the page is reloaded.
  }
}

/** The seat whose plates are all the bill's (a bill by seat): the page names the bill by it. */
function onlySeat(bill: GuestBill): number | null {
  const seats = new Set(bill.plates.map((plate) => plate.seat));
  const [seat] = seats;
  return seats.size === 1 && seat !== undefined ? seat : null;
}

type Problem = 'invalid' | 'unreachable' | 'tooMany';
type Attempt = { amountCents: number; tipCents: number; key: string };

function problemOf(failure: unknown): Problem {
  if (failure instanceof GuestApiError) return failure.status === 404 ? 'invalid' : 'tooMany';
  return 'unreachable';
}

/**
 * The guest's page of one bill (GET /g/{token}): the check, a tip, paying all or a part by Lightning
 * from the guest's own wallet, "paid" as soon as it is, and the receipt. No account, no staff data.
 */
export function GuestPage({ token }: { token: string }) {
  const t = useStrings(guestStrings);
  const lang = useStore(language);
  const [bill, setBill] = useState<GuestBill>();
  const [problem, setProblem] = useState<Problem>();
  const [invoice, setInvoice] = useState<GuestInvoice | undefined>(() => storedInvoice(token));
  const [status, setStatus] = useState<GuestPaymentStatus | undefined>(() =>
    invoice ? 'pending' : undefined,
  );
  const [ownTips, setOwnTips] = useState(() => storedTips(token));
  const [attempt, setAttempt] = useState<Attempt>();
  const [payError, setPayError] = useState<string>();
  /** A request whose answer never came: sent again with its key, so it cannot make a second invoice. */
  const [unanswered, setUnanswered] = useState<Attempt>();
  const money = useMemo(() => moneyFormatter(lang, bill?.currency ?? null), [lang, bill?.currency]);
  const sats = useMemo(() => satsFormatter(lang), [lang]);

  const isOnline = useOnline();
  useEffect(() => {
    document.title = t.pageTitle;
  }, [t]);

  const load = useCallback(async () => {
    try {
      const latest = await fetchBill(token);
      setBill(latest);
      setProblem(undefined);
      return latest;
    } catch (failure) {
      setProblem(problemOf(failure));
      return undefined;
    }
  }, [token]);
  useEffect(() => {
    if (isOnline) void load();
  }, [load, isOnline]);

  const pay = async (next: Attempt) => {
    setAttempt(next);
    setPayError(undefined);
    setUnanswered(undefined);
    try {
      const made = await requestInvoice(
        token,
        { amount: fromCents(next.amountCents), tip: fromCents(next.tipCents) },
        next.key,
      );
      setInvoice(made);
      setStatus('pending');
      storeInvoice(token, made);
    } catch (failure) {
      if (failure instanceof GuestApiError && failure.status === 404) setProblem('invalid');
      else if (failure instanceof GuestApiError && failure.message === AMOUNT_EXCEEDS) {
        setPayError(t.amountExceeds);
        void load();
      } else if (failure instanceof GuestApiError && failure.status === 503) setPayError(t.noLightning);
      else if (failure instanceof GuestApiError && failure.status === 429) setPayError(t.tooManyRequests);
      else if (failure instanceof GuestApiError) setPayError(failure.message);
      else {
        setPayError(t.unreachable);
        setUnanswered(next);
      }
    } finally {
      setAttempt(undefined);
    }
  };

  // Watching the shown invoice: the bill every second, the own payment when the bill's paid moved.
  const watched = status === 'pending' ? invoice?.payment_id : undefined;
  useEffect(() => {
    if (!watched) return;
    let isStopped = false;
    let lastPaid = bill?.paid;
    let polls = 0;
    const tick = async () => {
      const latest = await load();
      polls += 1;
      if (latest && (polls === 1 || latest.paid !== lastPaid || polls % STATUS_EVERY_POLLS === 0)) {
        lastPaid = latest.paid;
        const next = await fetchPaymentStatus(token, watched).catch(() => undefined);
        if (next && !isStopped) setStatus(next);
        if (next && next !== 'pending') {
          storeInvoice(token, undefined);
          return;
        }
      }
      if (!isStopped) timer = setTimeout(() => void tick(), POLL_MS);
    };
    let timer = setTimeout(() => void tick(), POLL_MS);
    return () => {
      isStopped = true;
      clearTimeout(timer);
    };
  }, [watched, token]);

  // The own invoice paid: its tip is this phone's to show.
  useEffect(() => {
    if (status !== 'settled' || !invoice) return;
    setOwnTips((tips) => {
      if (tips[invoice.payment_id] !== undefined) return tips;
      const next = { ...tips, [invoice.payment_id]: toCents(invoice.tip) };
      storeTips(token, next);
      return next;
    });
  }, [status, invoice, token]);

  // Another phone's invoice pending: the bill is followed until it is paid or expires.
  const othersPending = !watched && bill !== undefined && toCents(bill.balance) > toCents(bill.payable);
  useEffect(() => {
    if (!othersPending) return;
    const timer = setInterval(() => void load(), OTHERS_POLL_MS);
    return () => clearInterval(timer);
  }, [othersPending, load]);

  if (problem === 'invalid') {
    return (
      <main class="guest">
        <h1 class="guest-gone">{t.linkInvalid}</h1>
      </main>
    );
  }
  if (!bill) {
    return (
      <main class="guest">
        {!isOnline && !problem && (
          <p class="guest-error" role="alert">
            {t.offline}
          </p>
        )}
        {problem ? (
          <>
            <p class="guest-error" role="alert">
              {problem === 'tooMany' ? t.tooManyRequests : t.unreachable}
            </p>
            <button type="button" class="guest-secondary" onClick={() => void load()}>
              {t.tryAgain}
            </button>
          </>
        ) : (
          <p aria-live="polite">{t.loading}</p>
        )}
      </main>
    );
  }

  const offlineNotice = (!isOnline || problem === 'unreachable') && (
    <p class="guest-card guest-offline" role="alert">
      {t.offline}
    </p>
  );
  const isSettled = status === 'settled';
  const isPending = invoice !== undefined && status === 'pending' && bill.status !== BILL_CANCELED;
  const reservedCents = toCents(bill.balance) - toCents(bill.payable);
  const seat = onlySeat(bill);
  return (
    <main class="guest">
      <header class="guest-header">
        <h1>{bill.restaurant}</h1>
        <p class="guest-muted">
          {[
            bill.table !== null && formatTable(t.table, { name: bill.table }),
            seat !== null && format(t.seat, { seat }),
            format(t.servedBy, { name: bill.waiter_first_name }),
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
      </header>
      {offlineNotice}
      {isSettled && (
        <section class="guest-card guest-done" aria-live="polite">
          <p class="guest-paid" role="status">
            {t.paidThanks}
          </p>
        </section>
      )}
      {isSettled && <GuestReceipt token={token} />}
      {!isSettled && bill.status === BILL_PAID && (
        <section class="guest-card guest-done">
          <p class="guest-paid" role="status">
            {t.alreadyPaid}
          </p>
        </section>
      )}
      {!isSettled && bill.status === BILL_PAID && <GuestReceipt token={token} open />}
      {bill.status === BILL_PAID && bill.invoice && (
        <GuestTaxInvoice token={token} initial={bill.invoice} timeZone={bill.timezone} />
      )}
      {bill.status === BILL_CANCELED && (
        <p class="guest-card guest-error" role="status">
          {t.canceled}
        </p>
      )}
      {isPending && invoice && bill.status !== BILL_PAID && (
        <InvoicePanel invoice={invoice} money={money} sats={sats} />
      )}
      {status === 'expired' && bill.status === BILL_PENDING && (
        <section class="guest-card">
          <p class="guest-error" role="alert">
            {t.invoiceExpired}
          </p>
          <button
            type="button"
            class="guest-primary"
            onClick={() => {
              setInvoice(undefined);
              setStatus(undefined);
              void load();
            }}
          >
            {t.newInvoice}
          </button>
        </section>
      )}
      {!invoice && bill.status === BILL_PENDING && (
        <>
          {reservedCents > 0 && (
            <p class="guest-card guest-notice" role="status">
              {format(t.inProgress, { amount: money(reservedCents) })}
            </p>
          )}
          {payError && (
            <div class="guest-card">
              <p class="guest-error" role="alert">
                {payError}
              </p>
              {unanswered && attempt === undefined && (
                <button type="button" class="guest-secondary" onClick={() => void pay(unanswered)}>
                  {t.tryAgain}
                </button>
              )}
            </div>
          )}
          {attempt && <p aria-live="polite">{t.creatingInvoice}</p>}
          {toCents(bill.payable) > 0 && !bill.lightning && (
            <p class="guest-card guest-notice" role="status">
              {t.noLightning}
            </p>
          )}
          {toCents(bill.payable) > 0 && bill.lightning && (
            <PayChooser
              bill={bill}
              money={money}
              busy={attempt !== undefined}
              onPay={(amountCents, tipCents) => void pay({ amountCents, tipCents, key: newIdempotencyKey() })}
            />
          )}
        </>
      )}
      <BillSummary
        bill={bill}
        money={money}
        ownTipCents={Object.values(ownTips).reduce((sum, cents) => sum + cents, 0)}
      />
    </main>
  );
}

/** Whether the phone says it is online (a failed request tells the rest): as it changes. */
function useOnline(): boolean {
  const [isOnline, setIsOnline] = useState(navigator.onLine);
  useEffect(() => {
    const update = () => setIsOnline(navigator.onLine);
    addEventListener('online', update);
    addEventListener('offline', update);
    return () => {
      removeEventListener('online', update);
      removeEventListener('offline', update);
    };
  }, []);
  return isOnline;
}
