import { type Static, Type } from 'typebox';
import type { Db } from '../core/db/database';
import { BadRequestError } from '../core/errors';
import { IngredientQuantity, MAX_QUANTITY } from '../core/quantity';
import { Uuid } from '../core/schemas';
import { fromBase, toBase } from './quantities';
import { itemOf, lockLiveItems, type RecipeItem, type RecipeLineRow } from './recipes.repo';
import { stockItemKey } from './stock.repo';

export const RECIPE_ITEMS_NOT_LIVE = 'Recipe items must be live ingredients or products';
export const RECIPE_ITEM_TWICE = 'A recipe lists each item once';

export const RecipeLine = Type.Union([
  Type.Object(
    {
      ingredient_id: Uuid(),
      quantity: IngredientQuantity({
        minimum: 0.001,
        description: "In the ingredient's unit",
        example: 0.03,
      }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      product_id: Uuid(),
      quantity: Type.Integer({ minimum: 1, maximum: MAX_QUANTITY, description: 'Whole units', example: 1 }),
    },
    { additionalProperties: false },
  ),
]);
export type RecipeLine = Static<typeof RecipeLine>;

export const Recipe = (description: string) => Type.Array(RecipeLine, { maxItems: 50, description });

/**
 * The recipe a body names, in base units, with its items held (live) until commit; 400 when an item
 * is not a live ingredient or product, or is listed twice.
 */
export async function lockRecipe(trx: Db, lines: RecipeLine[]): Promise<RecipeItem[]> {
  const items: RecipeItem[] = lines.map((line) =>
    'ingredient_id' in line
      ? { itemType: 'ingredient', itemId: line.ingredient_id, quantity: toBase('ingredient', line.quantity) }
      : { itemType: 'product', itemId: line.product_id, quantity: line.quantity },
  );
  const keys = items.map(stockItemKey);
  if (new Set(keys).size !== keys.length) throw new BadRequestError(RECIPE_ITEM_TWICE);
  for (const itemType of ['ingredient', 'product'] as const) {
    const ids = items.filter((item) => item.itemType === itemType).map((item) => item.itemId);
    if ((await lockLiveItems(trx, itemType, ids)).length !== ids.length) {
      throw new BadRequestError(RECIPE_ITEMS_NOT_LIVE);
    }
  }
  return items;
}

export function toRecipeView(lines: RecipeLineRow[]): RecipeLine[] {
  return lines.map((line) => {
    const { itemType, itemId } = itemOf(line);
    return itemType === 'ingredient'
      ? { ingredient_id: itemId, quantity: fromBase('ingredient', line.quantity) }
      : { product_id: itemId, quantity: line.quantity };
  });
}
