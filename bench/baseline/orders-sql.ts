import type { OrderDishRow, OrderRow } from './statements';

/**
 * The statements our orders and tables services run for the rush since they write events (read from
 * src/orders/orders.repo.ts, order-dishes.repo.ts and order-tables.repo.ts), with `?` placeholders;
 * `numbered` in checkout-sql.ts turns them into PostgreSQL's `$n`.
 */
export const ORDERS_SQL = {
  insertOrder: `insert into orders (id, user_id, table_id, waiter, status, total_cents, created_at, updated_at)
    values (?, ?, ?, ?, ?, ?, ?, ?) returning *`,
  moveOrder: `update orders set user_id = ?, table_id = ?, waiter = ?, status = ?, updated_at = ? where id = ?
    returning *`,
  occupyTable: `update dining_tables set status = ?, order_id = ?, updated_at = ? where id = ? and is_deleted = ?
    returning *`,
  freeTable: `update dining_tables set status = ?, order_id = ?, updated_at = ? where id = ? and order_id = ?
    returning *`,
  recalculateTotal: `update orders set total_cents = (select coalesce(sum(price_at_order_cents), 0) from order_dishes
    where order_id = ? and status <> 'voided'), updated_at = ? where id = ? returning total_cents`,
  orderWithDishes: `select orders.*, order_dishes.id as dish_row_id, order_dishes.dish_id,
      order_dishes.price_at_order_cents, order_dishes.notes, order_dishes.created_at as dish_created_at,
      order_dishes.status as dish_status, order_dishes.sent_at, order_dishes.ready_at, order_dishes.void_reason,
      order_dishes.voided_at, dishes.name as dish_name, categories.station
    from orders left join order_dishes on order_dishes.order_id = orders.id
      left join dishes on dishes.id = order_dishes.dish_id
      left join categories on categories.id = dishes.category_id
    where orders.id = ? and orders.is_deleted = ? order by order_dishes.created_at, order_dishes.id`,
} as const;

/** The values of ORDERS_SQL.insertOrder for a new pending order. */
export function newOrderValues(
  id: string,
  order: { userId: string; tableId: string | null; waiter: string },
  totalCents: number,
  now: number,
): unknown[] {
  return [id, order.userId, order.tableId, order.waiter, 'pending', totalCents, now, now];
}

/** The values of ORDERS_SQL.moveOrder: the order's other fields as they are, its new status. */
export function moveOrderValues(current: OrderRow, status: string, now: number): unknown[] {
  return [current.user_id, current.table_id, current.waiter, status, now, current.id];
}

const isoOrNull = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** What our views show (src/orders/order-views.ts, src/tables/table-views.ts), for answers and events. */
export const orderView = (row: OrderRow) => ({
  id: row.id,
  user_id: row.user_id,
  table_id: row.table_id,
  waiter: row.waiter,
  status: row.status,
  total: Number(row.total_cents) / 100,
  paid: Number(row.paid_cents) / 100,
  balance: (Number(row.total_cents) - Number(row.paid_cents)) / 100,
  created_at: new Date(Number(row.created_at)).toISOString(),
});

export const dishView = (row: OrderDishRow) => ({
  id: row.id,
  order_id: row.order_id,
  dish_id: row.dish_id,
  price_at_order: row.price_at_order_cents / 100,
  notes: row.notes,
  status: row.status,
  dish_name: row.dish_name,
  station: row.station,
  sent_at: isoOrNull(row.sent_at),
  ready_at: isoOrNull(row.ready_at),
  void_reason: row.void_reason,
});

export const tableView = (row: Record<string, unknown>) => ({
  id: row.id,
  name: row.name,
  status: row.status,
  space_id: row.space_id,
  order_id: row.order_id,
});
