import type { Kysely } from 'kysely';

/**
 * A blind count at shift close: with it on, the cashier does not see the cash the drawer should
 * hold until she has counted it, so the count cannot be bent towards the expected figure.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('business_settings')
    .addColumn('blind_shift_close', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('business_settings').dropColumn('blind_shift_close').execute();
}
