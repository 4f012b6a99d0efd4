import type { Kysely } from 'kysely';

/**
 * The webhooks a platform registers through its own API (Rappi's; Uber's are set in its dashboard and
 * signed with the client secret): one row per channel and event, with the URL it was registered for
 * and the secret that event's deliveries are signed with. A row whose URL is not the server's public
 * URL any more is registered again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('channel_webhooks')
    .addColumn('channel', 'text', (col) => col.notNull())
    .addColumn('event', 'text', (col) => col.notNull())
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('secret', 'text', (col) => col.notNull())
    .addColumn('registered_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('channel_webhooks_pk', ['channel', 'event'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('channel_webhooks').execute();
}
