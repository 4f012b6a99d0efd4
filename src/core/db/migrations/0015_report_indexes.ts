import { type Kysely, sql } from 'kysely';

/** Sales reports read the bills paid in a period: only Paid bills, by the time they were paid. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('tickets_paid_at')
    .on('tickets')
    .column('paid_at')
    .where(sql.ref('status'), '=', sql.lit(2))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('tickets_paid_at').execute();
}
