import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { cardBrandName, terminalName } from '../../core/card-terminal';
import { fromCents, toCents } from '../../core/cents';
import type { LiveEvent } from '../../core/events';
import { format, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { messageOf } from '../../core/server-text';
import { showPayment } from './customer-display';
import { strings } from './strings';
import {
  isWaiting,
  type Payment,
  preferredTerminal,
  rememberTerminal,
  type Terminal,
} from './terminal-model';
import { terminalStrings } from './terminal-strings';

/** The notification or the server's watch job settles the charge; asking every 2 s covers a lost event. */
const POLL_MS = 2000;

/**
 * A charge of the bill on the Mercado Pago terminal beside the till: the guest taps or inserts the card
 * there. The till says what the terminal is doing until the charge is paid, declined or canceled, and
 * offers another attempt (a new charge) or another method when it was not paid.
 */
export function TerminalPay({
  ticketId,
  amountCents,
  tipCents,
  terminals,
  lastEvent,
  onStarted,
  onSettled,
  onOtherMethod,
}: {
  ticketId: string;
  amountCents: number | undefined;
  tipCents: number | undefined;
  terminals: Terminal[];
  lastEvent: LiveEvent | undefined;
  onStarted: (isStarted: boolean) => void;
  onSettled: (notice: string) => void;
  onOtherMethod: () => void;
}) {
  const t = useStrings(terminalStrings);
  const till = useStrings(strings);
  const money = useMoney();
  const [terminalId, setTerminalId] = useState(() => preferredTerminal(terminals));
  const [paymentId, setPaymentId] = useState<string>();
  const [payment, setPayment] = useState<Payment>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const isReady = amountCents !== undefined && tipCents !== undefined && terminalId !== undefined;

  // Each attempt is its own charge: writeOnce gives it one Idempotency-Key, kept for its retries, so a
  // lost answer never charges the card twice, and "Reintentar" is a new attempt with a new key.
  const charge = async () => {
    if (!isReady) return;
    setBusy(true);
    setError(undefined);
    setPaymentId(undefined);
    setPayment(undefined);
    try {
      const sent = await writeOnce((key) =>
        api.POST('/tickets/{id}/card-terminal', {
          params: { header: { 'idempotency-key': key }, path: { id: ticketId } },
          body: {
            amount: fromCents(amountCents),
            ...(tipCents > 0 && { tip: fromCents(tipCents) }),
            terminal_id: terminalId,
          },
        }),
      );
      setPaymentId(sent.payment_id);
      onStarted(true);
    } catch (failure) {
      setError(messageOf(failure, till.unreachable));
    } finally {
      setBusy(false);
    }
  };

  const cancel = async () => {
    if (!paymentId) return;
    setBusy(true);
    setError(undefined);
    try {
      setPayment(
        await writeOnce(() => api.POST('/payments/{id}/cancel', { params: { path: { id: paymentId } } })),
      );
    } catch (failure) {
      // "Cancele en la terminal…" (the provider refuses from the till) is said as the server says it.
      setError(messageOf(failure, till.unreachable));
    } finally {
      setBusy(false);
    }
  };

  // The live stream: what the terminal does, a declined card, the charge paid.
  useEffect(() => {
    if (!paymentId || !lastEvent?.type.startsWith('payment.')) return;
    const data = lastEvent.data as Payment;
    if (data.id === paymentId) setPayment(data);
  }, [lastEvent, paymentId]);

  // The fallback: ask for the charge at once, then every few seconds while the terminal has it.
  const isOpen = paymentId !== undefined && (payment === undefined || isWaiting(payment));
  useEffect(() => {
    if (!isOpen || !paymentId) return;
    const read = () =>
      ok(api.GET('/payments/{id}', { params: { path: { id: paymentId } } }))
        .then(setPayment)
        .catch(() => undefined);
    void read();
    const timer = setInterval(read, POLL_MS);
    return () => clearInterval(timer);
  }, [isOpen, paymentId]);

  // The customer display asks the guest to pay on the terminal, then says how it went.
  useEffect(() => {
    if (paymentId) showPayment(ticketId, paymentId);
  }, [ticketId, paymentId]);
  // A paid charge stays on the display, which thanks the guest; any other is taken off with the panel.
  const isPaid = useRef(false);
  isPaid.current = payment?.status === 'settled';
  useEffect(
    () => () => {
      if (!isPaid.current) showPayment(ticketId, null);
    },
    [ticketId],
  );

  const details = payment?.terminal;
  const paidNotice =
    payment?.status === 'settled'
      ? format(t.paidWith, {
          brand: cardBrandName(details?.card_brand ?? null),
          last4: details?.last_four ?? '????',
          code: details?.authorization_code ?? '—',
        })
      : undefined;
  useEffect(() => {
    if (paidNotice) onSettled(paidNotice);
  }, [paidNotice]);

  if (paidNotice) {
    return (
      <p class="notice terminal-paid" role="status">
        <strong>{paidNotice}</strong>
      </p>
    );
  }
  const isEnded = payment !== undefined && !isWaiting(payment);
  if (isEnded) {
    return (
      <div class="terminal-pay stack">
        {payment.status === 'canceled' ? (
          // Withdrawn on purpose, here or at the terminal: news, not a failure.
          <p class="notice" role="status">
            {details?.failure_reason ?? t.canceled}
          </p>
        ) : (
          <p class="error" role="alert">
            {details?.failure_reason ?? t.failed}
          </p>
        )}
        <Alert message={error} />
        <div class="row">
          <button type="button" class="primary" disabled={busy || !isReady} onClick={() => void charge()}>
            {t.retry}
          </button>
          <button
            type="button"
            onClick={() => {
              showPayment(ticketId, null);
              onStarted(false);
              onOtherMethod();
            }}
          >
            {t.otherMethod}
          </button>
        </div>
      </div>
    );
  }
  if (paymentId) {
    const state = payment?.status === 'action_required' ? 'action_required' : (details?.state ?? 'created');
    return (
      <div class="terminal-pay stack">
        <p class="terminal-amount">
          <strong class="num">
            {money(payment ? toCents(payment.amount + payment.tip) : (amountCents ?? 0) + (tipCents ?? 0))}
          </strong>
          <span class="muted"> · {terminalName(details?.terminal_id ?? terminalId ?? '')}</span>
        </p>
        <p
          role="status"
          aria-live="polite"
          class={state === 'action_required' ? 'error' : 'terminal-waiting'}
        >
          {details?.cancel_requested
            ? t.cancelRequested
            : state === 'action_required'
              ? t.actionRequired
              : state === 'at_terminal'
                ? t.atTerminal
                : t.created}
        </p>
        <Alert message={error} />
        <button type="button" disabled={busy || details?.cancel_requested} onClick={() => void cancel()}>
          {t.cancel}
        </button>
      </div>
    );
  }
  return (
    <div class="terminal-pay stack">
      {terminals.length > 1 && (
        <>
          <label for="terminal-choice">{t.terminal}</label>
          <select
            id="terminal-choice"
            value={terminalId}
            onChange={(event) => {
              setTerminalId(event.currentTarget.value);
              rememberTerminal(event.currentTarget.value);
            }}
          >
            {terminals.map((terminal) => (
              <option key={terminal.id} value={terminal.id}>
                {terminalName(terminal.id)}
              </option>
            ))}
          </select>
        </>
      )}
      <Alert message={error} />
      <button type="button" class="primary" disabled={busy || !isReady} onClick={() => void charge()}>
        {format(t.charge, { amount: money((amountCents ?? 0) + (tipCents ?? 0)) })}
      </button>
    </div>
  );
}
