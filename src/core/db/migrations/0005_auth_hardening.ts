import { type Kysely, sql } from 'kysely';

/**
 * Security review (issue 11): names compared in their normalised form, shared failure counters for
 * the login and wallet throttles, the refresh-token grace window, and revoked wallet tokens.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // SQLite cannot add a NOT NULL column without a default; every insert sets it (the type requires it).
  await db.schema
    .alterTable('users')
    .addColumn('name_key', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  await backfillNameKeys(db);
  await db.schema.dropIndex('users_live_name_unique').execute();
  await db.schema
    .createIndex('users_live_name_key_unique')
    .on('users')
    .column('name_key')
    .unique()
    .where(sql.ref('is_deleted'), '=', 0)
    .execute();

  await db.schema
    .createTable('failure_counters')
    .addColumn('scope', 'text', (col) => col.notNull())
    .addColumn('bucket_key', 'text', (col) => col.notNull())
    .addColumn('window_start', 'bigint', (col) => col.notNull())
    .addColumn('failures', 'integer', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('failure_counters_pk', ['scope', 'bucket_key', 'window_start'])
    .execute();
  await db.schema
    .createIndex('failure_counters_expires_at')
    .on('failure_counters')
    .column('expires_at')
    .execute();

  await db.schema.alterTable('sessions').addColumn('previous_refresh_token_id', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('rotated_at', 'bigint').execute();
  await db.schema.alterTable('sessions').addColumn('access_token_id', 'text').execute();

  await db.schema
    .createTable('revoked_wallet_tokens')
    .addColumn('token_id', 'text', (col) => col.primaryKey())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('revoked_wallet_tokens_expires_at')
    .on('revoked_wallet_tokens')
    .column('expires_at')
    .execute();
}

/**
 * Live names that differ only in case or Unicode form ("Ana" and "ana") were distinct before and
 * now collide. The oldest keeps the key; each later one gets a key with a trailing space, which no
 * typed name can produce (keys are trimmed), so it cannot log in until an admin renames it.
 */
async function backfillNameKeys(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ id: string; name: string; is_deleted: number }>`
    select id, name, is_deleted from users order by created_at, id`.execute(db);
  const liveKeys = new Set<string>();
  for (const row of rows) {
    let key = nameKeyOf(row.name);
    if (Number(row.is_deleted) === 0) {
      if (liveKeys.has(key)) key = `${key} ${row.id} `;
      liveKeys.add(key);
    }
    await sql`update users set name_key = ${key} where id = ${row.id}`.execute(db);
  }
}

/**
 * users/user-name.ts's `userNameKey` as it was the day this migration was written, copied so that a
 * later change there cannot change what this migration does: NFKC, trimmed, case folded.
 */
function nameKeyOf(name: string): string {
  return name.normalize('NFKC').trim().toUpperCase().toLowerCase().normalize('NFKC');
}
