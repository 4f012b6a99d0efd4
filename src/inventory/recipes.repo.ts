import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../core/db/database';
import { forShare } from '../core/db/locks';
import { prepared } from '../core/db/prepared';
import type { StockItemType } from '../core/db/schema';
import { newId } from '../core/ids';

export type RecipeOwner = { dishId: string } | { optionId: string };

/** One line of a recipe, in base units. */
export type RecipeItem = { itemType: StockItemType; itemId: string; quantity: number };

export type RecipeLineRow = {
  dish_id: string | null;
  option_id: string | null;
  ingredient_id: string | null;
  product_id: string | null;
  quantity: number;
};

/**
 * 1 when some item the dish's or option's recipe needs has run out (stock at or below zero), else 0.
 * Worked out from the stock on every read rather than stored, so it is never stale: two sends running
 * two items out at once cannot leave a flag behind that neither of them wrote last.
 */
export function outOfStock(owner: 'dish_id' | 'option_id', ownerId: string): RawBuilder<number> {
  return sql<number>`case when exists (
    select 1 from recipe_lines r
    left join ingredients ri on ri.id = r.ingredient_id
    left join products rp on rp.id = r.product_id
    where r.${sql.ref(owner)} = ${sql.ref(ownerId)} and coalesce(ri.stock, rp.stock) <= 0
  ) then 1 else 0 end`;
}

export function itemOf(line: Pick<RecipeLineRow, 'ingredient_id' | 'product_id'>): {
  itemType: StockItemType;
  itemId: string;
} {
  return line.ingredient_id !== null
    ? { itemType: 'ingredient', itemId: line.ingredient_id }
    : { itemType: 'product', itemId: line.product_id as string };
}

/** The recipe lines of these dishes or options, in each recipe's order. */
export async function findRecipeLines(
  db: Db,
  owner: 'dish_id' | 'option_id',
  ownerIds: string[],
): Promise<RecipeLineRow[]> {
  if (ownerIds.length === 0) return [];
  const rows = await db
    .selectFrom('recipe_lines')
    .select(['dish_id', 'option_id', 'ingredient_id', 'product_id', 'quantity'])
    .where(owner, 'in', ownerIds)
    .orderBy('position')
    .execute();
  return rows.map((row) => ({ ...row, quantity: Number(row.quantity) }));
}

export async function replaceRecipe(trx: Db, owner: RecipeOwner, items: RecipeItem[]): Promise<void> {
  const ownerColumns =
    'dishId' in owner
      ? { dish_id: owner.dishId, option_id: null }
      : { dish_id: null, option_id: owner.optionId };
  await trx
    .deleteFrom('recipe_lines')
    .where(
      'dishId' in owner ? 'dish_id' : 'option_id',
      '=',
      'dishId' in owner ? owner.dishId : owner.optionId,
    )
    .execute();
  if (items.length === 0) return;
  await trx
    .insertInto('recipe_lines')
    .values(
      items.map((item, position) => ({
        id: newId(),
        ...ownerColumns,
        ingredient_id: item.itemType === 'ingredient' ? item.itemId : null,
        product_id: item.itemType === 'product' ? item.itemId : null,
        quantity: item.quantity,
        position,
      })),
    )
    .execute();
}

/**
 * Holds the live items among these until commit (a shared lock on PostgreSQL): an item deleted at the
 * same moment either waits and then sees the recipe that uses it, or commits first and is not here.
 */
export async function lockLiveItems(trx: Db, itemType: StockItemType, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const table = itemType === 'ingredient' ? 'ingredients' : 'products';
  const rows = await forShare(
    trx,
    trx
      .selectFrom(table as 'ingredients')
      .select('id')
      .where('id', 'in', ids)
      .where('is_deleted', '=', sql.lit(0)),
  ).execute();
  return rows.map((row) => row.id);
}

/** Whether a live dish or a live option of a live group has this item in its recipe. */
export async function isUsedByLiveRecipe(db: Db, itemType: StockItemType, id: string): Promise<boolean> {
  const column = itemType === 'ingredient' ? 'r.ingredient_id' : 'r.product_id';
  const row = await db
    .selectFrom('recipe_lines as r')
    .leftJoin('dishes as d', 'd.id', 'r.dish_id')
    .leftJoin('modifier_options as o', 'o.id', 'r.option_id')
    .leftJoin('modifier_groups as g', 'g.id', 'o.group_id')
    .select('r.id')
    .where(column, '=', id)
    .where((eb) =>
      eb.or([
        eb('d.is_deleted', '=', sql.lit(0)),
        // A line of a dish joins no option and no group, so only an option's line passes here.
        eb.and([eb('o.retired_at', 'is', null), eb('g.is_deleted', '=', sql.lit(0))]),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

const dishRecipesOfPlates = prepared((db, { ids }: { ids: string[] }) =>
  db
    .selectFrom('order_dishes as od')
    .innerJoin('recipe_lines as r', 'r.dish_id', 'od.dish_id')
    .select([
      'od.id as order_dish_id',
      'r.dish_id',
      'r.option_id',
      'r.ingredient_id',
      'r.product_id',
      'r.quantity',
    ])
    .where('od.id', 'in', ids),
);

const optionRecipesOfPlates = prepared((db, { ids }: { ids: string[] }) =>
  db
    .selectFrom('order_dish_modifiers as m')
    .innerJoin('recipe_lines as r', 'r.option_id', 'm.option_id')
    .select(['m.order_dish_id', 'r.dish_id', 'r.option_id', 'r.ingredient_id', 'r.product_id', 'r.quantity'])
    .where('m.order_dish_id', 'in', ids),
);

/** What each of these plates uses: its dish's recipe and the recipes of the options chosen for it. */
export async function findPlateRecipes(
  db: Db,
  orderDishIds: string[],
): Promise<(RecipeLineRow & { order_dish_id: string })[]> {
  if (orderDishIds.length === 0) return [];
  // Prepared: every send runs them, in the rush's hottest transaction.
  const [fromDishes, fromOptions] = await Promise.all([
    dishRecipesOfPlates.all(db, { ids: orderDishIds }),
    optionRecipesOfPlates.all(db, { ids: orderDishIds }),
  ]);
  return [...fromDishes, ...fromOptions].map((row) => ({ ...row, quantity: Number(row.quantity) }));
}

/**
 * The live dishes and options (manually available) whose recipes use one of these items, each with
 * every item its recipe needs and that item's stock now: who turns unavailable or returns.
 */
export async function findRecipesUsing(
  db: Db,
  items: { itemType: StockItemType; itemId: string }[],
): Promise<
  {
    dish_id: string | null;
    option_id: string | null;
    group_id: string | null;
    ingredient_id: string | null;
    product_id: string | null;
    stock: number;
  }[]
> {
  const ingredientIds = items.filter((item) => item.itemType === 'ingredient').map((item) => item.itemId);
  const productIds = items.filter((item) => item.itemType === 'product').map((item) => item.itemId);
  const owners = db
    .selectFrom('recipe_lines')
    .where((eb) =>
      eb.or([
        ...(ingredientIds.length > 0 ? [eb('ingredient_id', 'in', ingredientIds)] : []),
        ...(productIds.length > 0 ? [eb('product_id', 'in', productIds)] : []),
      ]),
    );
  const rows = await db
    .selectFrom('recipe_lines as r')
    .leftJoin('ingredients as i', 'i.id', 'r.ingredient_id')
    .leftJoin('products as p', 'p.id', 'r.product_id')
    .leftJoin('dishes as d', 'd.id', 'r.dish_id')
    .leftJoin('modifier_options as o', 'o.id', 'r.option_id')
    .leftJoin('modifier_groups as g', 'g.id', 'o.group_id')
    .select([
      'r.dish_id',
      'r.option_id',
      'o.group_id',
      'r.ingredient_id',
      'r.product_id',
      sql<number>`coalesce(i.stock, p.stock)`.as('stock'),
    ])
    .where((eb) =>
      eb.or([
        eb.and([
          eb('r.dish_id', 'in', owners.select('dish_id')),
          eb('d.is_deleted', '=', sql.lit(0)),
          eb('d.is_available', '=', sql.lit(1)),
        ]),
        eb.and([
          eb('r.option_id', 'in', owners.select('option_id')),
          eb('o.retired_at', 'is', null),
          eb('o.is_available', '=', sql.lit(1)),
          eb('g.is_deleted', '=', sql.lit(0)),
        ]),
      ]),
    )
    .execute();
  return rows.map((row) => ({ ...row, stock: Number(row.stock) }));
}
