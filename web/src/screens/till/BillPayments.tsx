import { useEffect, useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import { Alert } from '../../components/Alert';
import { cardBrandName } from '../../core/card-terminal';
import { toCents } from '../../core/cents';
import { format, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { messageOf } from '../../core/server-text';
import { useCan } from '../../core/session';
import { checkoutStrings } from './checkout-strings';
import { RefundForm } from './RefundForm';
import { strings } from './strings';
import { CARD_TERMINAL } from './terminal-model';
import { terminalStrings } from './terminal-strings';
import type { Payment, Ticket } from './till-model';

/** Payments with something left to give back; Lightning refunds need the customer's invoice. */
const REFUNDABLE = new Set(['settled', 'partially_refunded']);

/**
 * The payments of one bill, with the Lightning payment requests still pending (a guest's from the
 * phone among them): the cashier can cancel one so the balance can be charged another way
 * (`payments.take`), and refund a payment of any method (`payments.refund`).
 */
export function BillPayments({ ticket, name }: { ticket: Ticket; name: string }) {
  const t = useStrings(checkoutStrings);
  const common = useStrings(strings);
  const terminal = useStrings(terminalStrings);
  const money = useMoney();
  const canRefund = useCan('payments.refund');
  const canTake = useCan('payments.take');
  const [withdrawing, setWithdrawing] = useState<string>();
  const [payments, setPayments] = useState<Payment[]>();
  const [error, setError] = useState<string>();
  const [refunding, setRefunding] = useState<Payment>();
  const [notice, setNotice] = useState<string>();

  // The bill's figures change with every payment and refund: the list follows them.
  useEffect(() => {
    ok(api.GET('/tickets/{id}/payments', { params: { path: { id: ticket.id } } }))
      .then((list) => setPayments(list ?? []))
      .catch((failure) => setError(messageOf(failure, common.unreachable)));
  }, [ticket.id, ticket.paid, ticket.tips, ticket.status, common.unreachable, withdrawing]);

  const withdraw = async (payment: Payment) => {
    setWithdrawing(payment.id);
    setError(undefined);
    setNotice(undefined);
    try {
      await ok(api.POST('/payments/{id}/cancel', { params: { path: { id: payment.id } } }));
      setNotice(t.withdrawn);
    } catch (failure) {
      setError(messageOf(failure, common.unreachable));
    } finally {
      setWithdrawing(undefined);
    }
  };

  const methodName = (code: string) =>
    code === 'cash'
      ? common.cash
      : code === 'card'
        ? common.card
        : code === 'lightning'
          ? common.lightning
          : code === CARD_TERMINAL
            ? terminal.method
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
        <table class="list stacks">
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
              {(canRefund || canTake) && (
                <th scope="col">
                  <span class="visually-hidden">{t.refund}</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {payments.map((payment) => (
              <tr
                key={payment.id}
                data-payment-id={payment.id}
                data-status={payment.status}
                data-source={payment.source}
              >
                <td>
                  {payment.method === 'lightning' && payment.source === 'guest'
                    ? t.guestLightning
                    : methodName(payment.method)}
                  {payment.terminal?.last_four && (
                    <span class="muted">
                      {' '}
                      {cardBrandName(payment.terminal.card_brand)} •••• {payment.terminal.last_four}
                    </span>
                  )}
                </td>
                <td class="num" data-label={t.amount}>
                  {money(toCents(payment.amount))}
                </td>
                <td class="num" data-label={t.tip}>
                  {money(toCents(payment.tip))}
                </td>
                <td>{t[`paymentStatus_${payment.status}`]}</td>
                {(canRefund || canTake) && (
                  <td>
                    {canTake && payment.method === 'lightning' && payment.status === 'pending' && (
                      <button
                        type="button"
                        class="ghost"
                        disabled={withdrawing !== undefined}
                        aria-label={format(t.withdrawOf, { amount: money(toCents(payment.amount)) })}
                        onClick={() => void withdraw(payment)}
                      >
                        {t.withdraw}
                      </button>
                    )}
                    {canRefund && REFUNDABLE.has(payment.status) && (
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
          onDone={(isRefunded, refundNotice) => {
            setRefunding(undefined);
            if (isRefunded) setNotice(refundNotice ?? t.refundDone);
          }}
        />
      )}
    </section>
  );
}
