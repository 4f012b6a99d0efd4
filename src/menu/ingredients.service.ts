import * as ingredients from './ingredients.repo';
import type { IngredientBody, IngredientView } from './ingredients.schemas';
import { menuItemService } from './menu-items.service';

export const ingredientsService = menuItemService({
  categoryType: 'ingredient',
  repo: {
    listLive: ingredients.listLiveIngredients,
    findLive: ingredients.findLiveIngredient,
    insert: ingredients.insertIngredient,
    updateLive: ingredients.updateLiveIngredient,
    softDeleteLive: ingredients.softDeleteLiveIngredient,
  },
  toColumns: (body: IngredientBody) => ({
    name: body.name.trim(),
    category_id: body.category_id,
    quantity: body.quantity,
    unit: body.unit.trim(),
  }),
  toView: (row: ingredients.IngredientRow): IngredientView => ({
    id: row.id,
    name: row.name,
    category_id: row.category_id,
    quantity: row.quantity,
    unit: row.unit,
  }),
});
