import { type Kysely, sql } from 'kysely';
import { type Backfill, scheduleBackfill } from '../backfills';

/**
 * What the dashboard (reports/dashboard.*) reads at a year of orders.
 *
 * The dashboard reads each Paid bill with its order's guests, channel and
 * creation, and whether it is the order's last Paid bill (its covers and table turn count there).
 * Read from `orders` and the order's other facts, that was a lookup of a 1M-row table per bill: 300 ms
 * for a day at a year of orders on SQLite. The facts now carry them, written with the rest of the
 * order's facts (reports/sales-facts.ts); the rows already there get them by a backfill, by batches of
 * orders, with the statement as it was the day this migration was written.
 *
 * Its comps (and the day report's) are the day's discounted bills: an index of those alone, instead of
 * reading every bill of the day to find the few with a discount (15 ms on PostgreSQL at ~9,000 a day).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sales_facts').addColumn('guests', 'integer').execute();
  await db.schema
    .alterTable('sales_facts')
    .addColumn('channel', 'text', (col) => col.notNull().defaultTo('dine_in'))
    .execute();
  await db.schema
    .alterTable('sales_facts')
    .addColumn('seated_at', 'bigint', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('sales_facts')
    .addColumn('is_last_bill', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
  await sql`create index tickets_discounted_created on tickets (created_at) where discount_cents > 0`.execute(
    db,
  );
  await scheduleBackfill(db, BACKFILL);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('tickets_discounted_created').execute();
  for (const column of ['is_last_bill', 'seated_at', 'channel', 'guests']) {
    await db.schema.alterTable('sales_facts').dropColumn(column).execute();
  }
}

export const BACKFILL = '0045_dashboard';

/**
 * The units are the orders with facts, in id order (sales_facts_order); a batch sets its orders'
 * rows. A bill is its order's last when no Paid bill of the order was paid after it (ties by id).
 */
export const backfill: Backfill = {
  async count(db) {
    const { rows } = await sql<{ orders: number }>`select count(distinct order_id) as orders
      from sales_facts`.execute(db);
    return Number(rows[0]?.orders ?? 0);
  },
  async batch(trx, cursor, size) {
    const after = cursor ?? '';
    const { rows } = await sql<{ order_id: string }>`select distinct order_id from sales_facts
      where order_id > ${after} order by order_id limit ${size}`.execute(trx);
    const last = rows.at(-1)?.order_id;
    if (last === undefined) return undefined;
    await sql`update sales_facts set
        guests = (select o.guests from orders o where o.id = sales_facts.order_id),
        channel = (select o.channel from orders o where o.id = sales_facts.order_id),
        seated_at = (select o.created_at from orders o where o.id = sales_facts.order_id),
        is_last_bill = case when exists (select 1 from sales_facts g
            where g.order_id = sales_facts.order_id and g.kind = 'bill'
              and (g.paid_at > sales_facts.paid_at
                or (g.paid_at = sales_facts.paid_at and g.ticket_id > sales_facts.ticket_id)))
          then 0 else 1 end
      where order_id > ${after} and order_id <= ${last}`.execute(trx);
    return { cursor: last, units: rows.length };
  },
};
