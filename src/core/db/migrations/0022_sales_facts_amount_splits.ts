import { type Kysely, type RawBuilder, sql } from 'kysely';
import { type Backfill, scheduleBackfill } from '../backfills';

/**
 * Sales by dish were wrong for bills split evenly or by amount: such a bill was shared over every
 * dish of its order, also those already paid on their own bill (a dish's gross above what it sold),
 * and counted no plate (dishes with 0 items). The facts are now shared over the dishes on no live
 * bill and their plates counted once (reports/sales-facts.ts); this recomputes the facts of every
 * order with a frozen copy of that statement as it was the day this migration was written. At a
 * year of orders that took minutes in one statement: it is a backfill, by batches of orders.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await scheduleBackfill(db, BACKFILL);
}

/** The facts written by the older statement are not worth restoring: they were wrong. */
export async function down(): Promise<void> {}

/** Payment statuses whose money counts: settled, whether or not some of it was given back since. */
const COUNTED = sql`('settled', 'partially_refunded', 'refunded')`;

export const BACKFILL = '0022_sales_facts_amount_splits';

/**
 * The units are the orders with a Paid bill, in id order; a batch replaces the facts of its orders
 * (an order's facts count its rows, so an order is never split between batches). `status + 0` and
 * `is_live + 0` keep SQLite, which has no statistics, off the indexes on them: a batch reads its
 * orders' bills through tickets_order_id and their dishes by bill, not every Paid bill or live dish
 * of all time (15 s a batch at 1M orders, where a batch by the order's keys takes about one).
 */
export const backfill: Backfill = {
  async count(db) {
    const { rows } = await sql<{ orders: number }>`select count(distinct order_id) as orders from tickets
      where status = 2`.execute(db);
    return Number(rows[0]?.orders ?? 0);
  },
  async batch(trx, cursor, size) {
    const after = cursor ?? '';
    const { rows } = await sql<{ order_id: string }>`select distinct order_id from tickets
      where order_id > ${after} and status + 0 = 2 order by order_id limit ${size}`.execute(trx);
    const last = rows.at(-1)?.order_id;
    if (last === undefined) return undefined;
    await sql`delete from sales_facts where order_id > ${after} and order_id <= ${last}`.execute(trx);
    await insertSalesFacts(trx, sql`t.order_id > ${after} and t.order_id <= ${last}`);
    return { cursor: last, units: rows.length };
  },
};

/** The facts of the Paid bills of the orders `orders` picks: see reports/sales-facts.ts for what they mean. */
async function insertSalesFacts(db: Kysely<unknown>, orders: RawBuilder<unknown>): Promise<void> {
  const orderRows = sql`count(*) over (partition by order_id)`;
  await sql`with paid as (
      select t.id, t.order_id, o.user_id, t.subtotal_cents as s, t.discount_cents as d, t.tips_cents as tips, t.paid_at,
        cast(coalesce((select sum(p.refunded_cents) from payments p where p.ticket_id = t.id and p.status in ${COUNTED}), 0) as bigint) as r,
        (select count(*) from ticket_dishes td where td.ticket_id = t.id and td.is_live = 1) as linked
      from tickets t join orders o on o.id = t.order_id
      where t.status + 0 = 2 and ${orders}),
    pool as (
      select od.id as line, od.order_id, od.dish_id, od.price_at_order_cents as part,
        case when od.status = 'voided' then 0 else 1 end as plate
      from order_dishes od
      where od.order_id in (select order_id from paid)
        and not exists (select 1 from ticket_dishes td where td.order_dish_id = od.id and td.is_live = 1)),
    pool_basis as (
      select pool.*, max(plate) over (partition by order_id) as has_plates from pool),
    bills as (
      select paid.*, case
          when linked > 0 then linked
          when row_number() over (partition by order_id, linked > 0 order by paid_at, id) = 1
            then (select count(*) from pool where pool.order_id = paid.order_id and pool.plate = 1)
          else 0 end as n
      from paid),
    method_shares as (
      select b.*, p.id as line, p.method, p.amount_cents as part, p.refunded_cents as own_refunds, p.tip_cents as own_tips,
        cast(sum(p.amount_cents) over (partition by b.id order by p.created_at, p.id rows unbounded preceding) as bigint) as cum,
        cast(sum(p.amount_cents) over (partition by b.id) as bigint) as total
      from bills b join payments p on p.ticket_id = b.id and p.status in ${COUNTED}),
    basis as (
      select b.id as bill, od.id as line, od.dish_id, od.price_at_order_cents as part, 1 as item
      from bills b join ticket_dishes td on td.ticket_id = b.id and td.is_live + 0 = 1
        join order_dishes od on od.id = td.order_dish_id
      union all
      select b.id, pb.line, pb.dish_id, pb.part, case when b.n > 0 then pb.plate else 0 end
      from bills b join pool_basis pb on pb.order_id = b.order_id
      where b.linked = 0 and (pb.plate = 1 or pb.has_plates = 0)),
    dish_shares as (
      select b.*, basis.line, basis.dish_id, basis.item, basis.part,
        cast(sum(basis.part) over (partition by basis.bill order by basis.line rows unbounded preceding) as bigint) as cum,
        cast(sum(basis.part) over (partition by basis.bill) as bigint) as total
      from basis join bills b on b.id = basis.bill)
    insert into sales_facts
      (kind, paid_at, ticket_id, line, order_id, order_rows, user_id, key, items, gross, discounts, refunds, tips)
    select 'bill', paid_at, id, id, order_id, ${orderRows}, user_id, null, n, s, d, r, tips from bills
    union all
    select 'method', paid_at, id, line, order_id, ${orderRows}, user_id, method, ${share('n')}, ${share('s')},
      ${share('d')}, own_refunds, own_tips
    from method_shares
    union all
    select 'dish', paid_at, id, line, order_id, ${orderRows}, user_id, dish_id, item, ${share('s')}, ${share('d')},
      ${share('r')}, ${share('tips')}
    from dish_shares
    order by 1, 2, 3, 4`.execute(db);
}

/** A bill's amount `column` shared in proportion to each part; a zero total shares nothing. */
function share(column: 's' | 'd' | 'r' | 'tips' | 'n') {
  const amount = sql.ref(column);
  return sql`case when total > 0 then ${amount} * cum / total - ${amount} * (cum - part) / total else 0 end`;
}
