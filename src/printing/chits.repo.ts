import type { Db } from '../core/db/database';

/** Who the order is for: its waiter and table, or the delivery app, its code and its customer. */
export function findChitHeader(db: Db, orderId: string) {
  return db
    .selectFrom('orders')
    .leftJoin('dining_tables', 'dining_tables.id', 'orders.table_id')
    .select([
      'orders.id',
      'orders.waiter',
      'dining_tables.name as table_name',
      'orders.channel',
      'orders.channel_code',
      'orders.customer_first_name',
      'orders.pickup_at',
    ])
    .where('orders.id', '=', orderId)
    .executeTakeFirst();
}

/** These dishes of the order by course, then in the order they were entered (their ordinals). */
export function findChitDishes(db: Db, orderId: string, orderDishIds: string[]) {
  return db
    .selectFrom('order_dishes')
    .innerJoin('dishes', 'dishes.id', 'order_dishes.dish_id')
    .select([
      'order_dishes.id',
      'dishes.name',
      'order_dishes.notes',
      'order_dishes.seat',
      'order_dishes.course',
    ])
    .where('order_dishes.order_id', '=', orderId)
    .where('order_dishes.id', 'in', orderDishIds)
    .orderBy('order_dishes.course')
    .orderBy('order_dishes.created_at')
    .orderBy('order_dishes.ordinal')
    .orderBy('order_dishes.id')
    .execute();
}

/** The names of the options chosen for these plates, each plate's in order. */
export function findChitModifiers(db: Db, orderDishIds: string[]) {
  return db
    .selectFrom('order_dish_modifiers')
    .select(['order_dish_id', 'name'])
    .where('order_dish_id', 'in', orderDishIds)
    .orderBy('order_dish_id')
    .orderBy('position')
    .execute();
}

/** The order's plates not voided, as they were entered. */
export function findLivePlates(db: Db, orderId: string) {
  return db
    .selectFrom('order_dishes')
    .innerJoin('dishes', 'dishes.id', 'order_dishes.dish_id')
    .select(['order_dishes.id', 'dishes.name', 'order_dishes.notes'])
    .where('order_dishes.order_id', '=', orderId)
    .where('order_dishes.status', '<>', 'voided')
    .orderBy('order_dishes.ordinal')
    .orderBy('order_dishes.id')
    .execute();
}
