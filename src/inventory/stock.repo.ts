import { type Selectable, sql } from 'kysely';
import type { Db } from '../core/db/database';
import { forUpdate } from '../core/db/locks';
import { nextOrdinal } from '../core/db/ordinals';
import { prepared } from '../core/db/prepared';
import type { Database, StockItemType, StockReason } from '../core/db/schema';
import { newId } from '../core/ids';

export type MovementRow = Selectable<Database['stock_movements']>;

type ItemRef = { itemType: StockItemType; itemId: string };

/** One key per item, ingredients and products apart. */
export const stockItemKey = (item: ItemRef): string => `${item.itemType}:${item.itemId}`;

/**
 * The one order every transaction locks items in: two writers that share items queue on the first
 * they share instead of each holding one the other waits for.
 */
export const inLockOrder = (a: ItemRef, b: ItemRef): number => {
  const [left, right] = [stockItemKey(a), stockItemKey(b)];
  return left < right ? -1 : left > right ? 1 : 0;
};

export type NewMovement = {
  itemType: StockItemType;
  itemId: string;
  /** In base units; never 0. */
  delta: number;
  reason: StockReason;
  orderDishId?: string | null;
  userId: string | null;
  note?: string;
  now: number;
};

/** The item as the movement left it. */
export type MovedItem = {
  movementId: string;
  name: string;
  stock: number;
  reorder_level: number;
  seq: number;
  at: number;
};

/**
 * The one statement that changes stock: the database adds the delta under the row's lock, so two
 * tablets selling the same cheese at once both count. It also numbers the movement and stamps it with
 * a time that never goes back for this item.
 */
function moveStatement(table: 'ingredients' | 'products') {
  return prepared((db, p: { id: string; delta: number; now: number }) =>
    db
      .updateTable(table as 'ingredients')
      .set({
        stock: sql`stock + ${p.delta}`,
        stock_moves: sql`stock_moves + 1`,
        stock_moved_at: sql`case when stock_moved_at > ${p.now} then stock_moved_at else ${p.now} end`,
      })
      .where('id', '=', p.id)
      .returning(['name', 'stock', 'reorder_level', 'stock_moves as seq', 'stock_moved_at as at']),
  );
}

const MOVE = { ingredient: moveStatement('ingredients'), product: moveStatement('products') };

const insertMovementStatement = prepared((db, row: MovementRow) =>
  db.insertInto('stock_movements').values(row),
);

/** Moves the item's stock and records the movement, in the caller's transaction; undefined: no such item. */
export async function applyMovement(trx: Db, movement: NewMovement): Promise<MovedItem | undefined> {
  const moved = await MOVE[movement.itemType].first(trx, {
    id: movement.itemId,
    delta: movement.delta,
    now: movement.now,
  });
  if (!moved) return undefined;
  const item: MovedItem = {
    movementId: newId(),
    name: moved.name,
    stock: Number(moved.stock),
    reorder_level: Number(moved.reorder_level),
    seq: Number(moved.seq),
    at: Number(moved.at),
  };
  await insertMovementStatement.run(trx, {
    id: item.movementId,
    ordinal: await nextOrdinal(trx, 'stock_movements'),
    item_type: movement.itemType,
    item_id: movement.itemId,
    seq: item.seq,
    delta: movement.delta,
    stock_after: item.stock,
    reason: movement.reason,
    order_dish_id: movement.orderDishId ?? null,
    user_id: movement.userId,
    note: movement.note ?? '',
    at: item.at,
  });
  return item;
}

export type StockItemRow = {
  id: string;
  name: string;
  unit: string;
  stock: number;
  reorder_level: number;
  is_deleted: number;
};

/** Ingredients and products read alike; a product has no unit. */
const ITEM_ROWS = {
  ingredient: (db: Db) =>
    db.selectFrom('ingredients').select(['id', 'name', 'unit', 'stock', 'reorder_level', 'is_deleted']),
  product: (db: Db) =>
    db
      .selectFrom('products')
      .select(['id', 'name', sql<string>`''`.as('unit'), 'stock', 'reorder_level', 'is_deleted']),
};

/** The item's row, locked until commit on PostgreSQL (a count reads the stock it replaces). */
export async function lockItem(
  trx: Db,
  itemType: StockItemType,
  id: string,
): Promise<StockItemRow | undefined> {
  const query =
    itemType === 'ingredient'
      ? ITEM_ROWS.ingredient(trx).where('id', '=', id)
      : ITEM_ROWS.product(trx).where('id', '=', id);
  const row = await forUpdate(trx, query).executeTakeFirst();
  return row && { ...row, stock: Number(row.stock), reorder_level: Number(row.reorder_level) };
}

/** Every live item with its stock. */
export async function listLiveItems(db: Db): Promise<(StockItemRow & { item_type: StockItemType })[]> {
  const [ingredients, products] = await Promise.all([
    ITEM_ROWS.ingredient(db).where('is_deleted', '=', sql.lit(0)).execute(),
    ITEM_ROWS.product(db).where('is_deleted', '=', sql.lit(0)).execute(),
  ]);
  return [
    ...ingredients.map((row) => ({ ...row, item_type: 'ingredient' as const })),
    ...products.map((row) => ({ ...row, item_type: 'product' as const })),
  ].map((row) => ({ ...row, stock: Number(row.stock), reorder_level: Number(row.reorder_level) }));
}

export type MovementFilter = {
  itemType?: StockItemType | undefined;
  itemId?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
  limit: number;
  offset: number;
};

/** Movements, newest first, with the item's name and unit and the user's name. */
export async function listMovements(db: Db, filter: MovementFilter) {
  let query = db
    .selectFrom('stock_movements as m')
    .leftJoin('ingredients as i', (join) =>
      join.onRef('i.id', '=', 'm.item_id').on('m.item_type', '=', 'ingredient'),
    )
    .leftJoin('products as p', (join) =>
      join.onRef('p.id', '=', 'm.item_id').on('m.item_type', '=', 'product'),
    )
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .selectAll('m')
    .select([
      sql<string>`coalesce(i.name, p.name)`.as('item_name'),
      sql<string>`coalesce(i.unit, '')`.as('unit'),
      'u.name as user_name',
    ]);
  if (filter.itemType !== undefined) query = query.where('m.item_type', '=', filter.itemType);
  if (filter.itemId !== undefined) query = query.where('m.item_id', '=', filter.itemId);
  if (filter.from !== undefined) query = query.where('m.at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('m.at', '<', filter.to);
  return query
    .orderBy('m.at', 'desc')
    .orderBy('m.ordinal', 'desc')
    .orderBy('m.id', 'desc')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
}

/** The sale movements of these plates, to put back when they are voided before the kitchen started. */
export function findSaleMovements(db: Db, orderDishIds: string[]): Promise<MovementRow[]> {
  if (orderDishIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('stock_movements')
    .selectAll()
    .where('order_dish_id', 'in', orderDishIds)
    .where('reason', '=', 'sale')
    .execute();
}
