import { sql } from 'kysely';
import type { Db } from '../core/db/database';
import { TICKET_STATUS } from '../core/db/ticket-status';
import type { OffsetPiece } from '../core/time';
import { localMs } from './reports.repo';

type Range = { from: number; to: number };

/** Whether a later Paid bill of the bill fact `f`'s order exists: then its covers count there. */
const HAS_LATER_BILL = sql`exists (select 1 from sales_facts g where g.order_id = f.order_id and g.kind = 'bill'
  and (g.paid_at > f.paid_at or (g.paid_at = f.paid_at and g.ticket_id > f.ticket_id)))`;

export type PaidBillRow = {
  order_id: string;
  paid_at: number;
  net: number;
  tips: number;
  user_id: string;
  waiter: string;
  guests: number | null;
  channel: string;
  order_created_at: number;
  /** Whether no bill of the order was paid after this one: its covers and table turn count here. */
  is_last: boolean;
};

/**
 * The Paid bills of [from, to) from their facts, one row each, with their order's guests, channel and
 * creation. An order whose last bill is paid on a later day counts its covers on that day, hence the
 * look at the order's other bills (by the facts' order index).
 */
export async function paidBills(db: Db, range: Range): Promise<PaidBillRow[]> {
  const { rows } = await sql<Record<string, unknown>>`select f.order_id, f.paid_at,
      f.gross - f.discounts - f.refunds as net, f.tips, f.user_id, u.name as waiter, o.guests, o.channel,
      o.created_at as order_created_at,
      case when ${HAS_LATER_BILL} then 0 else 1 end as is_last
    from sales_facts f
    join orders o on o.id = f.order_id
    join users u on u.id = f.user_id
    where f.kind = 'bill' and f.paid_at >= ${range.from} and f.paid_at < ${range.to}`.execute(db);
  return rows.map((row) => ({
    order_id: String(row.order_id),
    paid_at: Number(row.paid_at),
    net: Number(row.net),
    tips: Number(row.tips),
    user_id: String(row.user_id),
    waiter: String(row.waiter),
    guests: row.guests === null ? null : Number(row.guests),
    channel: String(row.channel),
    order_created_at: Number(row.order_created_at),
    is_last: Number(row.is_last) === 1,
  }));
}

/**
 * Net sales and covers per local hour (numbered since 1970, local time) of the bills paid in [from,
 * to), summed by the database: the usual of the dashboard reads four days, whose thousands of bills
 * need not travel. One range per query: PostgreSQL scanned the whole table for an `or` of four.
 */
export async function hourlyTotals(db: Db, range: Range, pieces: OffsetPiece[]) {
  const { rows } = await sql<Record<string, unknown>>`select ${localMs(pieces)} / 3600000 as hour,
      sum(f.gross - f.discounts - f.refunds) as sales,
      sum(case when ${HAS_LATER_BILL} then 0 else coalesce(o.guests, 0) end) as covers
    from sales_facts f
    join orders o on o.id = f.order_id
    where f.kind = 'bill' and f.paid_at >= ${range.from} and f.paid_at < ${range.to}
    group by 1`.execute(db);
  return rows.map((row) => ({
    hour: Number(row.hour),
    salesCents: Number(row.sales),
    covers: Number(row.covers),
  }));
}

/** The day's counted payments' shares of the Paid bills (sales-facts.ts `method` rows), by method. */
export async function tenders(db: Db, range: Range) {
  const { rows } = await sql<Record<string, unknown>>`select f.key as method,
      sum(f.gross - f.discounts - f.refunds) as sales, sum(f.tips) as tips
    from sales_facts f
    where f.kind = 'method' and f.paid_at >= ${range.from} and f.paid_at < ${range.to}
    group by f.key`.execute(db);
  return rows.map((row) => ({
    method: String(row.method),
    sales: Number(row.sales),
    tips: Number(row.tips),
  }));
}

/** The plates of the day's Paid bills and their net shares, by dish (sales-facts.ts `dish` rows). */
export async function dishSales(db: Db, range: Range) {
  const { rows } = await sql<Record<string, unknown>>`select f.key as dish_id, d.name,
      sum(f.items) as quantity, sum(f.gross - f.discounts - f.refunds) as amount
    from sales_facts f
    join dishes d on d.id = f.key
    where f.kind = 'dish' and f.paid_at >= ${range.from} and f.paid_at < ${range.to}
    group by f.key, d.name`.execute(db);
  return rows.map((row) => ({
    dish_id: String(row.dish_id),
    name: String(row.name),
    quantity: Number(row.quantity),
    amount: Number(row.amount),
  }));
}

/** The audit entries of [from, to) with this action, oldest first (audit_log_action_at). */
export function auditEntries(db: Db, range: Range, action: string) {
  return db
    .selectFrom('audit_log')
    .select(['target_id', 'at', 'before', 'after'])
    .where('action', '=', action)
    .where('at', '>=', range.from)
    .where('at', '<', range.to)
    .orderBy('at')
    .orderBy('seq')
    .execute();
}

/** Names and current availability of these dishes. */
export function dishesByIds(db: Db, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('dishes').select(['id', 'name', 'is_available']).where('id', 'in', ids).execute();
}

/** How long each plate sent in [from, to) on a live order took from sent to ready, in ms. */
export async function kitchenDurations(db: Db, range: Range): Promise<number[]> {
  const rows = await db
    .selectFrom('order_dishes')
    .innerJoin('orders', 'orders.id', 'order_dishes.order_id')
    .select(['order_dishes.sent_at', 'order_dishes.ready_at'])
    // Only these statuses can have been made ready: with them the range reads order_dishes_status_sent.
    .where('order_dishes.status', 'in', ['ready', 'served', 'voided'])
    .where('order_dishes.sent_at', '>=', range.from)
    .where('order_dishes.sent_at', '<', range.to)
    .where('order_dishes.ready_at', 'is not', null)
    .where('orders.is_deleted', '=', sql.lit(0))
    .execute();
  return rows.map((row) => Number(row.ready_at) - Number(row.sent_at));
}

/** Plates voided in [from, to) on live orders, at their price. */
export async function voidTotals(db: Db, range: Range) {
  const row = await db
    .selectFrom('order_dishes')
    .innerJoin('orders', 'orders.id', 'order_dishes.order_id')
    .select((eb) => [
      eb.fn.countAll<number>().as('count'),
      eb.fn.sum<number>('order_dishes.price_at_order_cents').as('amount'),
    ])
    .where('order_dishes.status', '=', 'voided')
    .where('order_dishes.voided_at', '>=', range.from)
    .where('order_dishes.voided_at', '<', range.to)
    .where('orders.is_deleted', '=', sql.lit(0))
    .executeTakeFirst();
  return { count: Number(row?.count ?? 0), cents: Number(row?.amount ?? 0) };
}

/** Live bills (pending or paid) made in [from, to) with a discount, at the amount discounted. */
export async function discountTotals(db: Db, range: Range) {
  const row = await db
    .selectFrom('tickets')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('discount_cents').as('amount')])
    .where('status', '!=', TICKET_STATUS.canceled)
    .where('created_at', '>=', range.from)
    .where('created_at', '<', range.to)
    .where('discount_cents', '>', 0)
    .executeTakeFirst();
  return { count: Number(row?.count ?? 0), cents: Number(row?.amount ?? 0) };
}

/** What is open now: orders at a table not finished, and Pending bills with what they still owe. */
export async function openNow(db: Db) {
  const [tables, bills] = await Promise.all([
    db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('status', 'in', ['pending', 'preparing', 'ready'])
      .where('table_id', 'is not', null)
      .where('is_deleted', '=', sql.lit(0))
      .executeTakeFirst(),
    db
      .selectFrom('tickets')
      .select((eb) => [
        eb.fn.countAll<number>().as('count'),
        eb.fn.sum<number>(sql`total_cents - paid_cents`).as('balance'),
      ])
      .where('status', '=', TICKET_STATUS.pending)
      .executeTakeFirst(),
  ]);
  return {
    tables: Number(tables?.count ?? 0),
    bills: Number(bills?.count ?? 0),
    balanceCents: Number(bills?.balance ?? 0),
  };
}
