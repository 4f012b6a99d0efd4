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
    category_id: body.category_id,
    ...(body.reorder_level !== undefined && { reorder_level: body.reorder_level }),
  }),
  stock: { itemType: 'product', quantityOf: (body: ProductBody) => body.quantity },
  toView: (row: Selectable<Database['products']>): ProductView => ({
    id: row.id,
    name: row.name,
    sku: row.sku,
    price: fromCents(row.price_cents),
    quantity: Number(row.stock),
    category_id: row.category_id,
    reorder_level: Number(row.reorder_level),
  }),
  // The partial unique index on live SKUs decides between two concurrent writes of one SKU.
  uniqueViolationMessage: 'A product with this SKU already exists',
});
