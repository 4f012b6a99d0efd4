import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../core/db/database';
import type { Database } from '../core/db/schema';
import type { OrderRow } from './orders.repo';

export type OrderDishRow = Selectable<Database['order_dishes']>;

/** Current prices of the live dishes among these ids (the menu's rows, read only). */
export function findLiveDishPrices(
  db: Db,
  dishIds: string[],
): Promise<{ id: string; price_cents: number }[]> {
  return db
    .selectFrom('dishes')
    .select(['id', 'price_cents'])
    .where('id', 'in', dishIds)
    .where('is_deleted', '=', 0)
    .execute();
}

export async function insertOrderDishes(db: Db, rows: Insertable<Database['order_dishes']>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('order_dishes').values(rows).execute();
}

/** True when the dish row exists and belongs to that order. */
export async function updateOrderDish(
  db: Db,
  orderId: string,
  id: string,
  changes: { price_at_order_cents?: number; notes?: string },
): Promise<boolean> {
  const result = await db
    .updateTable('order_dishes')
    .set(changes)
    .where('id', '=', id)
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** True when the dish row existed and belonged to that order. */
export async function deleteOrderDish(db: Db, orderId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('order_dishes')
    .where('id', '=', id)
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deleteAllOrderDishes(db: Db, orderId: string): Promise<void> {
  await db.deleteFrom('order_dishes').where('order_id', '=', orderId).execute();
}

export type OrderWithDishRows = { order: OrderRow; dishes: OrderDishRow[] } | undefined;

/** The order and its dishes in one query, so the total and the dishes come from the same snapshot. */
export async function findLiveOrderWithDishes(db: Db, orderId: string): Promise<OrderWithDishRows> {
  const rows = await db
    .selectFrom('orders')
    .leftJoin('order_dishes', 'order_dishes.order_id', 'orders.id')
    .selectAll('orders')
    .select([
      'order_dishes.id as dish_row_id',
      'order_dishes.dish_id',
      'order_dishes.price_at_order_cents',
      'order_dishes.notes',
      'order_dishes.created_at as dish_created_at',
    ])
    .where('orders.id', '=', orderId)
    .where('orders.is_deleted', '=', 0)
    .orderBy('order_dishes.created_at')
    .orderBy('order_dishes.id')
    .execute();
  const first = rows[0];
  if (!first) return undefined;
  const { dish_row_id, dish_id, price_at_order_cents, notes, dish_created_at, ...order } = first;
  const dishes = rows.flatMap((row) =>
    row.dish_row_id === null
      ? []
      : [
          {
            id: row.dish_row_id,
            order_id: orderId,
            dish_id: row.dish_id as string,
            price_at_order_cents: Number(row.price_at_order_cents),
            notes: row.notes as string,
            created_at: Number(row.dish_created_at),
          },
        ],
  );
  return { order, dishes };
}
