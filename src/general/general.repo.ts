import { sql } from 'kysely';
import type { Db } from '../core/db/database';

export function listCurrencies(db: Db) {
  return db.selectFrom('currencies').select(['id', 'code', 'name', 'symbol']).orderBy('code').execute();
}

export function findCurrencyByCode(db: Db, code: string) {
  return db.selectFrom('currencies').select('id').where('code', '=', code).executeTakeFirst();
}

/** A real write, the smallest there is: one row of app_settings that holds the last probe's instant. */
export async function writeHealthProbe(db: Db, now: number): Promise<void> {
  await db
    .insertInto('app_settings')
    .values({ name: 'health_probe', value: String(now) })
    .onConflict((conflict) => conflict.column('name').doUpdateSet({ value: String(now) }))
    .execute();
}

/** SQLite only: pages used and the most it may use; equal means the next page a write needs fails. */
export async function sqlitePageUsage(db: Db): Promise<{ used: number; max: number }> {
  const used = await sql<{ page_count: number }>`pragma page_count`.execute(db);
  const max = await sql<{ max_page_count: number }>`pragma max_page_count`.execute(db);
  return {
    used: used.rows[0]?.page_count ?? 0,
    max: max.rows[0]?.max_page_count ?? Number.POSITIVE_INFINITY,
  };
}
