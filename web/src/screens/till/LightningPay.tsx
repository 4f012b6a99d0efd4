import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, api, type Ok, ok } from '../../api/client';
import { Alert } from '../../components/Alert';
import { fromCents, toCents } from '../../core/cents';
import type { LiveEvent } from '../../core/events';
import { format, useStrings } from '../../core/i18n';
import { useMoney, useSats } from '../../core/money';
import { lightningQrDataUrl } from '../../core/qr';
import { messageOf } from '../../core/server-text';
import { showPayment } from './customer-display';
import { strings } from './strings';
import { TICKET_PAID, type Ticket } from './till-model';

type Payment = Ok<'/payments/{id}', 'get'>;
/** The webhook or the server's sweep settles the payment; asking now and then covers a lost event. */
const POLL_MS = 3000;
const NO_RATE = 'Exchange rate unavailable';

/**
 * A Lightning invoice for the bill's balance, as a QR code the customer scans. It turns Paid by
 * itself: the live stream says so, and the payment is asked for every few seconds in case an event
 * is missed. An expired invoice can be replaced by a new one.
 */
export function LightningPay({
  ticket,
  amountCents,
  tipCents,
  lastEvent,
  onSettled,
}: {
  ticket: Ticket;
  amountCents: number;
  tipCents: number;
  lastEvent: LiveEvent | undefined;
  onSettled: () => void;
}) {
  const t = useStrings(strings);
  const money = useMoney();
  const sats = useSats();
  const [payment, setPayment] = useState<Payment>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const isSettled = payment?.status === 'settled' || ticket.status === TICKET_PAID;

  const request = useCallback(async () => {
    setBusy(true);
    setError(undefined);
    try {
      setPayment(
        await ok(
          api.POST('/tickets/{id}/lightning', {
            params: { path: { id: ticket.id } },
            body: { amount: fromCents(amountCents), ...(tipCents > 0 && { tip: fromCents(tipCents) }) },
          }),
        ),
      );
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 503) {
        setError(
          failure.message === NO_RATE
            ? t.noRate
            : format(t.nodeUnavailable, { message: messageOf(failure, failure.message) }),
        );
      } else setError(messageOf(failure, t.unreachable));
    } finally {
      setBusy(false);
    }
  }, [ticket.id, amountCents, tipCents, t.noRate, t.nodeUnavailable, t.unreachable]);

  useEffect(() => {
    void request();
  }, [request]);

  // The live stream: this payment settled or expired, or its bill was paid.
  useEffect(() => {
    if (!payment || !lastEvent) return;
    const data = lastEvent.data as { id?: string };
    if (lastEvent.type.startsWith('payment.') && data.id === payment.id)
      setPayment(lastEvent.data as Payment);
  }, [lastEvent, payment?.id]);

  // The fallback: ask the server, which asks the node.
  const paymentId = payment?.status === 'pending' ? payment.id : undefined;
  useEffect(() => {
    if (!paymentId) return;
    const timer = setInterval(() => {
      ok(api.GET('/payments/{id}', { params: { path: { id: paymentId } } }))
        .then((latest) => {
          if (latest.status !== 'pending') setPayment(latest);
        })
        .catch(() => undefined);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [paymentId]);

  // The customer display shows this invoice's QR while it may be paid.
  useEffect(() => {
    showPayment(ticket.id, paymentId ?? null);
    return () => showPayment(ticket.id, null);
  }, [ticket.id, paymentId]);

  useEffect(() => {
    if (isSettled) onSettled();
  }, [isSettled]);

  const invoice = payment?.lightning?.invoice;
  const qr = useMemo(() => (invoice ? lightningQrDataUrl(invoice) : undefined), [invoice]);

  if (isSettled) {
    return (
      <div class="lightning-pay stack">
        <p class="notice lightning-paid" role="status">
          <strong>{t.lightningPaid}</strong>
        </p>
      </div>
    );
  }
  return (
    <div class="lightning-pay stack">
      <Alert message={error} />
      {error && (
        <button type="button" disabled={busy} onClick={() => void request()}>
          {t.tryAgain}
        </button>
      )}
      {!error && !payment && <p aria-live="polite">{t.creatingInvoice}</p>}
      {payment?.status === 'expired' && (
        <>
          <p class="error" role="alert">
            {t.invoiceExpired}
          </p>
          <button type="button" class="primary" disabled={busy} onClick={() => void request()}>
            {t.newInvoice}
          </button>
        </>
      )}
      {payment?.status === 'pending' && payment.lightning && qr && (
        <>
          <img class="lightning-qr" src={qr} alt={t.qrAlt} width={280} height={280} />
          <p class="lightning-amount">
            <strong class="num">{format(t.sats, { sats: sats(payment.lightning.amount_sat) })}</strong>
            <span class="muted"> ({money(toCents(payment.amount + payment.tip))})</span>
          </p>
          <p role="status" class="lightning-waiting">
            {t.waitingForPayment}
          </p>
          <label for="bolt11">{t.invoiceText}</label>
          <textarea id="bolt11" class="bolt11" readOnly rows={4} value={payment.lightning.invoice} />
        </>
      )}
    </div>
  );
}
