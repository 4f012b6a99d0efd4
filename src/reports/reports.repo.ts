import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../core/db/database';
import type { OffsetPiece } from '../core/time';

export type SalesGrouping = 'day' | 'hour' | 'payment_method' | 'dish' | 'category' | 'waiter';

export type SalesRowCents = {
  key: string;
  orders: number;
  items: number;
  gross: number;
  discounts: number;
  refunds: number;
  tips: number;
};

const COUNTED = sql`('settled', 'partially_refunded', 'refunded')`;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * The restaurant's wall-clock time of `paid_at`, in Unix ms as if local time were UTC: the instant
 * plus the zone's offset of its piece. Works the same on both engines (SQLite has no zones).
 */
function localMs(pieces: OffsetPiece[]): RawBuilder<number> {
  const last = pieces.at(-1) as OffsetPiece;
  const branches = pieces
    .slice(0, -1)
    .map((piece) => sql`when b.paid_at < ${sql.lit(piece.until)} then ${sql.lit(piece.offsetMs)}`);
  if (branches.length === 0) return sql<number>`(b.paid_at + ${sql.lit(last.offsetMs)})`;
  return sql<number>`(b.paid_at + case ${sql.join(branches, sql` `)} else ${sql.lit(last.offsetMs)} end)`;
}

/**
 * Sales of the bills paid in [from, to): each Paid bill once, with its subtotal (gross), discount,
 * refunds (on its payments, whenever made) and tips. Groupings that split a bill (payment method,
 * dish, category) share its amounts out in proportion with floor(x·cum/total) − floor(x·(cum−part)/total),
 * which adds up to exactly x over the bill, so every grouping has the same totals to the cent.
 */
export async function salesRows(
  db: Db,
  range: { from: number; to: number; pieces: OffsetPiece[] },
  groupBy: SalesGrouping,
): Promise<SalesRowCents[]> {
  const bills = sql`bills as (
    select t.id, t.order_id, t.subtotal_cents as s, t.discount_cents as d, t.tips_cents as tips, t.paid_at,
      cast(coalesce((select sum(p.refunded_cents) from payments p where p.ticket_id = t.id and p.status in ${COUNTED}), 0) as bigint) as r,
      (select count(*) from ticket_dishes td where td.ticket_id = t.id and td.is_live = 1) as n
    from tickets t
    where t.status = 2 and t.paid_at >= ${range.from} and t.paid_at < ${range.to})`;
  const { rows } = await (groupBy === 'payment_method'
    ? byPaymentMethod(bills)
    : groupBy === 'dish' || groupBy === 'category'
      ? byDish(bills, groupBy)
      : byBill(bills, groupBy, range.pieces)
  ).execute(db);
  return rows.map((row) => ({
    key: String(row.key),
    orders: Number(row.orders),
    items: Number(row.items),
    gross: Number(row.gross),
    discounts: Number(row.discounts),
    refunds: Number(row.refunds),
    tips: Number(row.tips),
  }));
}

type Row = Record<keyof SalesRowCents, unknown>;

function byBill(bills: RawBuilder<unknown>, groupBy: 'day' | 'hour' | 'waiter', pieces: OffsetPiece[]) {
  const key =
    groupBy === 'waiter'
      ? sql`u.name`
      : sql`${localMs(pieces)} / ${sql.lit(groupBy === 'day' ? DAY_MS : HOUR_MS)}`;
  return sql<Row>`with ${bills}
    select ${key} as key, count(distinct b.order_id) as orders, sum(b.n) as items, sum(b.s) as gross,
      sum(b.d) as discounts, sum(b.r) as refunds, sum(b.tips) as tips
    from bills b join orders o on o.id = b.order_id join users u on u.id = o.user_id
    group by 1 order by 1`;
}

/** Refunds and tips are each payment's own; the bill's gross, discount and items are shared out. */
function byPaymentMethod(bills: RawBuilder<unknown>) {
  return sql<Row>`with ${bills},
    shares as (
      select b.*, p.method, p.amount_cents as part, p.refunded_cents as own_refunds, p.tip_cents as own_tips,
        cast(sum(p.amount_cents) over (partition by b.id order by p.created_at, p.id rows unbounded preceding) as bigint) as cum,
        cast(sum(p.amount_cents) over (partition by b.id) as bigint) as total
      from bills b join payments p on p.ticket_id = b.id and p.status in ${COUNTED})
    select method as key, count(distinct order_id) as orders, ${share('n')} as items, ${share('s')} as gross,
      ${share('d')} as discounts, sum(own_refunds) as refunds, sum(own_tips) as tips
    from shares group by method order by method`;
}

/**
 * A bill's dishes are its live dish links; a bill split by amount names none, so its money is shared
 * over the order's dishes that are not voided (and it adds no items).
 */
function byDish(bills: RawBuilder<unknown>, groupBy: 'dish' | 'category') {
  const key = groupBy === 'dish' ? sql`dishes.name` : sql`categories.name`;
  return sql<Row>`with ${bills},
    basis as (
      select b.id as bill, od.id as line, od.dish_id, od.price_at_order_cents as part, 1 as item
      from bills b join ticket_dishes td on td.ticket_id = b.id and td.is_live = 1
        join order_dishes od on od.id = td.order_dish_id
      union all
      select b.id, od.id, od.dish_id, od.price_at_order_cents, 0
      from bills b join order_dishes od on od.order_id = b.order_id and od.status <> 'voided'
      where b.n = 0),
    shares as (
      select b.*, basis.dish_id, basis.item, basis.part,
        cast(sum(basis.part) over (partition by basis.bill order by basis.line rows unbounded preceding) as bigint) as cum,
        cast(sum(basis.part) over (partition by basis.bill) as bigint) as total
      from basis join bills b on b.id = basis.bill)
    select ${key} as key, count(distinct shares.order_id) as orders, sum(shares.item) as items,
      ${share('s')} as gross, ${share('d')} as discounts, ${share('r')} as refunds, ${share('tips')} as tips
    from shares join dishes on dishes.id = shares.dish_id join categories on categories.id = dishes.category_id
    group by ${key} order by ${key}`;
}

/**
 * A bill's amount `column` shared in proportion to each part (see salesRows); a zero total shares
 * nothing. Every operand is an integer (PostgreSQL's sums are cast back from numeric), so `/` floors.
 */
function share(column: 's' | 'd' | 'r' | 'tips' | 'n') {
  const amount = sql.ref(column);
  return sql`coalesce(sum(case when total > 0 then ${amount} * cum / total - ${amount} * (cum - part) / total else 0 end), 0)`;
}

/** Completed or cancelled live orders that were not paid in full, newest first. */
export function unpaidOrders(db: Db, limit: number) {
  return db
    .selectFrom('orders')
    .select(['id', 'status', 'waiter', 'total_cents', 'paid_cents', 'created_at'])
    .where('is_deleted', '=', 0)
    .where('status', 'in', ['completed', 'cancelled'])
    .whereRef('paid_cents', '<', 'total_cents')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Bills that took more than their total (a cash payment and a Lightning invoice both paid). */
export function overpaidBills(db: Db, limit: number) {
  return db
    .selectFrom('tickets')
    .select(['id', 'order_id', 'status', 'total_cents', 'paid_cents', 'paid_at'])
    .whereRef('paid_cents', '>', 'total_cents')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
