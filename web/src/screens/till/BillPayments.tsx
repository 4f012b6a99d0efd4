import { useEffect, useState } from 'preact/hooks';
import { api, createOnce, messageOf, ok } from '../../api/client';
import { Alert } from '../../components/Alert';
import { fromCents, parseCents, toCents } from '../../core/cents';
import { format, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { useCan } from '../../core/session';
import { checkoutStrings } from './checkout-strings';
import { strings } from './strings';
import type { Payment, Ticket } from './till-model';

/** Payments with something left to give back by this screen; Lightning refunds need the customer's invoice. */
const REFUNDABLE = new Set(['settled', 'partially_refunded']);

/** The payments of one bill, and refunding one of them (with the `payments.refund` permission). */
export function BillPayments({ ticket, name }: { ticket: Ticket; name: string }) {
  const t = useStrings(checkoutStrings);
  const common = useStrings(strings);
  const money = useMoney();
  const canRefund = useCan('payments.refund');
  const [payments, setPayments] = useState<Payment[]>();
  const [error, setError] = useState<string>();
  const [refunding, setRefunding] = useState<Payment>();
  const [notice, setNotice] = useState<string>();

  // The bill's figures change with every payment and refund: the list follows them.
  useEffect(() => {
    ok(api.GET('/tickets/{id}/payments', { params: { path: { id: ticket.id } } }))
      .then((list) => setPayments(list ?? []))
      .catch((failure) => setError(messageOf(failure, common.unreachable)));
  }, [ticket.id, ticket.paid, ticket.tips, ticket.status, common.unreachable]);

  const methodName = (code: string) =>
    code === 'cash'
      ? common.cash
      : code === 'card'
        ? common.card
        : code === 'lightning'
          ? common.lightning
          : code;

  return (
    <section class="card stack bill-payments" aria-labelledby="bill-payments-title">
      <h2 id="bill-payments-title">{format(t.payments, { name })}</h2>
      <Alert message={error} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {payments?.length === 0 && <p class="muted">{t.noPayments}</p>}
      {payments && payments.length > 0 && (
        <table class="list">
          <thead>
            <tr>
              <th scope="col">{t.method}</th>
              <th scope="col" class="num">
                {t.amount}
              </th>
              <th scope="col" class="num">
                {t.tip}
              </th>
              <th scope="col">{t.status}</th>
              {canRefund && <th scope="col">{t.refund}</th>}
            </tr>
          </thead>
          <tbody>
            {payments.map((payment) => (
              <tr key={payment.id} data-payment-id={payment.id} data-status={payment.status}>
                <td>{methodName(payment.method)}</td>
                <td class="num">{money(toCents(payment.amount))}</td>
                <td class="num">{money(toCents(payment.tip))}</td>
                <td>{t[`paymentStatus_${payment.status}`]}</td>
                {canRefund && (
                  <td>
                    {REFUNDABLE.has(payment.status) && payment.method !== 'lightning' && (
                      <button
                        type="button"
                        class="ghost"
                        aria-label={format(t.refundOf, {
                          method: methodName(payment.method),
                          amount: money(toCents(payment.amount)),
                        })}
                        onClick={() => {
                          setNotice(undefined);
                          setRefunding(payment);
                        }}
                      >
                        {t.refund}
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {refunding && (
        <RefundForm
          key={refunding.id}
          payment={refunding}
          title={format(t.refundOf, {
            method: methodName(refunding.method),
            amount: money(toCents(refunding.amount)),
          })}
          onDone={(isRefunded) => {
            setRefunding(undefined);
            if (isRefunded) setNotice(t.refundDone);
          }}
        />
      )}
    </section>
  );
}

/** How much to give back (empty: all that is left of the payment) and why; the audit log keeps the reason. */
function RefundForm({
  payment,
  title,
  onDone,
}: {
  payment: Payment;
  title: string;
  onDone: (isRefunded: boolean) => void;
}) {
  const t = useStrings(checkoutStrings);
  const common = useStrings(strings);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const amountCents = amount.trim() === '' ? undefined : parseCents(amount);
  const isAmountValid = amount.trim() === '' || (amountCents !== undefined && amountCents > 0);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!isAmountValid || reason.trim() === '') return;
    setBusy(true);
    setError(undefined);
    try {
      await createOnce((key) =>
        api.POST('/payments/{id}/refund', {
          params: { header: { 'idempotency-key': key }, path: { id: payment.id } },
          body: {
            reason: reason.trim(),
            ...(amountCents !== undefined && { amount: fromCents(amountCents) }),
          },
        }),
      );
      onDone(true);
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
      <Alert message={error} />
      <div class="actions">
        <button type="button" class="ghost" onClick={() => onDone(false)}>
          {t.cancel}
        </button>
        <button type="submit" class="danger" disabled={busy || !isAmountValid || reason.trim() === ''}>
          {t.refundAction}
        </button>
      </div>
    </form>
  );
}
