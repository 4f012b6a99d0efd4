import type { Kysely } from 'kysely';

/**
 * An opt-in guard for restaurants whose server sits on a network worth protecting: with it on,
 * webhooks may not point at loopback, link-local or private addresses (the POS would otherwise POST
 * to whatever an administrator's account names, the router or a cloud metadata service included).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('business_settings')
    .addColumn('webhooks_block_private_targets', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}
