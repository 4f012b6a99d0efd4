import type { Selectable } from 'kysely';
import type { Database } from '../core/db/schema';
import { fromCents, toCents } from '../core/money';
import { menuItemsRepo } from './menu-items.repo';
import { menuItemService } from './menu-items.service';
import type { ProductBody, ProductView } from './products.schemas';

export const productsService = menuItemService({
  categoryType: 'product',
  repo: menuItemsRepo('products'),
  toColumns: (body: ProductBody) => ({
    name: body.name.trim(),
    sku: body.sku,
    price_cents: toCents(body.price),
    quantity: body.quantity,
    category_id: body.category_id,
  }),
  toView: (row: Selectable<Database['products']>): ProductView => ({
    id: row.id,
    name: row.name,
    sku: row.sku,
    price: fromCents(row.price_cents),
    quantity: row.quantity,
    category_id: row.category_id,
  }),
  // The partial unique index on live SKUs decides between two concurrent writes of one SKU.
  uniqueViolationMessage: 'A product with this SKU already exists',
});
