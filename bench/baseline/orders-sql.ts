import { randomUUID } from 'node:crypto';
import type { DishEntry, ModifierChoice, OrderDishRow, OrderRow } from './statements';

/**
 * The statements our orders and tables services run for the rush since plates carry modifiers (read
 * from src/orders/orders.repo.ts, order-dishes.repo.ts, order-links.ts, order-tables.repo.ts and
 * src/modifiers/modifiers.repo.ts, and checked against the SQL our server logged for one loop), with
 * `?` placeholders; `numbered` in checkout-sql.ts turns them into PostgreSQL's `$n`.
 */
export const ORDERS_SQL = {
  insertOrder: `insert into orders (id, user_id, table_id, waiter, status, guests, total_cents, created_at, updated_at)
    values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning *`,
  lockOrder: 'select * from orders where id = ? and is_deleted = ?',
  /** PostgreSQL only (`lockTables`): SQLite's one writer already is exclusive. */
  lockTable: 'select id from dining_tables where id = ? for update',
  moveOrder: `update orders set user_id = ?, table_id = ?, waiter = ?, status = ?, guests = ?, updated_at = ? where id = ?
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
      order_dishes.voided_at, order_dishes.seat, order_dishes.course, dishes.name as dish_name, categories.station
    from orders left join order_dishes on order_dishes.order_id = orders.id
      left join dishes on dishes.id = order_dishes.dish_id
      left join categories on categories.id = dishes.category_id
    where orders.id = ? and orders.is_deleted = ? order by order_dishes.created_at, order_dishes.id`,
  /** Read after orderWithDishes when it found dishes (findLiveOrderWithDishes). */
  modifiersOfOrder: `select order_dish_modifiers.order_dish_id, order_dish_modifiers.option_id,
      order_dish_modifiers.group_name, order_dish_modifiers.name, order_dish_modifiers.price_delta_cents
    from order_dish_modifiers inner join order_dishes on order_dishes.id = order_dish_modifiers.order_dish_id
    where order_dishes.order_id = ? order by order_dish_modifiers.order_dish_id, order_dish_modifiers.position`,
} as const;

const list = (count: number, group: string) => Array(count).fill(group).join(', ');

/** recipes.repo.ts outOfStock: 1 when an item of the dish's or option's recipe is at or below zero. */
const outOfStock = (owner: 'dish_id' | 'option_id', ownerId: string) => `case when exists (
    select 1 from recipe_lines r left join ingredients ri on ri.id = r.ingredient_id
    left join products rp on rp.id = r.product_id
    where r.${owner} = ${ownerId} and coalesce(ri.stock, rp.stock) <= 0) then 1 else 0 end as out_of_stock`;

/** The statements whose length follows the request's: `in (…)` lists and multi-row inserts. */
export const SIZED_SQL = {
  /** findLiveDishPrices. */
  dishPrices: (count: number) =>
    `select id, name, price_cents, is_available, ${outOfStock('dish_id', 'dishes.id')} from dishes
    where id in (${list(count, '?')}) and is_deleted = ?`,
  /** findDishGroupLinks: each dish's live groups, in its order. */
  dishGroupLinks: (
    count: number,
  ) => `select modifier_groups.*, dish_modifier_groups.dish_id from dish_modifier_groups
    inner join modifier_groups on modifier_groups.id = dish_modifier_groups.group_id
    where modifier_groups.is_deleted = ? and dish_modifier_groups.dish_id in (${list(count, '?')})
    order by dish_modifier_groups.dish_id, dish_modifier_groups.position`,
  /** findOptionsByIds: only when the entries name options. */
  optionsByIds: (count: number) => `select modifier_options.*, modifier_groups.name as group_name,
    ${outOfStock('option_id', 'modifier_options.id')} from modifier_options
    inner join modifier_groups on modifier_groups.id = modifier_options.group_id
    where modifier_options.id in (${list(count, '?')})`,
  insertOrderDishes: (count: number) =>
    `insert into order_dishes (id, dish_id, price_at_order_cents, notes, seat, course, order_id, created_at) values ${list(count, '(?, ?, ?, ?, ?, ?, ?, ?)')}`,
  /** Only when some plate has options. */
  insertModifiers: (count: number) =>
    `insert into order_dish_modifiers (option_id, group_name, name, price_delta_cents, order_dish_id, position) values ${list(count, '(?, ?, ?, ?, ?, ?)')}`,
};

/** A plate to insert: its id, price (dish + deltas) and the options chosen for it. */
export type Plate = {
  id: string;
  dishId: string;
  priceCents: number;
  notes: string;
  modifiers: ModifierChoice[];
};

/** What the pricing reads: the dishes, their group links and the chosen options (SIZED_SQL's three selects). */
export type MenuRows = {
  dishes: { id: string; price_cents: number | string }[];
  links: { id: string; dish_id: string }[];
  options: {
    id: string;
    group_id: string;
    name: string;
    group_name: string;
    price_delta_cents: number | string;
    position: number | string;
  }[];
};

/** The values of the three selects for these entries; options only when some entry names one. */
export function menuQueries(entries: DishEntry[]): { dishIds: string[]; optionIds: string[] } {
  return {
    dishIds: [...new Set(entries.map((entry) => entry.dish_id))],
    optionIds: [...new Set(entries.flatMap((entry) => entry.modifiers ?? []))],
  };
}

/**
 * priceDishEntries without its checks (the baseline validates nothing): each plate costs its dish's
 * price plus its options' deltas, the options in the dish's group order, then each group's order.
 */
export function pricePlates(entries: DishEntry[], menu: MenuRows): Plate[] {
  const prices = new Map(menu.dishes.map((dish) => [dish.id, Number(dish.price_cents)]));
  const groupOrder = new Map(menu.links.map((link, index) => [`${link.dish_id} ${link.id}`, index]));
  const options = new Map(menu.options.map((option) => [option.id, option]));
  return entries.map((entry) => {
    const rank = (groupId: string) => groupOrder.get(`${entry.dish_id} ${groupId}`) ?? 0;
    const modifiers = (entry.modifiers ?? [])
      .flatMap((id) => options.get(id) ?? [])
      .sort((a, b) => rank(a.group_id) - rank(b.group_id) || Number(a.position) - Number(b.position))
      .map((option) => ({
        option_id: option.id,
        group_name: option.group_name,
        name: option.name,
        price_delta_cents: Number(option.price_delta_cents),
      }));
    return {
      id: randomUUID(),
      dishId: entry.dish_id,
      priceCents: modifiers.reduce(
        (sum, modifier) => sum + modifier.price_delta_cents,
        prices.get(entry.dish_id) ?? 0,
      ),
      notes: entry.notes ?? '',
      modifiers,
    };
  });
}

/** The values of SIZED_SQL.insertOrderDishes: no seat, the first course, as our insert writes them. */
export function orderDishValues(orderId: string, plates: Plate[], now: number): unknown[] {
  return plates.flatMap((plate) => [
    plate.id,
    plate.dishId,
    plate.priceCents,
    plate.notes,
    null,
    1,
    orderId,
    now,
  ]);
}

/** The values of SIZED_SQL.insertModifiers: positions count through the whole request, as ours do. */
export function modifierValues(plates: Plate[]): unknown[] {
  return plates
    .flatMap((plate) => plate.modifiers.map((modifier) => ({ ...modifier, orderDishId: plate.id })))
    .flatMap((choice, position) => [
      choice.option_id,
      choice.group_name,
      choice.name,
      choice.price_delta_cents,
      choice.orderDishId,
      position,
    ]);
}

export const modifierCount = (plates: Plate[]) =>
  plates.reduce((count, plate) => count + plate.modifiers.length, 0);

/** The values of ORDERS_SQL.insertOrder for a new pending order. */
export function newOrderValues(
  id: string,
  order: { userId: string; tableId: string | null; waiter: string },
  totalCents: number,
  now: number,
): unknown[] {
  return [id, order.userId, order.tableId, order.waiter, 'pending', null, totalCents, now, now];
}

/** The values of ORDERS_SQL.moveOrder: the order's other fields as they are, its new status. */
export function moveOrderValues(current: OrderRow, status: string, now: number): unknown[] {
  return [current.user_id, current.table_id, current.waiter, status, current.guests, now, current.id];
}

const isoOrNull = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** What our views show (src/orders/order-views.ts, src/tables/table-views.ts), for answers and events. */
export const orderView = (row: OrderRow) => ({
  id: row.id,
  user_id: row.user_id,
  table_id: row.table_id,
  waiter: row.waiter,
  status: row.status,
  guests: row.guests,
  total: Number(row.total_cents) / 100,
  discount: Number(row.discount_cents) / 100,
  paid: Number(row.paid_cents) / 100,
  balance: (Number(row.total_cents) - Number(row.discount_cents) - Number(row.paid_cents)) / 100,
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
  modifiers: row.modifiers.map((modifier) => ({
    option_id: modifier.option_id,
    group_name: modifier.group_name,
    name: modifier.name,
    price_delta: modifier.price_delta_cents / 100,
  })),
  seat: row.seat,
  course: row.course,
});

/** The order with its dishes as GET /orders/{id}/complete and `order.dishes_changed` show it. */
export const completeView = (found: { order: OrderRow; dishes: OrderDishRow[] }) => ({
  order: orderView(found.order),
  dishes: found.dishes.map(dishView),
});

export const tableView = (row: Record<string, unknown>) => ({
  id: row.id,
  name: row.name,
  status: row.status,
  space_id: row.space_id,
  order_id: row.order_id,
});
