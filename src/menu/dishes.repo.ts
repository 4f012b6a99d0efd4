import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../core/db/database';
import type { Database } from '../core/db/schema';

export type DishRow = Selectable<Database['dishes']>;

export function listLiveDishes(db: Db): Promise<DishRow[]> {
  return db.selectFrom('dishes').selectAll().where('is_deleted', '=', 0).orderBy('name').execute();
}

export function findLiveDish(db: Db, id: string): Promise<DishRow | undefined> {
  return db
    .selectFrom('dishes')
    .selectAll()
    .where('id', '=', id)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
}

export async function insertDish(db: Db, dish: Insertable<Database['dishes']>): Promise<void> {
  await db.insertInto('dishes').values(dish).execute();
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
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Logically deletes a live dish; answers whether there was one. */
export async function softDeleteLiveDish(db: Db, id: string, now: number): Promise<boolean> {
  return updateLiveDish(db, id, { is_deleted: 1, updated_at: now });
}
