import type { Db } from '../core/db/database';
import { recordOrderEvent } from './order-events';
import { unseatOrder } from './order-seating';
import * as tables from './order-tables.repo';
import * as orders from './orders.repo';

/**
 * Completes the order and frees its table, with the events the cashier's close emits
 * (`order.updated`, `table.updated`): the floor and every screen learn it alike, whether the till
 * closed it (orders.service.ts) or its bills' payments did (tickets/order-done.ts).
 */
export async function completeOrder(trx: Db, order: orders.OrderRow, now: number): Promise<orders.OrderRow> {
  await tables.lockTables(trx, [order.table_id]);
  const closed = await orders.updateOrder(trx, order.id, { status: 'completed', updated_at: now });
  await recordOrderEvent(trx, 'order.updated', closed, now);
  if (order.table_id) await unseatOrder(trx, order.table_id, order.id, now);
  return closed;
}
