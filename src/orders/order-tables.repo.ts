import { sql } from 'kysely';
import { type Db, isPostgres } from '../core/db/database';
import { forUpdate } from '../core/db/locks';
import { prepared } from '../core/db/prepared';
import type { TableRow } from '../tables/tables.api';

/**
 * The orders service keeps `dining_tables.status` and `order_id` in step with the order that holds
 * the table, inside the same transaction as the order change.
 */

const liveTableId = prepared((db, { id }: { id: string }) =>
  db.selectFrom('dining_tables').select('id').where('id', '=', id).where('is_deleted', '=', sql.lit(0)),
);

export async function isLiveTable(db: Db, id: string): Promise<boolean> {
  return (await liveTableId.first(db, { id })) !== undefined;
}

const lockedTable = prepared((db, { id }: { id: string }) =>
  forUpdate(db, db.selectFrom('dining_tables').select('id').where('id', '=', id)),
);

/**
 * Locks the rows of these tables (null and unknown ids are skipped), one by one in id order. Every
 * order write locks the tables it touches this way before it writes the order row, so two writes over
 * the same tables queue up. Otherwise a swap deadlocks on PostgreSQL: each moved order row waits in the
 * unique index `orders_one_active_per_table` for the other transaction, and one is aborted. SQLite
 * has no row locks and runs one transaction at a time, so there the queries would only cost time.
 */
export async function lockTables(db: Db, ids: (string | null)[]): Promise<void> {
  if (!isPostgres(db)) return;
  const sortedIds = [...new Set(ids.filter((id): id is string => id !== null))].sort();
  for (const id of sortedIds) {
    await lockedTable.all(db, { id });
  }
}

const occupiedTable = prepared(
  (db, { tableId, orderId, now }: { tableId: string; orderId: string; now: number }) =>
    db
      .updateTable('dining_tables')
      .set({ status: 'occupied', order_id: orderId, updated_at: now })
      .where('id', '=', tableId)
      .where('is_deleted', '=', sql.lit(0))
      .returningAll(),
);

/** The table now held by the order; undefined when there is no live table with that id. */
export function occupyTable(
  db: Db,
  tableId: string,
  orderId: string,
  now: number,
): Promise<TableRow | undefined> {
  return occupiedTable.first(db, { tableId, orderId, now });
}

const freedTable = prepared(
  (db, { tableId, orderId, now }: { tableId: string; orderId: string; now: number }) =>
    db
      .updateTable('dining_tables')
      .set({ status: 'available', order_id: null, updated_at: now })
      .where('id', '=', tableId)
      .where('order_id', '=', orderId)
      .returningAll(),
);

/**
 * Frees the table only while it still points at this order; someone may have reassigned it since.
 * The freed table, or undefined when it was not this order's.
 */
export function freeTable(
  db: Db,
  tableId: string,
  orderId: string,
  now: number,
): Promise<TableRow | undefined> {
  return freedTable.first(db, { tableId, orderId, now });
}
