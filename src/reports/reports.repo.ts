import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../core/db/database';
import { TICKET_STATUS } from '../core/db/ticket-status';
import type { OffsetPiece } from '../core/time';
import { FACT_COVERS } from '../orders/orders.api';
import { liquidityFeeColumns } from '../shifts/shifts.api';

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

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * The restaurant's wall-clock time of `paid_at`, in Unix ms as if local time were UTC: the instant
 * plus the zone's offset of its piece. Works the same on both engines (SQLite has no zones).
 */
export function localMs(pieces: OffsetPiece[]): RawBuilder<number> {
  const last = pieces.at(-1) as OffsetPiece;
  const branches = pieces
    .slice(0, -1)
    .map((piece) => sql`when f.paid_at < ${sql.lit(piece.until)} then ${sql.lit(piece.offsetMs)}`);
  if (branches.length === 0) return sql<number>`(f.paid_at + ${sql.lit(last.offsetMs)})`;
  return sql<number>`(f.paid_at + case ${sql.join(branches, sql` `)} else ${sql.lit(last.offsetMs)} end)`;
}

/**
 * Sales of the bills paid in [from, to), summed from their facts (sales-facts.ts): day, hour and
 * waiter read each bill's own row, payment method and dish or category its shares, already split to
 * the cent when they were written. `orders` counts each order once per group.
 */
export async function salesRows(
  db: Db,
  range: { from: number; to: number; pieces: OffsetPiece[] },
  groupBy: SalesGrouping,
): Promise<SalesRowCents[]> {
  const kind =
    groupBy === 'payment_method' ? 'method' : groupBy === 'dish' || groupBy === 'category' ? 'dish' : 'bill';
  const { rows } = await sql<Row>`select ${keyOf(groupBy, range.pieces)} as key, ${ORDERS} as orders,
      sum(f.items) as items, sum(f.gross) as gross, sum(f.discounts) as discounts, sum(f.refunds) as refunds,
      sum(f.tips) as tips
    from sales_facts f ${joinsOf(groupBy)}
    where f.kind = ${kind} and f.paid_at >= ${range.from} and f.paid_at < ${range.to}
    group by 1 order by 1`.execute(db);
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

/**
 * Orders with a row in the group. An order with one row of its kind is in one group only, so it is
 * counted as is; the distinct, the costly part, is left to the orders with several rows.
 */
export const ORDERS = sql`sum(case when f.order_rows = 1 then 1 else 0 end)
  + count(distinct case when f.order_rows > 1 then f.order_id end)`;

function keyOf(groupBy: SalesGrouping, pieces: OffsetPiece[]) {
  if (groupBy === 'day' || groupBy === 'hour')
    return sql`${localMs(pieces)} / ${sql.lit(groupBy === 'day' ? DAY_MS : HOUR_MS)}`;
  if (groupBy === 'waiter') return sql`u.name`;
  if (groupBy === 'dish') return sql`dishes.name`;
  if (groupBy === 'category') return sql`categories.name`;
  return sql`f.key`;
}

function joinsOf(groupBy: SalesGrouping) {
  if (groupBy === 'waiter') return sql`join users u on u.id = f.user_id`;
  if (groupBy === 'dish' || groupBy === 'category')
    return sql`join dishes on dishes.id = f.key join categories on categories.id = dishes.category_id`;
  return sql``;
}

/** Completed or cancelled live orders that were not paid in full (discounts count as paid), newest first. */
export function unpaidOrders(db: Db, limit: number) {
  return db
    .selectFrom('orders')
    .select([
      'id',
      'status',
      'waiter',
      'total_cents',
      'discount_cents',
      'paid_cents',
      'refunded_after_sale_cents',
      'created_at',
    ])
    .where('is_deleted', '=', sql.lit(0))
    .where('status', 'in', ['completed', 'cancelled'])
    .where(sql<boolean>`paid_cents + discount_cents + refunded_after_sale_cents < total_cents`)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Bills that took more than they owe (a cash payment and a Lightning invoice both paid); a cancelled
 * bill owes nothing, so any money that reached it (an invoice paid after it expired) is listed.
 */
export function overpaidBills(db: Db, limit: number) {
  return db
    .selectFrom('tickets')
    .select(['id', 'order_id', 'status', 'total_cents', 'paid_cents', 'paid_at'])
    .where(
      sql<boolean>`paid_cents > case when status = ${TICKET_STATUS.canceled} then 0 else total_cents end`,
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

const COUNTED_PAYMENTS = ['settled', 'partially_refunded', 'refunded'] as const;

/** The day's sales as /reports/sales sums them: the bill facts of the bills paid in [from, to). */
export async function dayBillTotals(db: Db, range: { from: number; to: number }) {
  const { rows } = await sql<Record<string, unknown>>`select count(*) as bills,
      count(distinct f.order_id) as orders, coalesce(sum(f.items), 0) as items,
      coalesce(sum(f.gross), 0) as gross, coalesce(sum(f.discounts), 0) as discounts,
      coalesce(sum(f.refunds), 0) as refunds, coalesce(sum(f.tips), 0) as tips,
      coalesce(sum(${FACT_COVERS}), 0) as covers
    from sales_facts f
    where f.kind = 'bill' and f.paid_at >= ${range.from} and f.paid_at < ${range.to}`.execute(db);
  const row = rows[0] ?? {};
  return {
    bills: Number(row.bills ?? 0),
    orders: Number(row.orders ?? 0),
    items: Number(row.items ?? 0),
    grossCents: Number(row.gross ?? 0),
    discountsCents: Number(row.discounts ?? 0),
    refundsCents: Number(row.refunds ?? 0),
    tipsCents: Number(row.tips ?? 0),
    covers: Number(row.covers ?? 0),
  };
}

/**
 * The day's sales by channel, as dayBillTotals counts them (bills paid that day, net of discounts and
 * refunds), with each delivery order's commission: the platform's own figure where its API gave one,
 * else the channel's `commission_bp` of the order's net. A platform's cancellation refunds and cancels
 * the bill, so its order leaves these figures as it leaves the sales.
 */
export async function dayChannelTotals(db: Db, range: { from: number; to: number }) {
  const { rows } = await sql<Record<string, unknown>>`select o.channel as channel, o.id as order_id,
      o.channel_commission_cents as own_commission, coalesce(s.commission_bp, 0) as commission_bp,
      sum(f.gross - f.discounts - f.refunds) as net
    from sales_facts f
    join orders o on o.id = f.order_id
    left join channel_stores s on s.channel = o.channel
    where f.kind = 'bill' and f.paid_at >= ${range.from} and f.paid_at < ${range.to}
    group by o.channel, o.id, o.channel_commission_cents, s.commission_bp`.execute(db);
  const totals = new Map<string, { orders: number; salesCents: number; commissionCents: number }>();
  for (const row of rows) {
    const channel = String(row.channel);
    const net = Number(row.net ?? 0);
    const commission =
      channel === 'dine_in'
        ? 0
        : row.own_commission === null
          ? Math.round((net * Number(row.commission_bp)) / 10_000)
          : Number(row.own_commission);
    const total = totals.get(channel) ?? { orders: 0, salesCents: 0, commissionCents: 0 };
    total.orders += 1;
    total.salesCents += net;
    total.commissionCents += commission;
    totals.set(channel, total);
  }
  return totals;
}

export type DayPaymentRow = {
  shift_id: string | null;
  method: string;
  payments: number;
  amount_cents: number;
  tips_cents: number;
  sats: number;
  fees_msat: number;
  fees_msat_value: number;
};

/** The counted payments settled in [from, to), whatever shift took them (none included), by shift and method. */
export function dayPayments(db: Db, range: { from: number; to: number }): Promise<DayPaymentRow[]> {
  return db
    .selectFrom('payments')
    .select((eb) => [
      'shift_id',
      'method',
      eb.fn.countAll<number>().as('payments'),
      eb.fn.sum<number>('amount_cents').as('amount_cents'),
      eb.fn.sum<number>('tip_cents').as('tips_cents'),
      eb.fn.coalesce(eb.fn.sum<number>('received_sat'), eb.lit(0)).as('sats'),
      ...liquidityFeeColumns(),
    ])
    .where('status', 'in', COUNTED_PAYMENTS)
    .where('settled_at', '>=', range.from)
    .where('settled_at', '<', range.to)
    .groupBy(['shift_id', 'method'])
    .execute();
}

/** The refunds recorded in [from, to), by the shift they were recorded in (none included). */
export function dayRefunds(
  db: Db,
  range: { from: number; to: number },
): Promise<{ shift_id: string | null; refunds: number; amount_cents: number }[]> {
  return db
    .selectFrom('refunds')
    .select((eb) => [
      'shift_id',
      eb.fn.countAll<number>().as('refunds'),
      eb.fn.sum<number>('amount_cents').as('amount_cents'),
    ])
    .where('created_at', '>=', range.from)
    .where('created_at', '<', range.to)
    .where('status', '=', 'processed')
    .groupBy('shift_id')
    .execute();
}

/** The shifts opened in [from, to) or named in `ids` (those that took money that day), oldest first. */
export function dayShifts(db: Db, range: { from: number; to: number }, ids: string[]) {
  return db
    .selectFrom('shifts')
    .innerJoin('users', 'users.id', 'shifts.user_id')
    .select([
      'shifts.id',
      'shifts.user_id',
      'users.name as user_name',
      'shifts.opened_at',
      'shifts.closed_at',
      'shifts.expected_cash_cents',
      'shifts.counted_cash_cents',
    ])
    .where((eb) =>
      eb.or([
        eb.and([eb('shifts.opened_at', '>=', range.from), eb('shifts.opened_at', '<', range.to)]),
        ...(ids.length > 0 ? [eb('shifts.id', 'in', ids)] : []),
      ]),
    )
    .orderBy('shifts.opened_at')
    .orderBy('shifts.id')
    .execute();
}
