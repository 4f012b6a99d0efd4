import type { Kysely } from 'kysely';

/** Incoming Lightning payments we learn of, kept so the history survives a node swap. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('incoming_payments')
    .addColumn('payment_hash', 'text', (col) => col.primaryKey())
    .addColumn('amount_sat', 'bigint', (col) => col.notNull())
    .addColumn('received_sat', 'bigint', (col) => col.notNull())
    .addColumn('fees_sat', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('external_id', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('completed_at', 'bigint')
    .addColumn('recorded_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('incoming_payments_external_id')
    .on('incoming_payments')
    .column('external_id')
    .execute();
}
