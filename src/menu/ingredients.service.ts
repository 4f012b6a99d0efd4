import type { Selectable } from 'kysely';
import type { Database } from '../core/db/schema';
import type { IngredientBody, IngredientView } from './ingredients.schemas';
import { menuItemsRepo } from './menu-items.repo';
import { menuItemService } from './menu-items.service';

export const ingredientsService = menuItemService({
  categoryType: 'ingredient',
  repo: menuItemsRepo('ingredients'),
  toColumns: (body: IngredientBody) => ({
    name: body.name.trim(),
    category_id: body.category_id,
    quantity: body.quantity,
    unit: body.unit.trim(),
  }),
  toView: (row: Selectable<Database['ingredients']>): IngredientView => ({
    id: row.id,
    name: row.name,
    category_id: row.category_id,
    quantity: row.quantity,
    unit: row.unit,
  }),
});
