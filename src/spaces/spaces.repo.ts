import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../core/db/database';
import { forUpdate } from '../core/db/locks';
import type { Database } from '../core/db/schema';

export type SpaceRow = Selectable<Database['spaces']>;

export function listLiveSpaces(db: Db): Promise<SpaceRow[]> {
  return db.selectFrom('spaces').selectAll().where('is_deleted', '=', sql.lit(0)).orderBy('name').execute();
}

function selectLiveSpace(db: Db, id: string) {
  return db.selectFrom('spaces').selectAll().where('id', '=', id).where('is_deleted', '=', sql.lit(0));
}

export function findLiveSpace(db: Db, id: string): Promise<SpaceRow | undefined> {
  return selectLiveSpace(db, id).executeTakeFirst();
}

/** Reads and row-locks a live space, so deleting it and adding a table to it cannot interleave. */
export function lockLiveSpace(db: Db, id: string): Promise<SpaceRow | undefined> {
  return forUpdate(db, selectLiveSpace(db, id)).executeTakeFirst();
}

export async function insertSpace(db: Db, space: Insertable<Database['spaces']>): Promise<void> {
  await db.insertInto('spaces').values(space).execute();
}

/** Renames a live space; answers whether there was one. */
export async function renameLiveSpace(db: Db, id: string, name: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('spaces')
    .set({ name, updated_at: now })
    .where('id', '=', id)
    .where('is_deleted', '=', sql.lit(0))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function softDeleteSpace(db: Db, id: string, now: number): Promise<void> {
  await db.updateTable('spaces').set({ is_deleted: 1, updated_at: now }).where('id', '=', id).execute();
}

export async function hasLiveTables(db: Db, spaceId: string): Promise<boolean> {
  const row = await db
    .selectFrom('dining_tables')
    .select('id')
    .where('space_id', '=', spaceId)
    .where('is_deleted', '=', sql.lit(0))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
