import type { Db } from '../core/db/database';
import { TICKET_STATUS } from '../core/db/ticket-status';
import { recordEvent } from '../events/events.api';
import { refreshSalesFacts } from '../orders/orders.api';
import { loadSettings } from '../settings/settings.api';
import { closeOrderIfDone, lockTicketWithOrder, viewOfRow as ticketViewOfRow } from '../tickets/tickets.api';
import { toPaymentView } from './payment-views';
import * as payments from './payments.repo';

export type Settlement = 'settled' | 'already settled' | 'unknown';

/**
 * Settles a pending payment that money outside the till paid (the Lightning node, the card
 * terminal), once: `markSettled` is the conditional update on its status that lets only one of a
 * notification, a read-back and a sweep through, under the bill's order lock. A payment settling
 * late (the bill paid by other means, cancelled) still counts, and the bill shows a negative balance.
 */
export async function settlePendingIn(
  trx: Db,
  payment: Pick<payments.PaymentRow, 'id' | 'ticket_id' | 'amount_cents' | 'tip_cents'>,
  now: number,
  markSettled: (trx: Db) => Promise<boolean>,
): Promise<Settlement> {
  const ticket = await lockTicketWithOrder(trx, payment.ticket_id);
  if (!(await markSettled(trx))) return 'already settled';
  const settled = await payments.addSettledToTicket(
    trx,
    ticket,
    { amountCents: Number(payment.amount_cents), tipCents: Number(payment.tip_cents) },
    now,
  );
  const isPaid = Number(settled.ticket.status) === TICKET_STATUS.paid;
  // The sales facts are the Paid bills' (a late payment adds its tip to one already Paid).
  if (isPaid) await refreshSalesFacts(trx, ticket.order_id);
  const row = await payments.findPayment(trx, payment.id);
  if (!row) throw new Error(`payment ${payment.id} vanished inside its own transaction`);
  await recordEvent(trx, { type: 'payment.settled', data: toPaymentView(row), at: now });
  if (Number(ticket.status) === TICKET_STATUS.pending && isPaid) {
    await recordEvent(trx, {
      type: 'ticket.paid',
      data: await ticketViewOfRow(trx, settled.ticket),
      at: now,
    });
    await closeOrderIfDone(trx, settled.order, now, await loadSettings(trx));
  }
  return 'settled';
}
