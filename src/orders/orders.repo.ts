import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Db } from '../core/db/database';
import { forUpdate } from '../core/db/locks';
import { prepared } from '../core/db/prepared';
import type { Database } from '../core/db/schema';
import type { Page } from '../core/paging';
import type { OrderFilter } from './orders.schemas';

export type OrderRow = Selectable<Database['orders']>;

const liveOrder = prepared((db, { id }: { id: string }) =>
  db.selectFrom('orders').selectAll().where('id', '=', id).where('is_deleted', '=', sql.lit(0)),
);

export function findLiveOrder(db: Db, id: string): Promise<OrderRow | undefined> {
  return liveOrder.first(db, { id });
}

const lockedLiveOrder = prepared((db, { id }: { id: string }) =>
  forUpdate(
    db,
    db.selectFrom('orders').selectAll().where('id', '=', id).where('is_deleted', '=', sql.lit(0)),
  ),
);

/** Every change to an order's dishes or status takes this row lock first, so totals never race. */
export function lockLiveOrder(db: Db, id: string): Promise<OrderRow | undefined> {
  return lockedLiveOrder.first(db, { id });
}

const newOrder = prepared((db, order: Insertable<Database['orders']>) =>
  db.insertInto('orders').values(order).returningAll(),
);

/** The stored row, with the columns the database filled in. */
export function insertOrder(db: Db, order: Insertable<Database['orders']>): Promise<OrderRow> {
  return newOrder.one(db, order);
}

const changedOrder = prepared(
  (db, { id, changes }: { id: string; changes: Updateable<Database['orders']> }) =>
    db.updateTable('orders').set(changes).where('id', '=', id).returningAll(),
);

/** The order as the change left it; the caller holds its row lock, so the row is there. */
export function updateOrder(db: Db, id: string, changes: Updateable<Database['orders']>): Promise<OrderRow> {
  return changedOrder.one(db, { id, changes });
}

export function softDeleteOrder(db: Db, id: string, now: number): Promise<OrderRow> {
  return changedOrder.one(db, { id, changes: { is_deleted: 1, updated_at: now } });
}

const totalFromDishes = prepared((db, { id, now }: { id: string; now: number }) =>
  db
    .updateTable('orders')
    .set({
      total_cents: sql<number>`(select coalesce(sum(price_at_order_cents), 0) from order_dishes where order_id = ${id} and status <> 'voided')`,
      updated_at: now,
    })
    .where('id', '=', id)
    .returning('total_cents'),
);

/** Stores the sum of the order's dishes (voided ones left out) as its total and returns it, in cents; the order must exist. */
export async function recalculateTotal(db: Db, id: string, now: number): Promise<number> {
  const row = await totalFromDishes.one(db, { id, now });
  return Number(row.total_cents);
}

/** The stand-ins of `prepared` go through here, so it may test only whether a filter is present. */
function filteredOrders(db: Db, filter: OrderFilter) {
  let query = db.selectFrom('orders').where('is_deleted', '=', sql.lit(0));
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.tableId !== undefined) query = query.where('table_id', '=', filter.tableId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.channel !== undefined) query = query.where('channel', '=', filter.channel);
  if (filter.isDelivery !== undefined) query = query.where('channel', '<>', sql.lit('dine_in'));
  if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
  if (filter.before !== undefined) query = query.where('created_at', '<', filter.before);
  return query;
}

const orderPage = prepared((db, { filter, page }: { filter: OrderFilter; page: Page }) =>
  filteredOrders(db, filter)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset),
);

/** Newest first; the id breaks ties between orders created in the same millisecond, so pages never overlap. */
export function listOrders(db: Db, filter: OrderFilter, page: Page): Promise<OrderRow[]> {
  return orderPage.all(db, { filter, page: { limit: page.limit, offset: page.offset } });
}

const orderCount = prepared((db, filter: OrderFilter) =>
  filteredOrders(db, filter).select((eb) => eb.fn.countAll<number>().as('count')),
);

export async function countOrders(db: Db, filter: OrderFilter): Promise<number> {
  const row = await orderCount.one(db, filter);
  return Number(row.count);
}

const salesTotals = prepared((db, range: { from: number; before: number }) =>
  filteredOrders(db, { status: 'completed', ...range }).select((eb) => [
    eb.fn.coalesce(eb.fn.sum<number>('total_cents'), eb.lit(0)).as('total_cents'),
    eb.fn.countAll<number>().as('orders_count'),
  ]),
);

/** Sum and count of the completed orders created in [from, before). */
export async function completedSales(
  db: Db,
  range: { from: number; before: number },
): Promise<{ totalCents: number; ordersCount: number }> {
  const row = await salesTotals.one(db, { from: range.from, before: range.before });
  return { totalCents: Number(row.total_cents), ordersCount: Number(row.orders_count) };
}
