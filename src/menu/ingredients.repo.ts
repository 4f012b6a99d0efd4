import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../core/db/database';
import type { Database } from '../core/db/schema';

export type IngredientRow = Selectable<Database['ingredients']>;

export function listLiveIngredients(db: Db): Promise<IngredientRow[]> {
  return db.selectFrom('ingredients').selectAll().where('is_deleted', '=', 0).orderBy('name').execute();
}

export function findLiveIngredient(db: Db, id: string): Promise<IngredientRow | undefined> {
  return db
    .selectFrom('ingredients')
    .selectAll()
    .where('id', '=', id)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
}

export async function insertIngredient(
  db: Db,
  ingredient: Insertable<Database['ingredients']>,
): Promise<void> {
  await db.insertInto('ingredients').values(ingredient).execute();
}

/** Changes a live ingredient; answers whether there was one. */
export async function updateLiveIngredient(
  db: Db,
  id: string,
  changes: Updateable<Database['ingredients']>,
): Promise<boolean> {
  const result = await db
    .updateTable('ingredients')
    .set(changes)
    .where('id', '=', id)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Logically deletes a live ingredient; answers whether there was one. */
export async function softDeleteLiveIngredient(db: Db, id: string, now: number): Promise<boolean> {
  return updateLiveIngredient(db, id, { is_deleted: 1, updated_at: now });
}
