import { sql } from 'kysely';
import type { Db } from '../core/db/database';

export function listCurrencies(db: Db) {
  return db.selectFrom('currencies').select(['id', 'code', 'name', 'symbol']).orderBy('code').execute();
}

export function findCurrencyByCode(db: Db, code: string) {
  return db.selectFrom('currencies').select('id').where('code', '=', code).executeTakeFirst();
}

export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
