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
  guests: number | null;
  total_cents: number | string;
  discount_cents: number | string;
  paid_cents: number | string;
  is_deleted: number;
  created_at: number | string;
  updated_at: number | string;
};

/** A chosen option as order_dish_modifiers keeps it (src/orders/plate-modifiers.ts ModifierChoice). */
export type ModifierChoice = {
  option_id: string;
  group_name: string;
  name: string;
  price_delta_cents: number;
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
  seat: number | null;
  course: number;
  modifiers: ModifierChoice[];
};

/** An entry of the request body, as the rush sends it: the dish, its notes and the chosen option ids. */
export type DishEntry = { dish_id: string; notes?: string; modifiers?: string[] };

export type NewOrder = { userId: string; waiter: string; tableId: string | null; dishes: DishEntry[] };

export type OrdersStatements = CheckoutStatements & {
  /** The first admin; the baseline has no login, so every order is theirs. */
  anyUser(): Promise<{ id: string; name: string }>;
  createOrderWithDishes(order: NewOrder, now: number): Promise<string>;
  /** Undefined when the order is not live. */
  addDishes(orderId: string, dishes: DishEntry[], now: number): Promise<string[] | undefined>;
  findOrderWithDishes(orderId: string): Promise<{ order: OrderRow; dishes: OrderDishRow[] } | undefined>;
  listTables(): Promise<unknown[]>;
  /** How many plates went to the kitchen; undefined when the order is not live. */
  sendOrder(orderId: string, userId: string, now: number): Promise<number | undefined>;
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
  Omit<OrderDishRow, 'status' | 'modifiers'> & { dish_row_id: string | null; dish_status: string };

/** A row of ORDERS_SQL.modifiersOfOrder. */
export type ModifierRow = ModifierChoice & { order_dish_id: string };

/** Whether the join found dishes: only then does our repository read their options (modifiersOfOrder). */
export const hasDishes = (rows: OrderWithDishRow[]) => rows[0] !== undefined && rows[0].dish_row_id !== null;

/** The join's rows and the options of its plates as one order and its dishes; undefined when the order does not exist. */
export function groupOrderWithDishes(
  orderId: string,
  rows: OrderWithDishRow[],
  modifierRows: ModifierRow[],
): { order: OrderRow; dishes: OrderDishRow[] } | undefined {
  const first = rows[0];
  if (!first) return undefined;
  const modifiers = new Map<string, ModifierChoice[]>();
  for (const { order_dish_id, ...choice } of modifierRows) {
    const choices = modifiers.get(order_dish_id);
    const modifier = { ...choice, price_delta_cents: Number(choice.price_delta_cents) };
    if (choices) choices.push(modifier);
    else modifiers.set(order_dish_id, [modifier]);
  }
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
      seat: row.seat === null ? null : Number(row.seat),
      course: Number(row.course),
      modifiers: modifiers.get(row.dish_row_id as string) ?? [],
    }));
  return { order: first, dishes };
}
