import { sql } from 'kysely';
import type { Db } from '../core/db/database';
import { isPostgres } from '../core/db/database';
import type { Database } from '../core/db/schema';
import type { AuditHead } from './audit-hash';

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

/** Where the signed head of the chain is kept: a row of its own, outside the entries it anchors. */
const HEAD_SETTING = 'audit_head';

/** Whether a head is stored at all, readable or not. */
export function hasHead(db: Db): Promise<boolean> {
  return hasSetting(db, HEAD_SETTING);
}

export async function hasSetting(db: Db, name: string): Promise<boolean> {
  const row = await db.selectFrom('app_settings').select('name').where('name', '=', name).executeTakeFirst();
  return row !== undefined;
}

/** The signed head; undefined when there is none, or when what is stored is not one. */
export async function readHead(db: Db): Promise<AuditHead | undefined> {
  const row = await db
    .selectFrom('app_settings')
    .select('value')
    .where('name', '=', HEAD_SETTING)
    .executeTakeFirst();
  if (!row) return undefined;
  try {
    const head = JSON.parse(row.value) as Partial<AuditHead>;
    const isHead =
      Number.isSafeInteger(head.seq) && typeof head.hash === 'string' && typeof head.mac === 'string';
    return isHead ? (head as AuditHead) : undefined;
  } catch {
    return undefined;
  }
}

export function writeHead(db: Db, head: AuditHead): Promise<void> {
  return writeSetting(db, HEAD_SETTING, JSON.stringify(head));
}

export async function writeSetting(db: Db, name: string, value: string): Promise<void> {
  await db
    .insertInto('app_settings')
    .values({ name, value })
    .onConflict((conflict) => conflict.column('name').doUpdateSet({ value }))
    .execute();
}

export async function setEntryHashes(
  db: Db,
  seq: number,
  hashes: { prev_hash: string; hash: string },
): Promise<void> {
  await db.updateTable('audit_log').set(hashes).where('seq', '=', seq).execute();
}

export async function entryAt(db: Db, seq: number): Promise<{ hash: string } | undefined> {
  return db.selectFrom('audit_log').select('hash').where('seq', '=', seq).executeTakeFirst();
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

/** The oldest break the chain recorded that no `audit.break_acknowledged` entry names; undefined when none. */
export async function oldestOpenBreak(db: Db): Promise<AuditRow | undefined> {
  const row = await db
    .selectFrom('audit_log as broken')
    .selectAll()
    .where('broken.action', '=', 'audit.chain_broken')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('audit_log as ack')
            .select('ack.seq')
            .where('ack.action', '=', 'audit.break_acknowledged')
            .whereRef('ack.target_id', '=', 'broken.id'),
        ),
      ),
    )
    .orderBy('broken.seq')
    .limit(1)
    .executeTakeFirst();
  return row && { ...row, seq: Number(row.seq), at: Number(row.at) };
}

export async function findEntry(db: Db, id: string): Promise<AuditRow | undefined> {
  const row = await db.selectFrom('audit_log').selectAll().where('id', '=', id).executeTakeFirst();
  return row && { ...row, seq: Number(row.seq), at: Number(row.at) };
}

/** Whether an `audit.break_acknowledged` entry already names the break `id`. */
export async function isBreakAcknowledged(db: Db, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('audit_log')
    .select('seq')
    .where('action', '=', 'audit.break_acknowledged')
    .where('target_id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}
