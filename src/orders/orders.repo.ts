import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Db } from '../core/db/database';
import { forUpdate } from '../core/db/locks';
import type { Database } from '../core/db/schema';
import type { OrderFilter, Page } from './orders.schemas';

export type OrderRow = Selectable<Database['orders']>;

export function findLiveOrder(db: Db, id: string): Promise<OrderRow | undefined> {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', id)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
}

/** Every change to an order's dishes or status takes this row lock first, so totals never race. */
export function lockLiveOrder(db: Db, id: string): Promise<OrderRow | undefined> {
  const query = db.selectFrom('orders').selectAll().where('id', '=', id).where('is_deleted', '=', 0);
  return forUpdate(db, query).executeTakeFirst();
}

export async function insertOrder(db: Db, order: Insertable<Database['orders']>): Promise<void> {
  await db.insertInto('orders').values(order).execute();
}

export async function updateOrder(
  db: Db,
  id: string,
  changes: Updateable<Database['orders']>,
): Promise<void> {
  await db.updateTable('orders').set(changes).where('id', '=', id).execute();
}

export async function softDeleteOrder(db: Db, id: string, now: number): Promise<void> {
  await db.updateTable('orders').set({ is_deleted: 1, updated_at: now }).where('id', '=', id).execute();
}

/** Stores the sum of the order's dishes as its total and returns it, in cents. */
export async function recalculateTotal(db: Db, id: string, now: number): Promise<number> {
  const row = await db
    .updateTable('orders')
    .set({
      total_cents: sql<number>`(select coalesce(sum(price_at_order_cents), 0) from order_dishes where order_id = ${id})`,
      updated_at: now,
    })
    .where('id', '=', id)
    .returning('total_cents')
    .executeTakeFirstOrThrow();
  return Number(row.total_cents);
}

function filteredOrders(db: Db, filter: OrderFilter) {
  let query = db.selectFrom('orders').where('is_deleted', '=', 0);
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.tableId !== undefined) query = query.where('table_id', '=', filter.tableId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
  if (filter.before !== undefined) query = query.where('created_at', '<', filter.before);
  return query;
}

/** Newest first; the id breaks ties between orders created in the same millisecond, so pages never overlap. */
export function listOrders(db: Db, filter: OrderFilter, page: Page): Promise<OrderRow[]> {
  return filteredOrders(db, filter)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countOrders(db: Db, filter: OrderFilter): Promise<number> {
  const row = await filteredOrders(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Sum and count of the completed orders created in [from, before). */
export async function completedSales(
  db: Db,
  range: { from: number; before: number },
): Promise<{ totalCents: number; ordersCount: number }> {
  const row = await filteredOrders(db, { status: 'completed', ...range })
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('total_cents'), eb.lit(0)).as('total_cents'),
      eb.fn.countAll<number>().as('orders_count'),
    ])
    .executeTakeFirstOrThrow();
  return { totalCents: Number(row.total_cents), ordersCount: Number(row.orders_count) };
}
