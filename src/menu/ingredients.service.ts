import type { Selectable } from 'kysely';
import type { Database } from '../core/db/schema';
import { fromBase, toBase } from '../inventory/inventory.api';
import type { IngredientBody, IngredientView } from './ingredients.schemas';
import { menuItemsRepo } from './menu-items.repo';
import { menuItemService } from './menu-items.service';

export const ingredientsService = menuItemService({
  categoryType: 'ingredient',
  repo: menuItemsRepo('ingredients'),
  toColumns: (body: IngredientBody) => ({
    name: body.name.trim(),
    category_id: body.category_id,
    unit: body.unit.trim(),
    ...(body.reorder_level !== undefined && { reorder_level: toBase('ingredient', body.reorder_level) }),
  }),
  stock: {
    itemType: 'ingredient',
    quantityOf: (body: IngredientBody) => toBase('ingredient', body.quantity),
  },
  toView: (row: Selectable<Database['ingredients']>): IngredientView => ({
    id: row.id,
    name: row.name,
    category_id: row.category_id,
    quantity: fromBase('ingredient', row.stock),
    unit: row.unit,
    reorder_level: fromBase('ingredient', row.reorder_level),
  }),
});
