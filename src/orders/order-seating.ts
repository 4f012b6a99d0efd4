import type { Db } from '../core/db/database';
import { recordTableEvent } from '../tables/tables.api';
import { tableNotFound } from './order-links';
import * as tables from './order-tables.repo';

/** The table shows the order that now holds it; a table that is gone refuses the order. */
export async function seatOrder(trx: Db, tableId: string, orderId: string, now: number): Promise<void> {
  const table = await tables.occupyTable(trx, tableId, orderId, now);
  if (!table) throw tableNotFound(tableId);
  await recordTableEvent(trx, 'table.updated', table, now);
}

export async function unseatOrder(trx: Db, tableId: string, orderId: string, now: number): Promise<void> {
  const table = await tables.freeTable(trx, tableId, orderId, now);
  if (table) await recordTableEvent(trx, 'table.updated', table, now);
}
