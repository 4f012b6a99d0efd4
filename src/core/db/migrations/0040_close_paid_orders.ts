import type { Kysely } from 'kysely';

/**
 * Whether an order closes itself and frees its table once its bills are paid and nothing is owed
 * (on by default; a restaurant that clears tables by hand turns it off).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('business_settings')
    .addColumn('close_paid_orders', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('business_settings').dropColumn('close_paid_orders').execute();
}
