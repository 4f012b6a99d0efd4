import { api, keyHeader, writeOnce } from '../../api/client';
import { toCents } from '../../core/cents';
import { format, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { checkoutStrings } from './checkout-strings';
import { strings } from './strings';
import { TICKET_CANCELED, TICKET_PAID, TICKET_PENDING, type Ticket } from './till-model';

/** The order's bills, oldest first, with what each still owes. */
export function Bills({
  tickets,
  names,
  paying,
  onPay,
  onChanged,
  onError,
}: {
  tickets: Ticket[];
  /** Each bill's name, by its id. */
  names: Map<string, string>;
  paying: string | undefined;
  /** Opens a bill: paying it while pending, its payments, refunds and receipt once paid. */
  onPay: (ticketId: string) => void;
  onChanged: () => void;
  onError: (failure: unknown) => void;
}) {
  const t = useStrings(strings);
  const checkout = useStrings(checkoutStrings);
  const money = useMoney();
  if (tickets.length === 0) return <p class="muted">{t.noBills}</p>;

  const cancel = async (id: string) => {
    try {
      await writeOnce((key) =>
        api.POST('/tickets/{id}/cancel', { params: { path: { id } }, headers: keyHeader(key) }),
      );
      onChanged();
    } catch (failure) {
      onError(failure);
    }
  };
  const statusOf = (status: number) =>
    status === TICKET_PAID ? (
      <span class="badge ok">{t.statusPaid}</span>
    ) : status === TICKET_CANCELED ? (
      <span class="badge danger">{t.statusCanceled}</span>
    ) : (
      <span class="badge warn">{t.statusPending}</span>
    );

  return (
    <div class="stack">
      <h2>{t.bills}</h2>
      <ul class="till-bills">
        {tickets.map((ticket) => {
          const name = names.get(ticket.id) ?? '';
          const isPending = ticket.status === TICKET_PENDING;
          // A paid bill's balance rises only by refunds: it says so rather than look due.
          const isRefunded = ticket.status === TICKET_PAID && toCents(ticket.balance) > 0;
          return (
            <li
              key={ticket.id}
              class={`card till-bill${paying === ticket.id ? ' selected' : ''}`}
              data-ticket-id={ticket.id}
              data-status={ticket.status}
            >
              <div class="till-bill-head">
                <strong>{name}</strong>
                {statusOf(ticket.status)}
              </div>
              <dl class="till-bill-amounts">
                <dt>{t.total}</dt>
                <dd class="num">{money(toCents(ticket.total))}</dd>
                <dt>{t.paidSoFar}</dt>
                <dd class="num">{money(toCents(ticket.paid))}</dd>
                {isRefunded ? <dt>{checkout.refunds}</dt> : <dt>{t.balance}</dt>}
                <dd class="num">{money(toCents(ticket.balance))}</dd>
              </dl>
              {ticket.status === TICKET_PAID && (
                <div class="actions">
                  <button
                    type="button"
                    class={paying === ticket.id ? 'primary' : undefined}
                    onClick={() => onPay(ticket.id)}
                  >
                    {format(t.billDetails, { name })}
                  </button>
                </div>
              )}
              {isPending && (
                <div class="actions">
                  {toCents(ticket.paid) === 0 && (
                    <button type="button" class="ghost" onClick={() => void cancel(ticket.id)}>
                      {format(t.cancelBill, { name })}
                    </button>
                  )}
                  <button type="button" class="primary" onClick={() => onPay(ticket.id)}>
                    {format(t.payBill, { name })}
                  </button>
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
