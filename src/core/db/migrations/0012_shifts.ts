import { type Kysely, sql } from 'kysely';

/**
 * Cash drawer shifts. One open shift per user is a partial unique index, so two tills opening at once
 * cannot both succeed. Payments and refunds a user records while their shift is open name it, so the
 * expected cash and the Z report are sums over stored rows, never figures a client sent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('shifts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('opening_cash_cents', 'bigint', (col) => col.notNull().check(sql`opening_cash_cents >= 0`))
    .addColumn('opened_at', 'bigint', (col) => col.notNull())
    .addColumn('closed_at', 'bigint')
    .addColumn('closed_by', 'text', (col) => col.references('users.id'))
    .addColumn('counted_cash_cents', 'bigint')
    .addColumn('expected_cash_cents', 'bigint')
    .addColumn('notes', 'text')
    .execute();
  await db.schema
    .createIndex('shifts_one_open_per_user')
    .on('shifts')
    .column('user_id')
    .unique()
    .where(sql.ref('closed_at'), 'is', null)
    .execute();
  await db.schema.createIndex('shifts_opened').on('shifts').columns(['opened_at', 'id']).execute();

  await db.schema
    .createTable('shift_cash_movements')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('shift_id', 'text', (col) => col.notNull().references('shifts.id'))
    .addColumn('amount_cents', 'bigint', (col) => col.notNull().check(sql`amount_cents <> 0`))
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('created_by', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('shift_cash_movements_shift')
    .on('shift_cash_movements')
    .columns(['shift_id', 'created_at'])
    .execute();

  for (const table of ['payments', 'refunds']) {
    await db.schema
      .alterTable(table)
      .addColumn('shift_id', 'text', (col) => col.references('shifts.id'))
      .execute();
    await db.schema.createIndex(`${table}_shift`).on(table).column('shift_id').execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['payments', 'refunds']) {
    await db.schema.dropIndex(`${table}_shift`).execute();
    await db.schema.alterTable(table).dropColumn('shift_id').execute();
  }
  await db.schema.dropTable('shift_cash_movements').execute();
  await db.schema.dropTable('shifts').execute();
}
