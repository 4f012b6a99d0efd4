import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../core/db/database';
import type { Database } from '../core/db/schema';

export type ProductRow = Selectable<Database['products']>;

export function listLiveProducts(db: Db): Promise<ProductRow[]> {
  return db.selectFrom('products').selectAll().where('is_deleted', '=', 0).orderBy('name').execute();
}

export function findLiveProduct(db: Db, id: string): Promise<ProductRow | undefined> {
  return db
    .selectFrom('products')
    .selectAll()
    .where('id', '=', id)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
}

export async function insertProduct(db: Db, product: Insertable<Database['products']>): Promise<void> {
  await db.insertInto('products').values(product).execute();
}

/** Changes a live product; answers whether there was one. */
export async function updateLiveProduct(
  db: Db,
  id: string,
  changes: Updateable<Database['products']>,
): Promise<boolean> {
  const result = await db
    .updateTable('products')
    .set(changes)
    .where('id', '=', id)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Logically deletes a live product; answers whether there was one. */
export async function softDeleteLiveProduct(db: Db, id: string, now: number): Promise<boolean> {
  return updateLiveProduct(db, id, { is_deleted: 1, updated_at: now });
}
