import { type Kysely, sql } from 'kysely';

/**
 * The tamper-evident audit log. `seq` numbers the chain without gaps (each append takes the last
 * seq + 1 under a lock, see audit/record-audit.ts), so a deleted row shows as a gap; `hash` covers the
 * entry and the previous entry's hash, so an edited row shows as a mismatch. `before`/`after` are JSON
 * text, hashed exactly as stored.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('seq', 'bigint', (col) => col.notNull().check(sql`seq >= 1`))
    .addColumn('at', 'bigint', (col) => col.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('target_type', 'text', (col) => col.notNull())
    .addColumn('target_id', 'text')
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('prev_hash', 'text', (col) => col.notNull())
    .addColumn('hash', 'text', (col) => col.notNull())
    .execute();
  // The chain's order; unique, so two appends can never claim the same place.
  await db.schema.createIndex('audit_log_seq').on('audit_log').column('seq').unique().execute();
  // The list filters by time, newest first, and by action or actor within it.
  await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'seq']).execute();
  await db.schema.createIndex('audit_log_action_at').on('audit_log').columns(['action', 'at']).execute();
  await db.schema.createIndex('audit_log_actor_at').on('audit_log').columns(['actor_id', 'at']).execute();
}
