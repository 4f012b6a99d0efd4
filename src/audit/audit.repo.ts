import { sql } from 'kysely';
import type { Db } from '../core/db/database';
import { isPostgres } from '../core/db/database';
import type { Database } from '../core/db/schema';

export type AuditRow = Database['audit_log'];

/**
 * Holds the right to append until the caller's transaction ends. PostgreSQL: a transaction-level
 * advisory lock shared by every instance (the table may be empty, so there is no row to lock).
 * SQLite runs one write transaction at a time on its single connection, which is already exclusive.
 */
export async function lockChain(db: Db): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.audit_log'))`.execute(db);
}

export async function lastEntry(db: Db): Promise<{ seq: number; hash: string } | undefined> {
  const row = await db
    .selectFrom('audit_log')
    .select(['seq', 'hash'])
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && { seq: Number(row.seq), hash: row.hash };
}

export async function insertEntry(db: Db, row: AuditRow): Promise<void> {
  await db.insertInto('audit_log').values(row).execute();
}

export type AuditFilter = {
  from?: number | undefined;
  to?: number | undefined;
  actor?: string | undefined;
  action?: string | undefined;
};

function filtered(db: Db, filter: AuditFilter) {
  let query = db.selectFrom('audit_log');
  if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('at', '<=', filter.to);
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  const { actor } = filter;
  if (actor !== undefined) {
    query = query.where((eb) => eb.or([eb('actor_id', '=', actor), eb('actor_name', '=', actor)]));
  }
  return query;
}

/** Newest first; `seq` breaks ties between entries of the same millisecond. */
export async function findEntries(
  db: Db,
  filter: AuditFilter,
  page: { limit: number; offset: number },
): Promise<AuditRow[]> {
  const rows = await filtered(db, filter)
    .selectAll()
    .orderBy('at', 'desc')
    .orderBy('seq', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map((row) => ({ ...row, seq: Number(row.seq), at: Number(row.at) }));
}

export async function countEntries(db: Db, filter: AuditFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The chain in order after `seq`, one batch at a time, so verifying never holds the whole log. */
export async function entriesAfter(db: Db, seq: number, limit: number): Promise<AuditRow[]> {
  const rows = await db
    .selectFrom('audit_log')
    .selectAll()
    .where('seq', '>', seq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, seq: Number(row.seq), at: Number(row.at) }));
}
