import type { Db } from '../core/db/database';
import { TICKET_STATUS } from '../core/db/ticket-status';
import type * as orders from '../orders/orders.api';
import { completeOrder, findLiveTicketsOfOrder, isActive, orderBalanceCents } from '../orders/orders.api';
import type { Settings } from '../settings/settings.api';

/**
 * The one place that decides when an order is done, however it was paid: it is active, nothing is
 * owed (its payments cover every plate, so none is left unbilled), none of its bills is pending and
 * at least one is paid. It sits with the bills, the lowest layer that knows both the order and its
 * bills; every path that can make a bill Paid (a recorded payment, a Lightning payment settled by
 * webhook, lookup, sweep or catch-up) calls it inside the transaction that made it Paid, with the
 * order's row already locked.
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
 * After a payment made a bill Paid: an order that is now done closes itself and frees its table,
 * unless the restaurant clears tables by hand (`close_paid_orders` off). `order` is the order's row as
 * the payment left it, locked; `settings` are the ones the payment read.
 */
export async function closeOrderIfDone(
  trx: Db,
  order: orders.OrderRow,
  now: number,
  settings: Pick<Settings, 'closePaidOrders'>,
): Promise<void> {
  if (settings.closePaidOrders && Number(order.is_deleted) === 0 && (await isOrderDone(trx, order))) {
    await completeOrder(trx, order, now);
  }
}
