import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * The sales reports' facts (reports/sales-facts.ts): one row per share of a Paid bill, so a report
 * is one range scan over (kind, paid_at) instead of a lookup of each bill's refunds and dishes. On
 * SQLite the table is clustered on that key (without rowid): a day's rows are read from adjacent
 * pages. The bills already Paid got their facts here, in one statement that took minutes at a year
 * of orders; every database that runs this migration now also runs 0022, whose backfill writes the
 * facts of every Paid bill anew, so the table starts empty and is filled once, by batches.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('sales_facts')
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('bill', 'method', 'dish')`))
    .addColumn('paid_at', 'bigint', (col) => col.notNull())
    .addColumn('ticket_id', 'text', (col) => col.notNull())
    .addColumn('line', 'text', (col) => col.notNull())
    .addColumn('order_id', 'text', (col) => col.notNull())
    .addColumn('order_rows', 'integer', (col) => col.notNull())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('key', 'text')
    .addColumn('items', 'bigint', (col) => col.notNull())
    .addColumn('gross', 'bigint', (col) => col.notNull())
    .addColumn('discounts', 'bigint', (col) => col.notNull())
    .addColumn('refunds', 'bigint', (col) => col.notNull())
    .addColumn('tips', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('sales_facts_pk', ['kind', 'paid_at', 'ticket_id', 'line'])
    .$call((table) => (isPostgres ? table : table.modifyEnd(sql`without rowid`)))
    .execute();
  await db.schema.createIndex('sales_facts_order').on('sales_facts').column('order_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sales_facts').execute();
}
