import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { toCsv } from '../core/csv';
import { TICKET_STATUS, type TicketStatus } from '../core/db/ticket-status';
import { BadRequestError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import { fromCents, taxShareCents } from '../core/money';
import {
  dayNumberToDate,
  isCalendarDate,
  localDaysToRange,
  toIsoUtc,
  toIsoUtcOrNull,
  zoneOffsets,
} from '../core/time';
import { fiscalDay } from '../fiscal/fiscal.api';
import { orderBalanceCents } from '../orders/orders.api';
import { authorize } from '../permissions/permissions.api';
import { enqueueOnReceiptPrinter, reportPaperSetup } from '../printing/printing.api';
import { loadSettings } from '../settings/settings.api';
import { lightningFigures } from '../shifts/shifts.api';
import * as adjustments from './adjustments.repo';
import { dayReportLines } from './day-report-paper';
import * as repo from './reports.repo';
import type { DayReport, OpenBalances, SalesQuery, SalesRow } from './reports.schemas';

const MAX_DAYS = 366;
const OPEN_BALANCES_LIMIT = 1000;

export async function salesReport(
  ctx: AppContext,
  principal: Principal,
  query: SalesQuery,
): Promise<SalesRow[]> {
  authorize(principal, 'reports.read');
  const { from, to, timeZone } = await reportPeriod(ctx, query);
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

/**
 * The instants [from, to) of a report's local days, both included, in the zone of the settings; at
 * most a year and a day, so one request cannot make the database sum the whole history.
 */
export async function reportPeriod(
  ctx: AppContext,
  days: { from: string; to: string },
): Promise<{ from: number; to: number; timeZone: string }> {
  if (days.from > days.to) throw new BadRequestError('from must not be after to');
  const { timeZone } = await loadSettings(ctx.db);
  const { from, to } = localDaysToRange(days.from, days.to, timeZone);
  if (to - from > (MAX_DAYS + 1) * 86_400_000) throw new BadRequestError(`At most ${MAX_DAYS} days`);
  return { from, to, timeZone };
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

/**
 * The X/Z of the whole restaurant for one local day: the sales figures of /reports/sales for the day
 * (so both nets agree), and the money that moved that day, per shift and outside any shift (a card
 * taken before the till opened, an administrator's refund), so no payment or refund is missing.
 */
export async function dayReport(ctx: AppContext, principal: Principal, date: string): Promise<DayReport> {
  authorize(principal, 'reports.read');
  if (!isCalendarDate(date)) throw new BadRequestError('date must be a calendar day (YYYY-MM-DD)');
  const settings = await loadSettings(ctx.db);
  const range = localDaysToRange(date, date, settings.timeZone);
  const [sales, payments, refunds, voids, comps, otherDiscounts, channels] = await Promise.all([
    repo.dayBillTotals(ctx.db, range),
    repo.dayPayments(ctx.db, range),
    repo.dayRefunds(ctx.db, range),
    adjustments.dayVoids(ctx.db, range),
    adjustments.dayDiscounts(ctx.db, range, 'comps'),
    adjustments.dayDiscounts(ctx.db, range, 'others'),
    repo.dayChannelTotals(ctx.db, range),
  ]);
  const shiftIds = [...new Set([...payments, ...refunds].map((row) => row.shift_id))];
  const shifts = await repo.dayShifts(
    ctx.db,
    range,
    shiftIds.filter((id): id is string => id !== null),
  );
  const netCents = sales.grossCents - sales.discountsCents - sales.refundsCents;
  const methods = new Map<string, { payments: number; amount: number; tips: number }>();
  for (const row of payments) {
    const total = methods.get(row.method) ?? { payments: 0, amount: 0, tips: 0 };
    total.payments += Number(row.payments);
    total.amount += Number(row.amount_cents);
    total.tips += Number(row.tips_cents);
    methods.set(row.method, total);
  }
  const lineOf = (shiftId: string | null) => {
    const taken = payments.filter((row) => row.shift_id === shiftId);
    const given = refunds.filter((row) => row.shift_id === shiftId);
    return {
      payments: taken.reduce((sum, row) => sum + Number(row.payments), 0),
      payments_total: fromCents(taken.reduce((sum, row) => sum + Number(row.amount_cents), 0)),
      tips: fromCents(taken.reduce((sum, row) => sum + Number(row.tips_cents), 0)),
      refunds: fromCents(given.reduce((sum, row) => sum + Number(row.amount_cents), 0)),
    };
  };
  const lines: DayReport['shifts'] = shifts.map((shift) => {
    const isClosed = shift.closed_at !== null;
    const expected = isClosed ? Number(shift.expected_cash_cents) : null;
    const counted = shift.counted_cash_cents === null ? null : Number(shift.counted_cash_cents);
    return {
      shift_id: shift.id,
      user_id: shift.user_id,
      user_name: shift.user_name,
      status: isClosed ? 'closed' : 'open',
      ...lineOf(shift.id),
      expected_cash: expected === null ? null : fromCents(expected),
      counted_cash: counted === null ? null : fromCents(counted),
      difference: expected === null || counted === null ? null : fromCents(counted - expected),
    };
  });
  if (shiftIds.includes(null)) {
    lines.push({
      shift_id: null,
      user_id: null,
      user_name: null,
      status: null,
      ...lineOf(null),
      expected_cash: null,
      counted_cash: null,
      difference: null,
    });
  }
  const byMethod = [...methods.entries()].sort(([a], [b]) => a.localeCompare(b));
  return {
    date,
    from: toIsoUtc(range.from),
    to: toIsoUtc(range.to),
    orders: sales.orders,
    bills: sales.bills,
    items: sales.items,
    gross_sales: fromCents(sales.grossCents),
    discounts: fromCents(sales.discountsCents),
    refunds: fromCents(sales.refundsCents),
    net_sales: fromCents(netCents),
    tax: fromCents(taxShareCents(netCents, settings.taxRateBasisPoints, settings.pricesIncludeTax)),
    tips_total: fromCents(sales.tipsCents),
    covers: sales.covers,
    average_bill: sales.bills === 0 ? null : fromCents(Math.round(netCents / sales.bills)),
    average_per_cover: sales.covers === 0 ? null : fromCents(Math.round(netCents / sales.covers)),
    payments_by_method: byMethod.map(([method, total]) => ({
      method,
      payments: total.payments,
      amount: fromCents(total.amount),
      tips: fromCents(total.tips),
    })),
    payments_total: fromCents(byMethod.reduce((sum, [, total]) => sum + total.amount, 0)),
    refunds_recorded: fromCents(refunds.reduce((sum, row) => sum + Number(row.amount_cents), 0)),
    ...lightningFigures(payments.filter((row) => row.method === 'lightning')),
    shifts: lines,
    by_channel: [...channels.entries()]
      .sort(([a], [b]) => (a === 'dine_in' ? -1 : b === 'dine_in' ? 1 : a.localeCompare(b)))
      .map(([channel, total]) => ({
        channel,
        orders: total.orders,
        sales: fromCents(total.salesCents),
        commission: fromCents(total.commissionCents),
        net: fromCents(total.salesCents - total.commissionCents),
      })),
    voids: adjustmentSection(voids),
    comps: adjustmentSection(comps),
    other_discounts: adjustmentSection(otherDiscounts),
    fiscal: await fiscalDay(ctx.db, date),
  };
}

/** Queues the day report on the receipt printer: the figures of `dayReport`, so paper and screen agree. */
export async function printDayReport(
  ctx: AppContext,
  principal: Principal,
  date: string,
  claim: IdempotencyClaim | undefined,
): Promise<{ jobId: string }> {
  const report = await dayReport(ctx, principal, date);
  const now = ctx.clock.now();
  const setup = reportPaperSetup(await loadSettings(ctx.db), now);
  return inIdempotentTransaction(ctx.db, { claim, statusCode: 202, now }, async (trx) => ({
    jobId: await enqueueOnReceiptPrinter(trx, (width) => dayReportLines(report, setup, width), now),
  }));
}

/** Grouped rows as the report shows them: money in the base currency, the largest amounts first. */
function adjustmentSection({ byReason, byPerson }: adjustments.AdjustmentRows): DayReport['voids'] {
  const totals = (row: { count: number | string; amount_cents: number | string | null }) => ({
    count: Number(row.count),
    cents: Number(row.amount_cents ?? 0),
  });
  const largestFirst = <Row extends { count: number; cents: number }>(rows: Row[]) =>
    rows.sort((a, b) => b.cents - a.cents || b.count - a.count);
  const reasons = largestFirst(byReason.map((row) => ({ reason: row.reason, ...totals(row) })));
  const people = largestFirst(
    byPerson.map((row) => ({
      user_id: row.user_id,
      user_name: row.user_name,
      approved_by_id: row.approved_by_id,
      approved_by_name: row.approved_by_name,
      ...totals(row),
    })),
  );
  return {
    count: reasons.reduce((sum, row) => sum + row.count, 0),
    amount: fromCents(reasons.reduce((sum, row) => sum + row.cents, 0)),
    by_reason: reasons.map(({ cents, ...row }) => ({ ...row, amount: fromCents(cents) })),
    by_person: people.map(({ cents, ...row }) => ({ ...row, amount: fromCents(cents) })),
  };
}
