import type { Db } from '../core/db/database';
import { TICKET_STATUS } from '../core/db/ticket-status';
import { loadSettings } from '../settings/settings.service';
import { findLiveTicketsOfOrder } from '../tickets/tickets.repo';
import { recordOrderEvent } from './order-events';
import { unseatOrder } from './order-seating';
import { isActive } from './order-status';
import * as tables from './order-tables.repo';
import { orderBalanceCents } from './order-views';
import * as orders from './orders.repo';

/**
 * The one place that decides when an order is done, however it was paid: it is active, nothing is
 * owed (its payments cover every plate, so none is left unbilled), none of its bills is pending and
 * at least one is paid. Called by every path that can make a bill Paid (a recorded payment, a
 * Lightning payment settled by webhook, lookup, sweep or catch-up) inside the transaction that
 * made it Paid, with the order's row already locked.
 */
export async function isOrderDone(trx: Db, order: orders.OrderRow): Promise<boolean> {
  if (!isActive(order.status) || orderBalanceCents(order) > 0) return false;
  const bills = await findLiveTicketsOfOrder(trx, order.id);
  return (
    bills.some((bill) => Number(bill.status) === TICKET_STATUS.paid) &&
    bills.every((bill) => Number(bill.status) !== TICKET_STATUS.pending)
  );
}

/**
 * Completes the order and frees its table, with the events the cashier's close emits
 * (`order.updated`, `table.updated`): the floor and every screen learn it alike either way.
 */
export async function completeOrder(trx: Db, order: orders.OrderRow, now: number): Promise<orders.OrderRow> {
  await tables.lockTables(trx, [order.table_id]);
  const closed = await orders.updateOrder(trx, order.id, { status: 'completed', updated_at: now });
  await recordOrderEvent(trx, 'order.updated', closed, now);
  if (order.table_id) await unseatOrder(trx, order.table_id, order.id, now);
  return closed;
}

/**
 * After a payment made a bill Paid: an order that is now done closes itself and frees its table,
 * unless the restaurant clears tables by hand (`close_paid_orders` off).
 */
export async function closeOrderIfDone(trx: Db, orderId: string, now: number): Promise<void> {
  if (!(await loadSettings(trx)).closePaidOrders) return;
  const order = await orders.lockLiveOrder(trx, orderId);
  if (order && (await isOrderDone(trx, order))) await completeOrder(trx, order, now);
}
