import { type Kysely, sql } from 'kysely';

/**
 * Identifiers are UUID v4 (the spec), so the order in which plates and stock movements were entered
 * can no longer come from their ids, which were UUID v7 (issue 35): each row gets an `ordinal`, one
 * more than the largest so far, given in the writing transaction. Existing rows keep their ids and
 * are numbered in the order the lists showed them: plates by (created_at, id), movements by
 * (at, seq, id). Nullable only because SQLite cannot add a NOT NULL column without a default; every
 * row written since has one.
 */
const TABLES = [
  { table: 'order_dishes', order: sql`created_at, id` },
  { table: 'stock_movements', order: sql`at, seq, id` },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const { table, order } of TABLES) {
    await db.schema.alterTable(table).addColumn('ordinal', 'bigint').execute();
    // Numbered through a keyed scratch table: one pass, where a correlated window query is quadratic.
    await sql`create table ordinal_backfill as
      select id, row_number() over (order by ${order}) as n from ${sql.table(table)}`.execute(db);
    await db.schema.createIndex('ordinal_backfill_id').unique().on('ordinal_backfill').column('id').execute();
    await sql`update ${sql.table(table)} set ordinal = (
      select b.n from ordinal_backfill b where b.id = ${sql.table(table)}.id)`.execute(db);
    await db.schema.dropTable('ordinal_backfill').execute();
    await db.schema.createIndex(`${table}_ordinal`).on(table).column('ordinal').execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { table } of TABLES) {
    await db.schema.dropIndex(`${table}_ordinal`).execute();
    await db.schema.alterTable(table).dropColumn('ordinal').execute();
  }
}
