import type { AppContext } from '../context';
import type { Principal } from '../core/auth-guard';
import { toCsv } from '../core/csv';
import { BadRequestError } from '../core/errors';
import { fromCents } from '../core/money';
import { dayNumberToDate, localDaysToRange, toIsoUtc, toIsoUtcOrNull, zoneOffsets } from '../core/time';
import { orderBalanceCents } from '../orders/order-views';
import { authorize } from '../roles/permissions';
import { loadSettings } from '../settings/settings.service';
import { TICKET_STATUS, type TicketStatus } from '../tickets/tickets.schemas';
import * as repo from './reports.repo';
import type { OpenBalances, SalesQuery, SalesRow } from './reports.schemas';

const MAX_DAYS = 366;
const OPEN_BALANCES_LIMIT = 1000;

export async function salesReport(
  ctx: AppContext,
  principal: Principal,
  query: SalesQuery,
): Promise<SalesRow[]> {
  authorize(principal, 'reports.read');
  if (query.from > query.to) throw new BadRequestError('from must not be after to');
  const { timeZone } = await loadSettings(ctx.db);
  const { from, to } = localDaysToRange(query.from, query.to, timeZone);
  if (to - from > (MAX_DAYS + 1) * 86_400_000) throw new BadRequestError(`At most ${MAX_DAYS} days`);
  const rows = await repo.salesRows(
    ctx.db,
    { from, to, pieces: zoneOffsets(from, to, timeZone) },
    query.group_by,
  );
  return rows.map((row) => ({
    key: keyOf(row.key, query.group_by),
    orders: row.orders,
    items: row.items,
    gross: fromCents(row.gross),
    discounts: fromCents(row.discounts),
    refunds: fromCents(row.refunds),
    net: fromCents(row.gross - row.discounts - row.refunds),
    tips: fromCents(row.tips),
  }));
}

/** Day and hour rows are numbered in local time since 1970; the others are named already. */
function keyOf(key: string, groupBy: repo.SalesGrouping): string {
  if (groupBy === 'day') return dayNumberToDate(Number(key));
  if (groupBy === 'hour')
    return `${new Date(Number(key) * 3_600_000).toISOString().slice(0, 13).replace('T', ' ')}:00`;
  return key;
}

const CSV_COLUMNS = ['key', 'orders', 'items', 'gross', 'discounts', 'refunds', 'net', 'tips'] as const;

export function salesCsv(rows: SalesRow[]): string {
  return toCsv(rows, CSV_COLUMNS);
}

export async function openBalances(ctx: AppContext, principal: Principal): Promise<OpenBalances> {
  authorize(principal, 'reports.read');
  const [orders, bills] = await Promise.all([
    repo.unpaidOrders(ctx.db, OPEN_BALANCES_LIMIT),
    repo.overpaidBills(ctx.db, OPEN_BALANCES_LIMIT),
  ]);
  return {
    orders: orders.map((order) => ({
      id: order.id,
      status: order.status as 'completed' | 'cancelled',
      waiter: order.waiter,
      total: fromCents(Number(order.total_cents)),
      discount: fromCents(Number(order.discount_cents)),
      paid: fromCents(Number(order.paid_cents)),
      balance: fromCents(orderBalanceCents(order)),
      created_at: toIsoUtc(Number(order.created_at)),
    })),
    overpaid_bills: bills.map((bill) => ({
      id: bill.id,
      order_id: bill.order_id,
      status: Number(bill.status) as TicketStatus,
      total: fromCents(Number(bill.total_cents)),
      paid: fromCents(Number(bill.paid_cents)),
      // A cancelled bill owes nothing: all it took is to be refunded.
      balance: fromCents(
        (Number(bill.status) === TICKET_STATUS.canceled ? 0 : Number(bill.total_cents)) -
          Number(bill.paid_cents),
      ),
      paid_at: toIsoUtcOrNull(bill.paid_at),
    })),
  };
}
