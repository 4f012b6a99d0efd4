import type { Db } from '../core/db/database';
import { recordEvent } from '../events/events.api';
import type { OrderWithDishRows } from './order-dishes.repo';
import { toOrderDishView, toOrderView } from './order-views';
import type { OrderRow } from './orders.repo';

/** The order as GET /orders/{id} shows it after the change (a deleted one as it was when deleted). */
export function recordOrderEvent(
  trx: Db,
  type: 'order.created' | 'order.updated' | 'order.deleted',
  row: OrderRow,
  now: number,
): Promise<void> {
  return recordEvent(trx, { type, data: toOrderView(row), at: now });
}

/** The order and its dishes, read after the change, as GET /orders/{id}/complete shows them. */
export async function recordDishesChanged(trx: Db, found: OrderWithDishRows, now: number): Promise<void> {
  if (!found) return;
  await recordEvent(trx, {
    type: 'order.dishes_changed',
    data: { order: toOrderView(found.order), dishes: found.dishes.map(toOrderDishView) },
    at: now,
  });
}
