import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Db } from '../core/db/database';
import { forUpdate } from '../core/db/locks';
import { prepared } from '../core/db/prepared';
import type { Database } from '../core/db/schema';

export type TableRow = Selectable<Database['dining_tables']>;

const ACTIVE_ORDER_STATUSES = ['pending', 'preparing', 'ready'] as const;

const liveTables = prepared((db, { spaceId }: { spaceId: string | undefined }) => {
  let query = db.selectFrom('dining_tables').selectAll().where('is_deleted', '=', sql.lit(0));
  if (spaceId !== undefined) query = query.where('space_id', '=', spaceId);
  return query.orderBy('name').orderBy('id');
});

export function listLiveTables(db: Db, spaceId?: string): Promise<TableRow[]> {
  return liveTables.all(db, { spaceId });
}

function selectLiveTable(db: Db, id: string) {
  return db.selectFrom('dining_tables').selectAll().where('id', '=', id).where('is_deleted', '=', sql.lit(0));
}

export function findLiveTable(db: Db, id: string): Promise<TableRow | undefined> {
  return selectLiveTable(db, id).executeTakeFirst();
}

/** Reads and row-locks a live table for the rest of the transaction. */
export function lockLiveTable(db: Db, id: string): Promise<TableRow | undefined> {
  return forUpdate(db, selectLiveTable(db, id)).executeTakeFirst();
}

export function insertTable(db: Db, table: Insertable<Database['dining_tables']>): Promise<TableRow> {
  return db.insertInto('dining_tables').values(table).returningAll().executeTakeFirstOrThrow();
}

/** The table as the change left it; the caller holds its row lock, so the row is there. */
export function updateTable(
  db: Db,
  id: string,
  changes: Updateable<Database['dining_tables']>,
): Promise<TableRow> {
  return db
    .updateTable('dining_tables')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The active order seated at a table, read from the orders themselves rather than trusted from the
 * table's own `order_id`, which a stale or hand-edited row could get wrong.
 */
export async function findActiveOrderId(
  db: Db,
  table: Pick<TableRow, 'id' | 'order_id'>,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('orders')
    .select('id')
    .where((eb) =>
      table.order_id === null
        ? eb('table_id', '=', table.id)
        : eb.or([eb('table_id', '=', table.id), eb('id', '=', table.order_id)]),
    )
    .where('status', 'in', ACTIVE_ORDER_STATUSES)
    .where('is_deleted', '=', sql.lit(0))
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

export async function orderExists(db: Db, orderId: string): Promise<boolean> {
  const row = await db
    .selectFrom('orders')
    .select('id')
    .where('id', '=', orderId)
    .where('is_deleted', '=', sql.lit(0))
    .executeTakeFirst();
  return row !== undefined;
}
