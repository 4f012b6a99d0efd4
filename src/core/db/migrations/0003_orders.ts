import { type Kysely, sql } from 'kysely';

/** Orders, their dishes, and the replies remembered for Idempotency-Key retries. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('orders')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('table_id', 'text', (col) => col.references('dining_tables.id'))
    .addColumn('waiter', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('pending', 'preparing', 'ready', 'completed', 'cancelled')`),
    )
    .addColumn('total_cents', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('is_deleted', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  // One active order per table, enforced where two tablets racing for the same table cannot both win.
  await db.schema
    .createIndex('orders_one_active_per_table')
    .on('orders')
    .column('table_id')
    .unique()
    .where(
      sql<boolean>`status in ('pending', 'preparing', 'ready') and is_deleted = 0 and table_id is not null`,
    )
    .execute();
  // Every list, filter and sales query reads live orders newest first. Each index leads with its
  // filter, then is_deleted and the ordering columns, so pages and counts never touch the table; the
  // status index also carries total_cents, so a day's sales are summed from the index alone.
  const orderIndexes: [string, string[]][] = [
    ['orders_live_created', ['is_deleted', 'created_at', 'id']],
    ['orders_status_live_created', ['status', 'is_deleted', 'created_at', 'id', 'total_cents']],
    ['orders_user_live_created', ['user_id', 'is_deleted', 'created_at', 'id']],
    ['orders_table_live_created', ['table_id', 'is_deleted', 'created_at', 'id']],
  ];
  for (const [name, columns] of orderIndexes) {
    await db.schema.createIndex(name).on('orders').columns(columns).execute();
  }

  await db.schema
    .createTable('order_dishes')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('order_id', 'text', (col) => col.notNull().references('orders.id'))
    .addColumn('dish_id', 'text', (col) => col.notNull().references('dishes.id'))
    // bigint: a price may be up to MAX_AMOUNT, which does not fit a 32-bit PostgreSQL integer in cents.
    .addColumn('price_at_order_cents', 'bigint', (col) => col.notNull().check(sql`price_at_order_cents >= 0`))
    .addColumn('notes', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('order_dishes_order_id').on('order_dishes').column('order_id').execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('scope', 'text', (col) => col.notNull())
    .addColumn('idempotency_key', 'text', (col) => col.notNull())
    .addColumn('request_hash', 'text', (col) => col.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['scope', 'idempotency_key'])
    .execute();
  // Expired keys are found by age, a few at a time, on the hot path of every keyed request.
  await db.schema
    .createIndex('idempotency_keys_created_at')
    .on('idempotency_keys')
    .column('created_at')
    .execute();
}
