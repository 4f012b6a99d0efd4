import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Db } from '../core/db/database';
import type { Database } from '../core/db/schema';
import { outOfStock } from '../inventory/inventory.api';

export type DishRow = Selectable<Database['dishes']> & { out_of_stock: number };

export function listLiveDishes(db: Db): Promise<DishRow[]> {
  return db
    .selectFrom('dishes')
    .selectAll()
    .select(outOfStock('dish_id', 'dishes.id').as('out_of_stock'))
    .where('is_deleted', '=', sql.lit(0))
    .orderBy('name')
    .execute();
}

export function findLiveDish(db: Db, id: string): Promise<DishRow | undefined> {
  return db
    .selectFrom('dishes')
    .selectAll()
    .select(outOfStock('dish_id', 'dishes.id').as('out_of_stock'))
    .where('id', '=', id)
    .where('is_deleted', '=', sql.lit(0))
    .executeTakeFirst();
}

export async function insertDish(db: Db, row: Insertable<Database['dishes']>): Promise<void> {
  await db.insertInto('dishes').values(row).execute();
}

/** Changes a live dish; answers whether there was one. */
export async function updateLiveDish(
  db: Db,
  id: string,
  changes: Updateable<Database['dishes']>,
): Promise<boolean> {
  const result = await db
    .updateTable('dishes')
    .set(changes)
    .where('id', '=', id)
    .where('is_deleted', '=', sql.lit(0))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Sets a live dish's availability when it differs; answers whether it changed. The conditional
 * update decides between two screens pressing "86" at once: one changes it, the other changes nothing.
 */
export async function switchAvailability(
  db: Db,
  id: string,
  isAvailable: boolean,
  now: number,
): Promise<boolean> {
  const value = isAvailable ? 1 : 0;
  const result = await db
    .updateTable('dishes')
    .set({ is_available: value, updated_at: now })
    .where('id', '=', id)
    .where('is_deleted', '=', sql.lit(0))
    .where('is_available', '<>', value)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
