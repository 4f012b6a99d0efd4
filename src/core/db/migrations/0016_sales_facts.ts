import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * The sales reports' facts (reports/sales-facts.ts): one row per share of a Paid bill, so a report
 * is one range scan over (kind, paid_at) instead of a lookup of each bill's refunds and dishes. On
 * SQLite the table is clustered on that key (without rowid): a day's rows are read from adjacent
 * pages. The bills already Paid get their facts here, from a frozen copy of the statement
 * reports/sales-facts.ts had the day this migration was written: that file may change, this
 * migration must not.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('sales_facts')
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('bill', 'method', 'dish')`))
    .addColumn('paid_at', 'bigint', (col) => col.notNull())
    .addColumn('ticket_id', 'text', (col) => col.notNull())
    .addColumn('line', 'text', (col) => col.notNull())
    .addColumn('order_id', 'text', (col) => col.notNull())
    .addColumn('order_rows', 'integer', (col) => col.notNull())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('key', 'text')
    .addColumn('items', 'bigint', (col) => col.notNull())
    .addColumn('gross', 'bigint', (col) => col.notNull())
    .addColumn('discounts', 'bigint', (col) => col.notNull())
    .addColumn('refunds', 'bigint', (col) => col.notNull())
    .addColumn('tips', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('sales_facts_pk', ['kind', 'paid_at', 'ticket_id', 'line'])
    .$call((table) => (isPostgres ? table : table.modifyEnd(sql`without rowid`)))
    .execute();
  await db.schema.createIndex('sales_facts_order').on('sales_facts').column('order_id').execute();
  await backfillSalesFacts(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sales_facts').execute();
}

/** Payment statuses whose money counts: settled, whether or not some of it was given back since. */
const COUNTED = sql`('settled', 'partially_refunded', 'refunded')`;

/**
 * The facts of the Paid bills of the orders without any (here, every order: the table is new), in one
 * statement, in key order so the backfill appends: `bill` (the
 * whole bill), `method` (one per counted payment) and `dish` (one per dish the bill is shared over;
 * a bill split by amount names none, so its money is shared over the order's dishes not voided).
 * Shares are floor(x·cum/total) − floor(x·(cum−part)/total), adding up to exactly x over a bill;
 * every operand is an integer (PostgreSQL's window sums are cast back from numeric), so `/` floors on
 * both engines.
 */
async function backfillSalesFacts(db: Kysely<unknown>): Promise<void> {
  const orderRows = sql`count(*) over (partition by order_id)`;
  await sql`with bills as (
      select t.id, t.order_id, o.user_id, t.subtotal_cents as s, t.discount_cents as d, t.tips_cents as tips, t.paid_at,
        cast(coalesce((select sum(p.refunded_cents) from payments p where p.ticket_id = t.id and p.status in ${COUNTED}), 0) as bigint) as r,
        (select count(*) from ticket_dishes td where td.ticket_id = t.id and td.is_live = 1) as n
      from tickets t join orders o on o.id = t.order_id
      where t.status = 2 and not exists (select 1 from sales_facts f where f.order_id = t.order_id)),
    method_shares as (
      select b.*, p.id as line, p.method, p.amount_cents as part, p.refunded_cents as own_refunds, p.tip_cents as own_tips,
        cast(sum(p.amount_cents) over (partition by b.id order by p.created_at, p.id rows unbounded preceding) as bigint) as cum,
        cast(sum(p.amount_cents) over (partition by b.id) as bigint) as total
      from bills b join payments p on p.ticket_id = b.id and p.status in ${COUNTED}),
    basis as (
      select b.id as bill, od.id as line, od.dish_id, od.price_at_order_cents as part, 1 as item
      from bills b join ticket_dishes td on td.ticket_id = b.id and td.is_live = 1
        join order_dishes od on od.id = td.order_dish_id
      union all
      select b.id, od.id, od.dish_id, od.price_at_order_cents, 0
      from bills b join order_dishes od on od.order_id = b.order_id and od.status <> 'voided'
      where b.n = 0),
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
