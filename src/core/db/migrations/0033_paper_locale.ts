import { type Kysely, sql } from 'kysely';

/**
 * Receipts and kitchen chits print in the restaurant's language. A restaurant that bills in pesos
 * prints in Mexican Spanish; the others keep the English their paper has had so far. A receipt
 * printed again is marked as a reprint: a receipt job keeps the state (pending, paid, cancelled) of the
 * bill it printed, so the paid receipt after a guest check is no reprint, and a second one is.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('business_settings')
    .addColumn('locale', 'text', (col) => col.notNull().defaultTo('en-US'))
    .execute();
  await sql`update business_settings set locale = 'es-MX' where base_currency = 'MXN'`.execute(db);
  await db.schema.alterTable('print_jobs').addColumn('ticket_status', 'smallint').execute();
  await db.schema.createIndex('print_jobs_ticket').on('print_jobs').column('ticket_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('print_jobs_ticket').execute();
  await db.schema.alterTable('print_jobs').dropColumn('ticket_status').execute();
  await db.schema.alterTable('business_settings').dropColumn('locale').execute();
}
