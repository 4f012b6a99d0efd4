import { fromCents, toCents } from '../core/money';
import * as dishes from './dishes.repo';
import type { DishBody, DishView } from './dishes.schemas';
import { menuItemService } from './menu-items.service';

export const dishesService = menuItemService({
  categoryType: 'dish',
  repo: {
    listLive: dishes.listLiveDishes,
    findLive: dishes.findLiveDish,
    insert: dishes.insertDish,
    updateLive: dishes.updateLiveDish,
    softDeleteLive: dishes.softDeleteLiveDish,
  },
  toColumns: (body: DishBody) => ({
    name: body.name.trim(),
    price_cents: toCents(body.price),
    category_id: body.category_id,
  }),
  toView: (row: dishes.DishRow): DishView => ({
    id: row.id,
    name: row.name,
    price: fromCents(row.price_cents),
    category_id: row.category_id,
  }),
});
