import type { AppContext } from '../core/context';
import { BadRequestError } from '../core/errors';
import { fromCents } from '../core/money';
import type { Page } from '../core/paging';
import { totalFromLastPage } from '../core/paging';
import { localDaysToRange } from '../core/time';
import { loadSettings } from '../settings/settings.api';
import { toOrderView } from './order-views';
import * as orders from './orders.repo';
import type { OrderFilter, OrdersQuery, OrderView, TotalSalesView } from './orders.schemas';

export type OrderPage = { items: OrderView[]; totalCount: number };

/** A page of live orders, newest first, with the count of all that match. */
export async function findOrders(ctx: AppContext, filter: OrderFilter, page: Page): Promise<OrderPage> {
  const rows = await orders.listOrders(ctx.db, filter, page);
  const totalCount = totalFromLastPage(page, rows.length) ?? (await orders.countOrders(ctx.db, filter));
  return { items: rows.map(toOrderView), totalCount };
}

/** GET /orders: `from`/`to` are inclusive Unix ms; `date` is a local day; given together they intersect. */
export async function listOrders(ctx: AppContext, query: OrdersQuery): Promise<OrderPage> {
  if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
    throw new BadRequestError('from must not be after to');
  }
  const day = query.date === undefined ? undefined : await localDays(ctx, query.date, query.date);
  const bounds = [day?.from, query.from].filter((value) => value !== undefined);
  const ends = [day?.before, query.to === undefined ? undefined : query.to + 1].filter(
    (value) => value !== undefined,
  );
  const filter: OrderFilter = {
    userId: query.user_id,
    tableId: query.table_id,
    status: query.status,
    ...(query.channel === 'delivery' ? { isDelivery: true } : { channel: query.channel }),
    from: bounds.length > 0 ? Math.max(...bounds) : undefined,
    before: ends.length > 0 ? Math.min(...ends) : undefined,
  };
  return findOrders(ctx, filter, query);
}

/** Both days inclusive, in the restaurant's time zone. */
export async function listOrdersBetweenDays(
  ctx: AppContext,
  query: { start_date: string; end_date: string } & Page,
): Promise<OrderPage> {
  if (query.start_date > query.end_date) throw new BadRequestError('start_date must not be after end_date');
  return findOrders(ctx, await localDays(ctx, query.start_date, query.end_date), query);
}

/** Completed, live orders created on that local day; a day without sales answers zeros. */
export async function totalSalesOfDay(ctx: AppContext, date: string): Promise<TotalSalesView> {
  const sales = await orders.completedSales(ctx.db, await localDays(ctx, date, date));
  return { date, total_sales: fromCents(sales.totalCents), orders_count: sales.ordersCount };
}

async function localDays(
  ctx: AppContext,
  firstDay: string,
  lastDay: string,
): Promise<{ from: number; before: number }> {
  const { timeZone } = await loadSettings(ctx.db);
  const range = localDaysToRange(firstDay, lastDay, timeZone);
  return { from: range.from, before: range.to };
}
