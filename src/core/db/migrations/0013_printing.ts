import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Network printers and their print jobs. A job holds the exact bytes to send, so printing later never
 * depends on what the bill or the order looks like by then; jobs are claimed in the database
 * (`claimed_until`) so several instances never send the same job together.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable('printers')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('host', 'text', (col) => col.notNull())
    .addColumn('port', 'integer', (col) => col.notNull().check(sql`port between 1 and 65535`))
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('receipt', 'kitchen')`))
    .addColumn('station', 'text')
    .addColumn('width', 'integer', (col) => col.notNull().check(sql`width in (32, 42, 48)`))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('printers_name').on('printers').column('name').unique().execute();

  await db.schema
    .createTable('print_jobs')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('printer_id', 'text', (col) => col.notNull().references('printers.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('receipt', 'kitchen_chit')`))
    .addColumn('ticket_id', 'text')
    .addColumn('order_id', 'text')
    .addColumn('bytes', isPostgres ? 'bytea' : 'blob', (col) => col.notNull())
    .addColumn('state', 'text', (col) =>
      col.notNull().check(sql`state in ('pending', 'sending', 'printed', 'failed')`),
    )
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (col) => col.notNull())
    .addColumn('claimed_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('printed_at', 'bigint')
    .execute();
  // Each printer's queue in order, and the job lists newest first.
  await db.schema
    .createIndex('print_jobs_printer_created')
    .on('print_jobs')
    .columns(['printer_id', 'created_at', 'id'])
    .execute();
  // Pruning finds old jobs by age.
  await db.schema.createIndex('print_jobs_created').on('print_jobs').column('created_at').execute();
  // The sender looks only at unfinished jobs.
  await db.schema
    .createIndex('print_jobs_unfinished')
    .on('print_jobs')
    .columns(['printer_id', 'created_at'])
    .where(sql.ref('state'), 'in', ['pending', 'sending'])
    .execute();
}
