import { randomUUID as newId } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { grantSeededRoles } from './grant-seeded-roles';

/**
 * Delivery apps (Uber Eats, Rappi) as channels of orders (contract-channels.md).
 *
 * - An order says which channel it came through; `(channel, channel_order_id)` is unique, so one
 *   platform order is one POS order however often it arrives.
 * - `channel_inbox` keeps what a platform told us (a webhook, a read) until a job has taken it in:
 *   the webhook is answered once the row is stored. `(channel, event_id)` is unique.
 * - `channel_calls` is the queue of what we must tell a platform (accept, deny, ready, availability,
 *   pause), retried by a job until the platform answers or the call's deadline passes.
 * - `channel_stores` holds each platform's store: its settings, its state and when it may be read.
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('orders')
    .addColumn('channel', 'text', (col) => col.notNull().defaultTo('dine_in'))
    .execute();
  for (const [column, type] of [
    ['channel_order_id', 'text'],
    ['channel_code', 'text'],
    ['customer_first_name', 'text'],
    ['pickup_at', 'bigint'],
    ['channel_state', 'text'],
    ['accept_by', 'bigint'],
    ['channel_unmapped', 'text'],
    ['channel_commission_cents', 'bigint'],
    // A ready order is followed at the platform until it is picked up: when it became ready (it is
    // followed for a while, not forever) and when the platform is next asked about it.
    ['channel_ready_at', 'bigint'],
    ['channel_check_at', 'bigint'],
  ] as const) {
    await db.schema.alterTable('orders').addColumn(column, type).execute();
  }
  await db.schema
    .createIndex('orders_channel_order')
    .on('orders')
    .columns(['channel', 'channel_order_id'])
    .unique()
    .execute();
  // The jobs look only at channel orders still moving (accepting, cooking, waiting to be told ready).
  await db.schema
    .createIndex('orders_channel_moving')
    .on('orders')
    .column('channel_state')
    .where(sql<boolean>`channel_state is not null`)
    .execute();
  // Ready orders stay `ready` when their following ends, so the orders still followed get their own index.
  await db.schema
    .createIndex('orders_channel_check')
    .on('orders')
    .column('channel_check_at')
    .where(sql<boolean>`channel_check_at is not null`)
    .execute();

  await db.schema
    .createTable('channel_inbox')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('channel', 'text', (col) => col.notNull())
    .addColumn('event_id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('order', 'cancel')`))
    .addColumn('channel_order_id', 'text', (col) => col.notNull())
    .addColumn('payload', 'text')
    .addColumn('state', 'text', (col) => col.notNull().check(sql`state in ('pending', 'done', 'failed')`))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (col) => col.notNull())
    .addColumn('claimed_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('received_at', 'bigint', (col) => col.notNull())
    .addColumn('done_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('channel_inbox_event')
    .on('channel_inbox')
    .columns(['channel', 'event_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('channel_inbox_pending')
    .on('channel_inbox')
    .column('next_attempt_at')
    .where(sql<boolean>`state = 'pending'`)
    .execute();

  await db.schema
    .createTable('channel_calls')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('channel', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('order_id', 'text', (col) => col.references('orders.id'))
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull().check(sql`state in ('pending', 'done', 'failed')`))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (col) => col.notNull())
    .addColumn('give_up_at', 'bigint', (col) => col.notNull())
    .addColumn('claimed_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('done_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('channel_calls_pending')
    .on('channel_calls')
    .column('next_attempt_at')
    .where(sql<boolean>`state = 'pending'`)
    .execute();
  await db.schema.createIndex('channel_calls_order').on('channel_calls').column('order_id').execute();

  await db.schema
    .createTable('channel_stores')
    .addColumn('channel', 'text', (col) => col.primaryKey())
    .addColumn('auto_accept', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('commission_bp', 'integer', (col) =>
      col.notNull().defaultTo(0).check(sql`commission_bp between 0 and 10000`),
    )
    .addColumn('paused_until', 'bigint')
    .addColumn('last_order_at', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'bigint')
    .addColumn('last_ok_at', 'bigint')
    .addColumn('next_read_at', 'bigint', (col) => col.notNull().defaultTo(0))
    // The menu last published (a hash), and a different one seen since and when: edits are published
    // once the menu has stopped changing for a while.
    .addColumn('menu_hash', 'text')
    .addColumn('menu_seen_hash', 'text')
    .addColumn('menu_seen_at', 'bigint')
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();

  // A dish's price on one platform, where it differs from its own (platforms' prices are often higher).
  await db.schema
    .createTable('dish_channel_prices')
    .addColumn('dish_id', 'text', (col) => col.notNull().references('dishes.id'))
    .addColumn('channel', 'text', (col) => col.notNull())
    .addColumn('price_cents', 'bigint', (col) => col.notNull().check(sql`price_cents >= 0`))
    .addPrimaryKeyConstraint('dish_channel_prices_pk', ['dish_id', 'channel'])
    .execute();

  // What each platform was last told of each dish's and option's availability.
  await db.schema
    .createTable('channel_availability')
    .addColumn('channel', 'text', (col) => col.notNull())
    .addColumn('item_id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('dish', 'option')`))
    .addColumn('is_available', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('channel_availability_pk', ['channel', 'item_id'])
    .execute();

  const now = Date.now();
  const methods = db as unknown as Kysely<{
    payment_methods: {
      id: string;
      code: string;
      name: string;
      is_active: number;
      created_at: number;
      updated_at: number;
    };
  }>;
  for (const [code, name] of [
    ['ubereats', 'Uber Eats'],
    ['rappi', 'Rappi'],
  ] as const) {
    const exists = await methods
      .selectFrom('payment_methods')
      .select('id')
      .where('code', '=', code)
      .executeTakeFirst();
    if (!exists) {
      await methods
        .insertInto('payment_methods')
        .values({ id: newId(), code, name, is_active: 1, created_at: now, updated_at: now })
        .execute();
    }
  }

  // The platforms collect the money and pay the restaurant: SAT's 31, "intermediario de pagos".
  const fiscal = db as unknown as Kysely<{ fiscal_settings: { id: number; payment_forms: string } }>;
  for (const row of await fiscal.selectFrom('fiscal_settings').select(['id', 'payment_forms']).execute()) {
    const forms = JSON.parse(row.payment_forms) as Record<string, string>;
    const next = { ubereats: '31', rappi: '31', ...forms };
    await fiscal
      .updateTable('fiscal_settings')
      .set({ payment_forms: JSON.stringify(next) })
      .where('id', '=', row.id)
      .execute();
  }

  await grantSeededRoles(db, {
    manager: ['channels.read', 'channels.write'],
    cashier: ['channels.read'],
    kitchen: ['channels.read'],
  });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('channel_availability').execute();
  await db.schema.dropTable('dish_channel_prices').execute();
  await db.schema.dropTable('channel_stores').execute();
  await db.schema.dropTable('channel_calls').execute();
  await db.schema.dropTable('channel_inbox').execute();
  await db.schema.dropIndex('orders_channel_check').execute();
  await db.schema.dropIndex('orders_channel_moving').execute();
  await db.schema.dropIndex('orders_channel_order').execute();
  for (const column of [
    'channel_check_at',
    'channel_ready_at',
    'channel_commission_cents',
    'channel_unmapped',
    'accept_by',
    'channel_state',
    'pickup_at',
    'customer_first_name',
    'channel_code',
    'channel_order_id',
    'channel',
  ]) {
    await db.schema.alterTable('orders').dropColumn(column).execute();
  }
}
