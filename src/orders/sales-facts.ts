import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../core/db/database';
import { prepared } from '../core/db/prepared';

/** Payment statuses whose money counts: settled, whether or not some of it was given back since. */
export const COUNTED = sql`('settled', 'partially_refunded', 'refunded')`;

/**
 * The covers of a bill fact `f`: its order's guests, counted once, on the order's last Paid bill. A
 * table paid in two bills is not two tables; one paid after midnight (or in the next shift) counts there.
 */
export const FACT_COVERS = sql<number>`case when f.is_last_bill = 1 then coalesce(f.guests, 0) else 0 end`;

/**
 * What the sales reports read, one row per share of a Paid bill: `bill` (the whole bill, for day,
 * hour and waiter), `method` (one per counted payment, keyed by its method) and `dish` (one per dish
 * the bill is shared over, keyed by the dish id). Bills split across payment methods or dishes share
 * their amounts out with floor(x·cum/total) − floor(x·(cum−part)/total), which adds up to exactly x
 * over the bill, so every grouping has the same totals to the cent. Refunds and tips are each
 * payment's own in `method` rows; in `dish` rows they are shared like the rest. `order_rows` is how
 * many rows of its kind the order has: an order with one is counted without a distinct (reports.repo).
 * Every row also carries its order's guests, channel and creation, and whether its bill is the order's
 * last Paid bill (`is_last_bill`, by paid_at then id), so the dashboard never looks orders up.
 *
 * The shares of a bill depend on its order's dishes, payments and refunds, which change after the
 * bill is paid, so every write that changes one of them recomputes the facts of the whole order in
 * its own transaction (`refreshSalesFacts`). Names (dish, category, waiter) are joined when a report
 * is read, so a rename shows in every period at once, as it did when reports read the bills.
 */
export async function refreshSalesFacts(db: Db, orderId: string): Promise<void> {
  await factsOfOrderDeleted.run(db, { orderId });
  await factsOfOrderInserted.run(db, { orderId });
}

// Every bill and payment refreshes its order's facts: both statements are built and compiled once.
const factsOfOrderDeleted = prepared((db, { orderId }: { orderId: string }) =>
  db.deleteFrom('sales_facts').where('order_id', '=', orderId),
);

const factsOfOrderInserted = prepared((db, { orderId }: { orderId: string }) => {
  const insert = insertSalesFactsSql(sql`t.order_id = ${orderId}`);
  return { compile: () => insert.compile(db) };
});

/**
 * The facts of the orders none of whose Paid bills has any: every order when the migration adds the
 * table, and the orders a bulk load (the scale bench) wrote past the services.
 */
export async function backfillSalesFacts(db: Db): Promise<void> {
  await insertSalesFactsSql(
    sql`not exists (select 1 from sales_facts f where f.order_id = t.order_id)`,
  ).execute(db);
}

/**
 * The statement inserting the facts of the Paid bills of the orders that `filter` (on tickets `t`, whole orders)
 * selects, in one statement (the backfill's filter reads the table it fills), in key order so a large
 * backfill appends. A bill split by dishes is shared over its live dish links and counts them. A bill
 * split by amount (evenly or not) names no dish: it is shared over the order's pool, the dishes on no
 * live bill, so a dish is never paid twice (once on its own bill, again as part of an amount share);
 * the pool's voided dishes share only when nothing else is left in it. The pool's plates are counted
 * once, on the order's first paid amount bill (by paid_at, id), so every plate of a fully paid order
 * is counted exactly once whatever the split. Every operand of a share is an integer (PostgreSQL's
 * window sums are cast back from numeric), so `/` floors on both engines. The bills' dishes are read
 * bill by bill: SQLite takes a CROSS JOIN's left side as the outer loop, and with an inner join it
 * read every live bill dish of all time instead (27 ms a payment at 5,700 orders, growing); PostgreSQL
 * plans a CROSS JOIN with its conditions in WHERE as the inner join it is. `status + 0` keeps SQLite
 * off tickets_status_paid_at, whose order by paid_at it took to spare the last-bill window a sort,
 * reading every Paid bill of all time.
 */
function insertSalesFactsSql(filter: RawBuilder<unknown>): RawBuilder<unknown> {
  const orderRows = sql`count(*) over (partition by order_id)`;
  const orderColumns = sql`guests, channel, seated_at, is_last_bill`;
  return sql`with paid as (
      select t.id, t.order_id, o.user_id, t.subtotal_cents as s, t.discount_cents as d, t.tips_cents as tips, t.paid_at,
        cast(coalesce((select sum(p.refunded_cents) from payments p where p.ticket_id = t.id and p.status in ${COUNTED}), 0) as bigint) as r,
        (select count(*) from ticket_dishes td where td.ticket_id = t.id and td.is_live = 1) as linked,
        o.guests, o.channel, o.created_at as seated_at
      from tickets t join orders o on o.id = t.order_id
      where t.status + 0 = 2 and ${filter}),
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
          else 0 end as n,
        case when row_number() over (partition by order_id order by paid_at desc, id desc) = 1
          then 1 else 0 end as is_last_bill
      from paid),
    method_shares as (
      select b.*, p.id as line, p.method, p.amount_cents as part, p.refunded_cents as own_refunds, p.tip_cents as own_tips,
        cast(sum(p.amount_cents) over (partition by b.id order by p.created_at, p.id rows unbounded preceding) as bigint) as cum,
        cast(sum(p.amount_cents) over (partition by b.id) as bigint) as total
      from bills b join payments p on p.ticket_id = b.id and p.status in ${COUNTED}),
    basis as (
      select b.id as bill, od.id as line, od.dish_id, od.price_at_order_cents as part, 1 as item
      from bills b cross join ticket_dishes td cross join order_dishes od
      where td.ticket_id = b.id and td.is_live = 1 and od.id = td.order_dish_id
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
      (kind, paid_at, ticket_id, line, order_id, order_rows, user_id, key, items, gross, discounts, refunds, tips,
        guests, channel, seated_at, is_last_bill)
    select 'bill', paid_at, id, id, order_id, ${orderRows}, user_id, null, n, s, d, r, tips, ${orderColumns} from bills
    union all
    select 'method', paid_at, id, line, order_id, ${orderRows}, user_id, method, ${share('n')}, ${share('s')},
      ${share('d')}, own_refunds, own_tips, ${orderColumns}
    from method_shares
    union all
    select 'dish', paid_at, id, line, order_id, ${orderRows}, user_id, dish_id, item, ${share('s')}, ${share('d')},
      ${share('r')}, ${share('tips')}, ${orderColumns}
    from dish_shares
    order by 1, 2, 3, 4`;
}

/** A bill's amount `column` shared in proportion to each part; a zero total shares nothing. */
function share(column: 's' | 'd' | 'r' | 'tips' | 'n') {
  const amount = sql.ref(column);
  return sql`case when total > 0 then ${amount} * cum / total - ${amount} * (cum - part) / total else 0 end`;
}
