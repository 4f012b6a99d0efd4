import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../core/db/database';
import { nextOrdinal } from '../core/db/ordinals';
import { prepared } from '../core/db/prepared';
import type { Database, DishStatus } from '../core/db/schema';
import { outOfStock } from '../inventory/inventory.api';
import type { OrderRow } from './orders.repo';
import type { ModifierChoice } from './plate-modifiers';

export type OrderDishRow = Selectable<Database['order_dishes']>;

const liveDishPrices = prepared((db, { dishIds }: { dishIds: string[] }) =>
  db
    .selectFrom('dishes')
    .select(['id', 'name', 'price_cents', 'is_available'])
    .select(outOfStock('dish_id', 'dishes.id').as('out_of_stock'))
    .where('id', 'in', dishIds)
    .where('is_deleted', '=', sql.lit(0)),
);

/** Current prices and availability of the live dishes among these ids (the menu's rows, read only). */
export function findLiveDishPrices(
  db: Db,
  dishIds: string[],
): Promise<{ id: string; name: string; price_cents: number; is_available: number; out_of_stock: number }[]> {
  return liveDishPrices.all(db, { dishIds });
}

/** What an order dish is charged, and its dish's menu price (null once the dish left the menu). */
export function findOrderDishPrice(
  db: Db,
  orderId: string,
  id: string,
): Promise<{ dish_id: string; price_at_order_cents: number; menu_price_cents: number | null } | undefined> {
  return db
    .selectFrom('order_dishes')
    .leftJoin('dishes', (join) =>
      join.onRef('dishes.id', '=', 'order_dishes.dish_id').on('dishes.is_deleted', '=', sql.lit(0)),
    )
    .select([
      'order_dishes.dish_id',
      'order_dishes.price_at_order_cents',
      'dishes.price_cents as menu_price_cents',
    ])
    .where('order_dishes.id', '=', id)
    .where('order_dishes.order_id', '=', orderId)
    .executeTakeFirst();
}

const newOrderDishes = prepared((db, { rows }: { rows: Insertable<Database['order_dishes']>[] }) =>
  db.insertInto('order_dishes').values(rows),
);

/** A plate to store, with the options chosen for it. */
export type NewPlate = Omit<Insertable<Database['order_dishes']>, 'ordinal'> & {
  modifiers: readonly ModifierChoice[];
};

/** Stores the plates in the order given: their ordinals follow it. */
export async function insertOrderDishes(db: Db, plates: NewPlate[]): Promise<void> {
  if (plates.length === 0) return;
  const first = await nextOrdinal(db, 'order_dishes');
  await newOrderDishes.run(db, {
    rows: plates.map(({ modifiers: _modifiers, ...row }, index) => ({ ...row, ordinal: first + index })),
  });
  await insertModifierChoices(
    db,
    plates.flatMap((plate) => plate.modifiers.map((modifier) => ({ ...modifier, order_dish_id: plate.id }))),
  );
}

const newModifierChoices = prepared(
  (db, { rows }: { rows: Insertable<Database['order_dish_modifiers']>[] }) =>
    db.insertInto('order_dish_modifiers').values(rows),
);

async function insertModifierChoices(
  db: Db,
  choices: (ModifierChoice & { order_dish_id: string })[],
): Promise<void> {
  if (choices.length === 0) return;
  await newModifierChoices.run(db, {
    rows: choices.map((choice, position) => ({
      option_id: choice.option_id,
      group_name: choice.group_name,
      name: choice.name,
      price_delta_cents: choice.price_delta_cents,
      order_dish_id: choice.order_dish_id,
      position,
    })),
  });
}

/** Replaces the options of a plate (still pending: nothing of it has reached the kitchen). */
export async function replaceModifierChoices(
  db: Db,
  orderDishId: string,
  modifiers: readonly ModifierChoice[],
): Promise<void> {
  await db.deleteFrom('order_dish_modifiers').where('order_dish_id', '=', orderDishId).execute();
  await insertModifierChoices(
    db,
    modifiers.map((modifier) => ({ ...modifier, order_dish_id: orderDishId })),
  );
}

export type OrderDishChanges = {
  price_at_order_cents?: number;
  notes?: string;
  seat?: number | null;
  course?: number;
};

const changedOrderDish = prepared(
  (db, { orderId, id, changes }: { orderId: string; id: string; changes: OrderDishChanges }) =>
    db.updateTable('order_dishes').set(changes).where('id', '=', id).where('order_id', '=', orderId),
);

/** True when the dish row exists and belongs to that order. */
export async function updateOrderDish(
  db: Db,
  orderId: string,
  id: string,
  changes: OrderDishChanges,
): Promise<boolean> {
  return (await changedOrderDish.run(db, { orderId, id, changes })) > 0;
}

const removedOrderDish = prepared((db, { orderId, id }: { orderId: string; id: string }) =>
  db.deleteFrom('order_dishes').where('id', '=', id).where('order_id', '=', orderId),
);

/** True when the dish row existed and belonged to that order. */
export async function deleteOrderDish(db: Db, orderId: string, id: string): Promise<boolean> {
  await db
    .deleteFrom('order_dish_modifiers')
    .where('order_dish_id', 'in', (eb) =>
      eb.selectFrom('order_dishes').select('id').where('id', '=', id).where('order_id', '=', orderId),
    )
    .execute();
  return (await removedOrderDish.run(db, { orderId, id })) > 0;
}

const removedDishesOfOrder = prepared((db, { orderId }: { orderId: string }) =>
  db.deleteFrom('order_dishes').where('order_id', '=', orderId),
);

export async function deleteAllOrderDishes(db: Db, orderId: string): Promise<void> {
  await db
    .deleteFrom('order_dish_modifiers')
    .where('order_dish_id', 'in', (eb) =>
      eb.selectFrom('order_dishes').select('id').where('order_id', '=', orderId),
    )
    .execute();
  await removedDishesOfOrder.run(db, { orderId });
}

/**
 * Moves these plates (every plate when `ids` is undefined) of one order to another, keeping their
 * ids, prices and kitchen statuses; the number of rows moved. The caller holds both orders' locks.
 */
export async function moveOrderDishes(
  db: Db,
  move: { fromOrderId: string; toOrderId: string; ids?: string[] },
): Promise<number> {
  let query = db
    .updateTable('order_dishes')
    .set({ order_id: move.toOrderId })
    .where('order_id', '=', move.fromOrderId);
  if (move.ids !== undefined) query = query.where('id', 'in', move.ids);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** What the order's total would be: the sum of its dishes' prices, voided ones left out, in cents. */
export async function sumOfDishes(db: Db, orderId: string): Promise<number> {
  const row = await db
    .selectFrom('order_dishes')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('price_at_order_cents'), eb.lit(0)).as('total'))
    .where('order_id', '=', orderId)
    .where('status', '<>', 'voided')
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * An order dish with what its views and the kitchen show beside it: the menu name, station and
 * options. Without its `ordinal`, which only orders lists.
 */
export type OrderDishDetail = Omit<OrderDishRow, 'ordinal'> & {
  /** The names of who voided the plate and of the manager who approved it, when kept. */
  voided_by_name: string | null;
  void_approved_by_name: string | null;
  /** The live bill the plate is on, if any. */
  bill_id: string | null;
  dish_name: string;
  station: string;
  modifiers: ModifierChoice[];
};

const modifiersOfOrder = prepared((db, { orderId }: { orderId: string }) =>
  db
    .selectFrom('order_dish_modifiers')
    .innerJoin('order_dishes', 'order_dishes.id', 'order_dish_modifiers.order_dish_id')
    .select([
      'order_dish_modifiers.order_dish_id',
      'order_dish_modifiers.option_id',
      'order_dish_modifiers.group_name',
      'order_dish_modifiers.name',
      'order_dish_modifiers.price_delta_cents',
    ])
    .where('order_dishes.order_id', '=', orderId)
    .orderBy('order_dish_modifiers.order_dish_id')
    .orderBy('order_dish_modifiers.position'),
);

/** The options of these plates, by plate, in order: one query for a whole list. */
export async function findModifierChoices(
  db: Db,
  orderDishIds: string[],
): Promise<Map<string, ModifierChoice[]>> {
  if (orderDishIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('order_dish_modifiers')
    .select(['order_dish_id', 'option_id', 'group_name', 'name', 'price_delta_cents'])
    .where('order_dish_id', 'in', orderDishIds)
    .orderBy('order_dish_id')
    .orderBy('position')
    .execute();
  return byPlate(rows);
}

function byPlate(rows: (ModifierChoice & { order_dish_id: string })[]): Map<string, ModifierChoice[]> {
  const choices = new Map<string, ModifierChoice[]>();
  for (const { order_dish_id, ...choice } of rows) {
    const modifier = { ...choice, price_delta_cents: Number(choice.price_delta_cents) };
    const list = choices.get(order_dish_id);
    if (list) list.push(modifier);
    else choices.set(order_dish_id, [modifier]);
  }
  return choices;
}

export type OrderWithDishRows = { order: OrderRow; dishes: OrderDishDetail[] } | undefined;

const liveOrderWithDishRows = prepared((db, { orderId }: { orderId: string }) =>
  db
    .selectFrom('orders')
    .leftJoin('order_dishes', 'order_dishes.order_id', 'orders.id')
    .leftJoin('dishes', 'dishes.id', 'order_dishes.dish_id')
    .leftJoin('categories', 'categories.id', 'dishes.category_id')
    .leftJoin('users as voider', 'voider.id', 'order_dishes.voided_by')
    .leftJoin('users as void_approver', 'void_approver.id', 'order_dishes.voided_approved_by')
    // At most one live link per plate (a partial unique index): the join adds no row. The 1 is
    // written into the SQL, not bound: a statement prepared once cannot count on a bound value to
    // match the partial index's condition.
    .leftJoin('ticket_dishes as live_bill', (join) =>
      join.onRef('live_bill.order_dish_id', '=', 'order_dishes.id').on('live_bill.is_live', '=', sql.lit(1)),
    )
    .selectAll('orders')
    .select([
      'order_dishes.id as dish_row_id',
      'order_dishes.dish_id',
      'order_dishes.price_at_order_cents',
      'order_dishes.notes',
      'order_dishes.created_at as dish_created_at',
      'order_dishes.status as dish_status',
      'order_dishes.sent_at',
      'order_dishes.ready_at',
      'order_dishes.void_reason',
      'order_dishes.voided_at',
      'order_dishes.voided_by',
      'order_dishes.voided_approved_by',
      'voider.name as voided_by_name',
      'void_approver.name as void_approved_by_name',
      'live_bill.ticket_id as bill_id',
      'order_dishes.seat',
      'order_dishes.course',
      'dishes.name as dish_name',
      'categories.station',
    ])
    .where('orders.id', '=', orderId)
    .where('orders.is_deleted', '=', sql.lit(0))
    .orderBy('order_dishes.created_at')
    .orderBy('order_dishes.ordinal')
    .orderBy('order_dishes.id'),
);

const nullableMs = (value: number | null) => (value === null ? null : Number(value));

/** The order and its dishes in one query, so the total and the dishes come from the same snapshot. */
export async function findLiveOrderWithDishes(db: Db, orderId: string): Promise<OrderWithDishRows> {
  const rows = await liveOrderWithDishRows.all(db, { orderId });
  const first = rows[0];
  if (!first) return undefined;
  const modifiers =
    first.dish_row_id === null ? new Map() : byPlate(await modifiersOfOrder.all(db, { orderId }));
  const {
    dish_row_id,
    dish_id,
    price_at_order_cents,
    notes,
    dish_created_at,
    dish_status,
    sent_at,
    ready_at,
    void_reason,
    voided_at,
    voided_by,
    voided_approved_by,
    voided_by_name,
    void_approved_by_name,
    bill_id,
    seat,
    course,
    dish_name,
    station,
    ...order
  } = first;
  const dishes = rows.flatMap((row): OrderDishDetail[] =>
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
            status: row.dish_status as DishStatus,
            sent_at: nullableMs(row.sent_at),
            ready_at: nullableMs(row.ready_at),
            void_reason: row.void_reason,
            voided_at: nullableMs(row.voided_at),
            voided_by: row.voided_by,
            voided_approved_by: row.voided_approved_by,
            voided_by_name: row.voided_by_name,
            void_approved_by_name: row.void_approved_by_name,
            bill_id: row.bill_id,
            seat: row.seat === null ? null : Number(row.seat),
            course: Number(row.course),
            dish_name: row.dish_name as string,
            station: row.station as string,
            modifiers: modifiers.get(row.dish_row_id) ?? [],
          },
        ],
  );
  return { order, dishes };
}
