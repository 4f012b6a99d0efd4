import type { Kysely } from 'kysely';

/**
 * phoenixd pays what arrives net of its liquidity fee, so a Lightning payment keeps the fee the node
 * took (`fees_msat`, millisatoshis as phoenixd reports it) for the day and shift reports. And since
 * phoenixd sends each webhook once, a catch-up read of the node's paid payments settles those whose
 * webhook was lost: `lightning_catch_up` holds how far it has read (the completion time of the newest
 * paid payment seen) and which instance is reading now, so several instances do not read together.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('fees_msat', 'bigint').execute();
  await db.schema
    .createTable('lightning_catch_up')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('seen_until', 'bigint', (col) => col.notNull())
    .addColumn('claimed_until', 'bigint')
    .execute();
  await db
    .insertInto('lightning_catch_up' as never)
    .values({ id: 1, seen_until: 0, claimed_until: null } as never)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('lightning_catch_up').execute();
  await db.schema.alterTable('payments').dropColumn('fees_msat').execute();
}
