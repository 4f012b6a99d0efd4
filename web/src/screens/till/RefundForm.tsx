import { useEffect, useState } from 'preact/hooks';
import { api, createOnce, ok } from '../../api/client';
import { useStore } from '../../api/store';
import { Alert } from '../../components/Alert';
import { fromCents, parseCents, toCents } from '../../core/cents';
import { format, useStrings } from '../../core/i18n';
import { messageOf } from '../../core/server-text';
import { currentUser } from '../../core/session';
import { checkoutStrings } from './checkout-strings';
import { strings } from './strings';
import type { Payment } from './till-model';

type Drawer = { id: string; name: string };

/**
 * The drawers a cash refund may come out of when the refunder has no open shift of her own: the open
 * shifts she may see (everyone's with `shifts.manage`). Undefined while loading or when her own
 * drawer pays it; empty when no drawer is counted, and the server then needs none.
 */
function useOtherDrawers(isCash: boolean): Drawer[] | undefined {
  const user = useStore(currentUser);
  const [drawers, setDrawers] = useState<Drawer[]>();
  useEffect(() => {
    if (!isCash || !user) return;
    const find = async () => {
      // The list, not GET /shifts/current: a 404 there would be a console error on every refund.
      const [own] =
        (await ok(api.GET('/shifts', { params: { query: { user_id: user.id, limit: 1, offset: 0 } } }))) ??
        [];
      if (own?.closed_at === null) return undefined;
      const shifts = (await ok(api.GET('/shifts', { params: { query: { limit: 50, offset: 0 } } }))) ?? [];
      return shifts
        .filter((shift) => shift.closed_at === null)
        .map((shift) => ({ id: shift.id, name: shift.user_name }));
    };
    void find()
      .then(setDrawers)
      .catch(() => setDrawers([]));
  }, [isCash, user]);
  return drawers;
}

/**
 * How much to give back (empty: all that is left of the payment) and why; the audit log keeps the
 * reason. A Lightning payment is given back through the node: the customer's wallet makes a payment
 * request for the amount and the node pays it. A card-terminal payment is refunded by Mercado Pago to
 * the card, which takes a while: the refund is pending until it says.
 */
export function RefundForm({
  payment,
  title,
  onDone,
}: {
  payment: Payment;
  title: string;
  /** `notice`: what the cashier is told of a refund made (sent to Mercado Pago, or recorded). */
  onDone: (isRefunded: boolean, notice?: string) => void;
}) {
  const t = useStrings(checkoutStrings);
  const common = useStrings(strings);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [invoice, setInvoice] = useState('');
  const isLightning = payment.method === 'lightning';
  const drawers = useOtherDrawers(payment.method === 'cash');
  const [drawer, setDrawer] = useState('');
  const drawerId = drawers && drawers.length > 0 ? drawer || drawers[0]?.id : undefined;
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const amountCents = amount.trim() === '' ? undefined : parseCents(amount);
  const isAmountValid = amount.trim() === '' || (amountCents !== undefined && amountCents > 0);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!isAmountValid || reason.trim() === '' || (isLightning && invoice.trim() === '')) return;
    setBusy(true);
    setError(undefined);
    try {
      const refund = await createOnce((key) =>
        api.POST('/payments/{id}/refund', {
          params: { header: { 'idempotency-key': key }, path: { id: payment.id } },
          body: {
            reason: reason.trim(),
            ...(amountCents !== undefined && { amount: fromCents(amountCents) }),
            ...(isLightning && { invoice: invoice.trim() }),
            ...(drawerId !== undefined && { shift_id: drawerId }),
          },
        }),
      );
      // A terminal payment goes back through Mercado Pago, which answers later: the bill changes then.
      onDone(true, refund.status === 'pending' ? t.refundSentToProvider : t.refundDone);
    } catch (failure) {
      setError(messageOf(failure, common.unreachable));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="stack refund-form" aria-labelledby="refund-title" onSubmit={submit}>
      <h3 id="refund-title">{title}</h3>
      <label for="refund-amount">{t.refundAmount}</label>
      <input
        id="refund-amount"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        placeholder={fromCents(toCents(payment.amount)).toFixed(2)}
        aria-describedby="refund-amount-hint"
        aria-invalid={!isAmountValid}
        value={amount}
        onInput={(event) => setAmount(event.currentTarget.value)}
      />
      <p id="refund-amount-hint" class={isAmountValid ? 'muted' : 'error'}>
        {isAmountValid ? t.refundAmountHint : t.badAmount}
      </p>
      <label for="refund-reason">{t.refundReason}</label>
      <input
        id="refund-reason"
        type="text"
        required
        maxLength={200}
        value={reason}
        onInput={(event) => setReason(event.currentTarget.value)}
      />
      {drawers && drawers.length > 0 && (
        <>
          <label for="refund-drawer">{t.refundDrawer}</label>
          <select
            id="refund-drawer"
            value={drawerId}
            onChange={(event) => setDrawer(event.currentTarget.value)}
          >
            {drawers.map((option) => (
              <option key={option.id} value={option.id}>
                {format(t.drawerOf, { name: option.name })}
              </option>
            ))}
          </select>
        </>
      )}
      {isLightning && (
        <>
          <label for="refund-invoice">{t.refundInvoice}</label>
          <textarea
            id="refund-invoice"
            required
            rows={3}
            maxLength={4000}
            autoComplete="off"
            spellcheck={false}
            aria-describedby="refund-invoice-hint"
            value={invoice}
            onInput={(event) => setInvoice(event.currentTarget.value)}
          />
          <p id="refund-invoice-hint" class="muted">
            {t.refundInvoiceHint}
          </p>
        </>
      )}
      <Alert message={error} />
      <div class="actions">
        <button type="button" class="ghost" onClick={() => onDone(false)}>
          {t.cancel}
        </button>
        <button
          type="submit"
          class="danger"
          disabled={busy || !isAmountValid || reason.trim() === '' || (isLightning && invoice.trim() === '')}
        >
          {t.refundAction}
        </button>
      </div>
    </form>
  );
}
