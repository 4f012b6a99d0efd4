import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Db } from '../core/db/database';
import type { Database } from '../core/db/schema';

export type MenuTable = 'dishes' | 'ingredients' | 'products';

/**
 * The SQL dishes, ingredients and products share; only the table differs. Kysely cannot see through a
 * generic table name, so queries are written against the columns all three have and typed back here.
 */
export function menuItemsRepo<T extends MenuTable>(table: T) {
  type Row = Selectable<Database[T]>;
  const shared = table as MenuTable;

  async function setLive(db: Db, id: string, changes: Updateable<Database[MenuTable]>): Promise<boolean> {
    const result = await db
      .updateTable(shared)
      .set(changes)
      .where('id', '=', id)
      .where('is_deleted', '=', sql.lit(0))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  return {
    listLive: (db: Db): Promise<Row[]> =>
      db
        .selectFrom(shared)
        .selectAll()
        .where('is_deleted', '=', sql.lit(0))
        .orderBy('name')
        .execute() as Promise<Row[]>,

    findLive: (db: Db, id: string): Promise<Row | undefined> =>
      db
        .selectFrom(shared)
        .selectAll()
        .where('id', '=', id)
        .where('is_deleted', '=', sql.lit(0))
        .executeTakeFirst() as Promise<Row | undefined>,

    insert: async (db: Db, row: Insertable<Database[T]>): Promise<void> => {
      await db
        .insertInto(shared)
        .values(row as Insertable<Database[MenuTable]>)
        .execute();
    },

    /** Changes a live record; answers whether there was one. */
    updateLive: (db: Db, id: string, changes: Updateable<Database[T]>): Promise<boolean> =>
      setLive(db, id, changes as Updateable<Database[MenuTable]>),

    /** Logically deletes a live record; answers whether there was one. */
    softDeleteLive: (db: Db, id: string, now: number): Promise<boolean> =>
      setLive(db, id, { is_deleted: 1, updated_at: now }),
  };
}
