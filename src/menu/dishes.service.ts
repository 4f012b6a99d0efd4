import type { Selectable } from 'kysely';
import type { Database } from '../core/db/schema';
import { fromCents, toCents } from '../core/money';
import type { DishBody, DishView } from './dishes.schemas';
import { menuItemsRepo } from './menu-items.repo';
import { menuItemService } from './menu-items.service';

export const dishesService = menuItemService({
  categoryType: 'dish',
  repo: menuItemsRepo('dishes'),
  toColumns: (body: DishBody) => ({
    name: body.name.trim(),
    price_cents: toCents(body.price),
    category_id: body.category_id,
  }),
  toView: (row: Selectable<Database['dishes']>): DishView => ({
    id: row.id,
    name: row.name,
    price: fromCents(row.price_cents),
    category_id: row.category_id,
  }),
});
