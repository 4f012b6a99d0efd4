import type { CheckoutStatements } from './checkout-sql';

/**
 * What the baseline server needs from a database: for each route of the rush, the statements our
 * orders and tables services execute for it (read from src/orders/*.repo.ts and src/tables/tables.repo.ts),
 * in the same transactions, with the same row locks on PostgreSQL.
 */
export type OrderRow = {
  id: string;
  user_id: string;
  table_id: string | null;
  waiter: string;
  status: string;
  total_cents: number | string;
  paid_cents: number | string;
  is_deleted: number;
  created_at: number | string;
  updated_at: number | string;
};

export type OrderDishRow = {
  id: string;
  order_id: string;
  dish_id: string;
  price_at_order_cents: number;
  notes: string;
  status: string;
  dish_name: string;
  station: string;
  sent_at: number | string | null;
  ready_at: number | string | null;
  void_reason: string | null;
};

export type NewOrder = { userId: string; waiter: string; tableId: string | null; dishIds: string[] };

export type OrdersStatements = CheckoutStatements & {
  /** The first admin; the baseline has no login, so every order is theirs. */
  anyUser(): Promise<{ id: string; name: string }>;
  createOrderWithDishes(order: NewOrder, now: number): Promise<string>;
  /** Undefined when the order is not live. */
  addDishes(orderId: string, dishIds: string[], now: number): Promise<string[] | undefined>;
  findOrderWithDishes(orderId: string): Promise<{ order: OrderRow; dishes: OrderDishRow[] } | undefined>;
  listTables(): Promise<unknown[]>;
  /** False when the order is not live. */
  moveOrder(orderId: string, status: string, now: number): Promise<boolean>;
  listOrders(status: string, limit: number, offset: number): Promise<{ rows: OrderRow[]; count: number }>;
  /** Our server's group commit (src/core/db/wal-sync.ts): answers wait until commits are on disk. */
  hasUnflushedCommits(): boolean;
  flushCommits(): Promise<void>;
  close(): Promise<void>;
};

export const FINAL_STATUSES = new Set(['completed', 'cancelled']);

/** A row of the orders ⟕ order_dishes ⟕ dishes ⟕ categories join (ORDERS_SQL.orderWithDishes). */
export type OrderWithDishRow = OrderRow &
  Omit<OrderDishRow, 'status'> & { dish_row_id: string | null; dish_status: string };

/** The join's rows as one order and its dishes; undefined when the order does not exist. */
export function groupOrderWithDishes(
  orderId: string,
  rows: OrderWithDishRow[],
): { order: OrderRow; dishes: OrderDishRow[] } | undefined {
  const first = rows[0];
  if (!first) return undefined;
  const dishes = rows
    .filter((row) => row.dish_row_id !== null)
    .map((row) => ({
      id: row.dish_row_id as string,
      order_id: orderId,
      dish_id: row.dish_id,
      price_at_order_cents: Number(row.price_at_order_cents),
      notes: row.notes,
      status: row.dish_status,
      dish_name: row.dish_name,
      station: row.station,
      sent_at: row.sent_at,
      ready_at: row.ready_at,
      void_reason: row.void_reason,
    }));
  return { order: first, dishes };
}
