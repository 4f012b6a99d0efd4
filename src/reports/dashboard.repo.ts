import { sql } from 'kysely';
import { type Db, isPostgres } from '../core/db/database';
import { TICKET_STATUS } from '../core/db/ticket-status';
import { outOfStock } from '../inventory/inventory.api';
import { FACT_COVERS } from '../orders/orders.api';

type Range = { from: number; to: number };

const HOUR_MS = 3_600_000;

/**
 * Net sales and covers of the bills paid in each hour slot (an instant and the hour after it), in slot
 * order. A day at a year of orders is ~9,000 bills: PostgreSQL groups them by hash, while SQLite sorts
 * the rows of a GROUP BY (5 ms) and reads a range of the facts' key per slot in 2. Covers count at
 * the order's last bill (an order paid over two days counts on the second).
 */
export async function slotTotals(db: Db, slotStarts: number[]) {
  const totals = sql`sum(f.gross - f.discounts - f.refunds) as sales, sum(${FACT_COVERS}) as covers`;
  const from = slotStarts[0] ?? 0;
  const to = (slotStarts.at(-1) ?? 0) + HOUR_MS;
  const query = isPostgres(db)
    ? sql`select (f.paid_at - ${sql.lit(from)}) / ${sql.lit(HOUR_MS)} as slot, ${totals}
      from sales_facts f
      where f.kind = 'bill' and f.paid_at >= ${from} and f.paid_at < ${to}
      group by 1`
    : sql.join(
        slotStarts.map(
          (start, slot) => sql`select ${sql.lit(slot)} as slot, ${totals}
            from sales_facts f
            where f.kind = 'bill' and f.paid_at >= ${sql.lit(start)} and f.paid_at < ${sql.lit(start + HOUR_MS)}`,
        ),
        sql` union all `,
      );
  const { rows } = await sql<Record<string, unknown>>`${query}`.execute(db);
  const bySlot = new Map(rows.map((row) => [Number(row.slot), row]));
  return slotStarts.map((_, slot) => ({
    slot,
    salesCents: Number(bySlot.get(slot)?.sales ?? 0),
    covers: Number(bySlot.get(slot)?.covers ?? 0),
  }));
}

/**
 * The bills paid in [from, to) by their order's waiter and channel, summed by the database: how many,
 * the orders they finish (counted at their last bill, as covers are), net sales and tips.
 */
export async function billTotals(db: Db, range: Range) {
  const { rows } = await sql<Record<string, unknown>>`select t.user_id, u.name, t.channel, t.bills, t.orders,
      t.sales, t.tips
    from (select f.user_id, f.channel, count(*) as bills, sum(f.is_last_bill) as orders,
        sum(f.gross - f.discounts - f.refunds) as sales, sum(f.tips) as tips
      from sales_facts f
      where f.kind = 'bill' and f.paid_at >= ${range.from} and f.paid_at < ${range.to}
      group by f.user_id, f.channel) t
    join users u on u.id = t.user_id`.execute(db);
  return rows.map((row) => ({
    userId: String(row.user_id),
    waiter: String(row.name),
    channel: String(row.channel),
    bills: Number(row.bills),
    orders: Number(row.orders),
    salesCents: Number(row.sales),
    tipsCents: Number(row.tips),
  }));
}

/** How long each dine-in order whose last bill was paid in [from, to) took, seated to paid, in ms. */
export async function tableTurns(db: Db, range: Range): Promise<number[]> {
  const { rows } = await sql<{ turn: unknown }>`select f.paid_at - f.seated_at as turn
    from sales_facts f
    where f.kind = 'bill' and f.paid_at >= ${range.from} and f.paid_at < ${range.to}
      and f.is_last_bill = 1 and f.channel = 'dine_in'`.execute(db);
  return rows.map((row) => Number(row.turn));
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

/**
 * The plates of the day's Paid bills and their net shares, by dish (sales-facts.ts `dish` rows),
 * grouped before the names are joined: a join per fact took twice as long at a year of orders.
 */
export async function dishSales(db: Db, range: Range) {
  const { rows } = await sql<Record<string, unknown>>`select s.dish_id, d.name, s.quantity, s.amount
    from (select f.key as dish_id, sum(f.items) as quantity, sum(f.gross - f.discounts - f.refunds) as amount
      from sales_facts f
      where f.kind = 'dish' and f.paid_at >= ${range.from} and f.paid_at < ${range.to}
      group by f.key) s
    join dishes d on d.id = s.dish_id`.execute(db);
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

/** Names of these dishes, and whether each is off the menu now: by hand, or out of stock. */
export function dishesByIds(db: Db, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('dishes')
    .select(['id', 'name', 'is_available', outOfStock('dish_id', 'dishes.id').as('out_of_stock')])
    .where('id', 'in', ids)
    .execute();
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
    // A literal: SQLite sees that it is tickets_discounted_created's condition, a parameter it cannot.
    .where('discount_cents', '>', sql.lit(0))
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
