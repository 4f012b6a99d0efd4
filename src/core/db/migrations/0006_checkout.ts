import { randomUUID as newId } from 'node:crypto';
import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Bills (tickets), the dishes each bill covers, payments, refunds, payment methods, and the events
 * outbox. The invariants of splitting a bill live here, where two cashiers racing cannot get past
 * them: a dish is on at most one live bill (a partial unique index), and the live bills of an order
 * never add up to more than its total (`orders.billed_cents`, checked against `total_cents`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;

  // Kept on the order row, updated in the same transaction as each bill and payment, so the order
  // lists show `paid` and `balance` without aggregating bills per row.
  await db.schema
    .alterTable('orders')
    .addColumn('billed_cents', 'bigint', (col) =>
      col.notNull().defaultTo(0).check(sql`billed_cents >= 0 and billed_cents <= total_cents`),
    )
    .execute();
  await db.schema
    .alterTable('orders')
    .addColumn('paid_cents', 'bigint', (col) => col.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('tickets')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('order_id', 'text', (col) => col.notNull().references('orders.id'))
    .addColumn('status', 'integer', (col) => col.notNull().check(sql`status in (1, 2, 3)`))
    .addColumn('subtotal_cents', 'bigint', (col) => col.notNull().check(sql`subtotal_cents > 0`))
    .addColumn('discount_cents', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('discount_type', 'text', (col) => col.check(sql`discount_type in ('percent', 'amount')`))
    .addColumn('discount_value', 'double precision')
    .addColumn('discount_reason', 'text')
    .addColumn('total_cents', 'bigint', (col) => col.notNull())
    .addColumn('paid_cents', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('tips_cents', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('created_by', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .addColumn('paid_at', 'bigint')
    .addColumn('canceled_at', 'bigint')
    .addCheckConstraint(
      'tickets_total_is_subtotal_less_discount',
      sql`discount_cents >= 0 and total_cents = subtotal_cents - discount_cents and total_cents >= 0`,
    )
    .execute();
  await db.schema.createIndex('tickets_order_id').on('tickets').column('order_id').execute();
  await db.schema.createIndex('tickets_created').on('tickets').columns(['created_at', 'id']).execute();
  await db.schema
    .createIndex('tickets_status_created')
    .on('tickets')
    .columns(['status', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('ticket_dishes')
    .addColumn('ticket_id', 'text', (col) => col.notNull().references('tickets.id'))
    // A dish removed from its order takes its links to cancelled bills along; a live link refuses
    // the removal in the service first.
    .addColumn('order_dish_id', 'text', (col) =>
      col.notNull().references('order_dishes.id').onDelete('cascade'),
    )
    .addColumn('is_live', 'integer', (col) => col.notNull().defaultTo(1))
    .addPrimaryKeyConstraint('ticket_dishes_pk', ['ticket_id', 'order_dish_id'])
    .execute();
  await db.schema
    .createIndex('ticket_dishes_one_live_bill_per_dish')
    .on('ticket_dishes')
    .column('order_dish_id')
    .unique()
    .where(sql.ref('is_live'), '=', 1)
    .execute();

  await db.schema
    .createTable('payment_methods')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('code', 'text', (col) => col.notNull().unique())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('is_active', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  const now = Date.now();
  await db
    .insertInto('payment_methods' as never)
    .values(
      [
        ['cash', 'Cash'],
        ['card', 'Card'],
        ['lightning', 'Lightning'],
      ].map(([code, name]) => ({
        id: newId(),
        code,
        name,
        is_active: 1,
        created_at: now,
        updated_at: now,
      })) as never,
    )
    .execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('ticket_id', 'text', (col) => col.notNull().references('tickets.id'))
    .addColumn('method', 'text', (col) => col.notNull().references('payment_methods.code'))
    .addColumn('amount_cents', 'bigint', (col) => col.notNull().check(sql`amount_cents > 0`))
    .addColumn('tip_cents', 'bigint', (col) => col.notNull().defaultTo(0).check(sql`tip_cents >= 0`))
    .addColumn('tendered_cents', 'bigint')
    .addColumn('change_cents', 'bigint')
    .addColumn('refunded_cents', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('pending', 'settled', 'expired', 'refunded', 'partially_refunded')`),
    )
    .addColumn('created_by', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('settled_at', 'bigint')
    // Lightning: what was asked in satoshis at which price of 1 BTC, and what the node received.
    .addColumn('amount_sat', 'bigint')
    .addColumn('rate', 'double precision')
    .addColumn('payment_hash', 'text', (col) => col.unique())
    .addColumn('invoice', 'text')
    .addColumn('expires_at', 'bigint')
    .addColumn('received_sat', 'bigint')
    .addCheckConstraint(
      'payments_refunds_within_amount',
      sql`refunded_cents >= 0 and refunded_cents <= amount_cents`,
    )
    .execute();
  await db.schema.createIndex('payments_ticket_id').on('payments').column('ticket_id').execute();
  // The Lightning sweep reads pending payments only.
  await db.schema
    .createIndex('payments_pending')
    .on('payments')
    .column('expires_at')
    .where(sql.ref('status'), '=', 'pending')
    .execute();

  await db.schema
    .createTable('refunds')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('payment_id', 'text', (col) => col.notNull().references('payments.id'))
    .addColumn('amount_cents', 'bigint', (col) => col.notNull().check(sql`amount_cents > 0`))
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('created_by', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('amount_sat', 'bigint')
    .addColumn('invoice', 'text')
    .addColumn('payment_hash', 'text')
    .addColumn('node_payment_id', 'text')
    .addColumn('fees_sat', 'bigint')
    .execute();
  await db.schema.createIndex('refunds_payment_id').on('refunds').column('payment_id').execute();

  // Positions of the live stream: an integer that only grows, in commit order on SQLite.
  await db.schema
    .createTable('events')
    .addColumn('id', isPostgres ? 'bigserial' : 'integer', (col) =>
      isPostgres ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('topic', 'text', (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('events_created_at').on('events').column('created_at').execute();
}
