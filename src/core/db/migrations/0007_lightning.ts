import { type Kysely, sql } from 'kysely';

/**
 * Lightning bills: at most one pending Lightning payment per bill, held by a partial unique index so
 * two waiters asking at once cannot both make an invoice a customer could pay; and a claim column
 * so several instances sweeping pending payments do not ask the node about the same one together.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('payments_one_pending_lightning_per_ticket')
    .on('payments')
    .column('ticket_id')
    .unique()
    .where(sql<boolean>`status = 'pending' and method = 'lightning'`)
    .execute();
  await db.schema.alterTable('payments').addColumn('swept_until', 'bigint').execute();
}
