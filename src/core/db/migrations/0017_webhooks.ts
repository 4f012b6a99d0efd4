import { type Kysely, sql } from 'kysely';

/**
 * Outbound webhooks. `cursor` is the last outbox position a webhook's deliveries were made from: it
 * moves in the transaction that inserts them, with the webhook row locked, so each event becomes one
 * delivery per webhook whichever instance fans it out. A delivery keeps the exact body it sends (the
 * outbox is pruned after 25 h, a delivery is retried for 24 h) and is claimed for one attempt at a time
 * (`claimed_until`); every attempt is kept for the deliveries log.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('events', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('secret', 'text', (col) => col.notNull())
    .addColumn('cursor', 'bigint', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('webhook_id', 'text', (col) => col.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event_position', 'bigint', (col) => col.notNull())
    .addColumn('event_type', 'text', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) =>
      col.notNull().check(sql`state in ('pending', 'sending', 'delivered', 'failed')`),
    )
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (col) => col.notNull())
    .addColumn('claimed_until', 'bigint')
    .addColumn('retry_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  // One delivery per event and webhook, whatever happens to the cursor; also each webhook's queue in order.
  await db.schema
    .createIndex('webhook_deliveries_event')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'event_position'])
    .unique()
    .execute();
  // The sender looks only at unfinished deliveries.
  await db.schema
    .createIndex('webhook_deliveries_unfinished')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'event_position'])
    .where(sql.ref('state'), 'in', ['pending', 'sending'])
    .execute();
  // Pruning finds old deliveries by age.
  await db.schema
    .createIndex('webhook_deliveries_created')
    .on('webhook_deliveries')
    .column('created_at')
    .execute();

  await db.schema
    .createTable('webhook_delivery_attempts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('delivery_id', 'text', (col) =>
      col.notNull().references('webhook_deliveries.id').onDelete('cascade'),
    )
    .addColumn('number', 'integer', (col) => col.notNull())
    .addColumn('at', 'bigint', (col) => col.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('duration_ms', 'integer', (col) => col.notNull())
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_delivery_attempts_delivery')
    .on('webhook_delivery_attempts')
    .columns(['delivery_id', 'number'])
    .unique()
    .execute();
}
