import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../core/db/database';
import { forUpdate } from '../core/db/locks';
import type { Database } from '../core/db/schema';
import type { CategoryType } from './categories.schemas';

export type CategoryRow = Selectable<Database['categories']>;

/** The table whose live rows keep a category of each type in use. */
const RECORDS_OF_TYPE = { dish: 'dishes', ingredient: 'ingredients', product: 'products' } as const;

export function listLiveCategories(db: Db, type: CategoryType): Promise<CategoryRow[]> {
  return db
    .selectFrom('categories')
    .selectAll()
    .where('type', '=', type)
    .where('is_deleted', '=', sql.lit(0))
    .orderBy('name')
    .execute();
}

function selectLiveCategory(db: Db, id: string, type: CategoryType) {
  return db
    .selectFrom('categories')
    .selectAll()
    .where('id', '=', id)
    .where('type', '=', type)
    .where('is_deleted', '=', sql.lit(0));
}

export function findLiveCategory(db: Db, id: string, type: CategoryType): Promise<CategoryRow | undefined> {
  return selectLiveCategory(db, id, type).executeTakeFirst();
}

/** Reads and row-locks a live category, so a delete and a record pointing at it cannot interleave. */
export function lockLiveCategory(db: Db, id: string, type: CategoryType): Promise<CategoryRow | undefined> {
  return forUpdate(db, selectLiveCategory(db, id, type)).executeTakeFirst();
}

export async function insertCategory(db: Db, category: Insertable<Database['categories']>): Promise<void> {
  await db.insertInto('categories').values(category).execute();
}

/** Renames (and moves to a station) a live category of that type; answers whether one was found. */
export async function updateCategory(
  db: Db,
  id: string,
  type: CategoryType,
  changes: { name: string; station?: string; updated_at: number },
): Promise<boolean> {
  const result = await db
    .updateTable('categories')
    .set(changes)
    .where('id', '=', id)
    .where('type', '=', type)
    .where('is_deleted', '=', sql.lit(0))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function softDeleteCategory(db: Db, id: string, now: number): Promise<void> {
  await db.updateTable('categories').set({ is_deleted: 1, updated_at: now }).where('id', '=', id).execute();
}

export async function isCategoryInUse(db: Db, id: string, type: CategoryType): Promise<boolean> {
  const row = await db
    .selectFrom(RECORDS_OF_TYPE[type])
    .select('id')
    .where('category_id', '=', id)
    .where('is_deleted', '=', sql.lit(0))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
