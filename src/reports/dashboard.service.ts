import { DateTime } from 'luxon';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { BadRequestError } from '../core/errors';
import { fromCents } from '../core/money';
import { isCalendarDate, localDaysToRange, toIsoUtc } from '../core/time';
import { authorize } from '../permissions/permissions.api';
import { loadSettings } from '../settings/settings.api';
import * as repo from './dashboard.repo';
import type { Dashboard } from './dashboard.schemas';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const USUAL_WEEKS = 4;
const RANKED = 5;
/**
 * How long a day's usual is kept. Its four days are past: their bills change only by a late refund,
 * while every manager's phone asks again after each event of the night.
 */
const USUAL_KEPT_MS = 10 * MINUTE_MS;

type Hour = { salesCents: number; covers: number };
type Slot = { start: number; hour: number };
/** Per database (each test and each instance has its own), by zone and day. */
const usualKept = new WeakMap<object, Map<string, { at: number; hours: Hour[] }>>();

/**
 * The manager's picture of one local day (today by default): sales and covers per hour against the
 * same weekday of the last four weeks, the day's totals and splits, its best and worst dishes, what
 * ran out, how fast tables turned and the kitchen cooked, and what is open right now.
 */
export async function dashboard(
  ctx: AppContext,
  principal: Principal,
  date: string | undefined,
): Promise<Dashboard> {
  authorize(principal, 'reports.read');
  const { timeZone } = await loadSettings(ctx.db);
  const day = date ?? DateTime.fromMillis(ctx.clock.now(), { zone: timeZone }).toISODate();
  if (day === null || !isCalendarDate(day))
    throw new BadRequestError('date must be a calendar day (YYYY-MM-DD)');
  const range = localDaysToRange(day, day, timeZone);
  const slots = hourSlots(range, timeZone);
  const [
    dayHours,
    usual,
    dayBills,
    turns,
    tenders,
    dishes,
    outages,
    overrides,
    kitchen,
    voids,
    discounts,
    now,
  ] = await Promise.all([
    repo.slotTotals(
      ctx.db,
      slots.map((slot) => slot.start),
    ),
    usualOf(ctx, day, timeZone),
    repo.billTotals(ctx.db, range),
    repo.tableTurns(ctx.db, range),
    repo.tenders(ctx.db, range),
    repo.dishSales(ctx.db, range),
    repo.auditEntries(ctx.db, range, 'dish.availability_changed'),
    repo.auditEntries(ctx.db, range, 'dish.price_overridden'),
    repo.kitchenDurations(ctx.db, range),
    repo.voidTotals(ctx.db, range),
    repo.discountTotals(ctx.db, range),
    repo.openNow(ctx.db),
  ]);
  const waiters = totalsBy(dayBills, (row) => row.userId);
  const channels = totalsBy(dayBills, (row) => row.channel);
  const salesCents = sum(dayHours.map((row) => row.salesCents));
  const covers = sum(dayHours.map((row) => row.covers));
  const bills = sum(dayBills.map((row) => row.bills));
  const priceCuts = overriddenBelowMenu(overrides);
  return {
    date: day,
    from: toIsoUtc(range.from),
    to: toIsoUtc(range.to),
    hours: slots.map(({ start, hour }, index) => ({
      hour,
      starts_at: toIsoUtc(start),
      sales: fromCents((dayHours[index] as Hour).salesCents),
      covers: (dayHours[index] as Hour).covers,
      usual: {
        sales: fromCents(Math.round((usual[hour] as Hour).salesCents / USUAL_WEEKS)),
        covers: Math.round(((usual[hour] as Hour).covers / USUAL_WEEKS) * 100) / 100,
      },
    })),
    sales: fromCents(salesCents),
    bills,
    covers,
    average_bill: bills === 0 ? null : fromCents(Math.round(salesCents / bills)),
    average_per_cover: covers === 0 ? null : fromCents(Math.round(salesCents / covers)),
    tips: fromCents(sum(dayBills.map((row) => row.tipsCents))),
    by_tender: tenders
      .sort((a, b) => b.sales - a.sales || a.method.localeCompare(b.method))
      .map((row) => ({ method: row.method, sales: fromCents(row.sales), tips: fromCents(row.tips) })),
    by_channel: channels
      .sort((a, b) => channelRank(a.channel) - channelRank(b.channel) || a.channel.localeCompare(b.channel))
      .map((row) => ({ channel: row.channel, orders: row.orders, sales: fromCents(row.salesCents) })),
    by_waiter: waiters
      .sort((a, b) => b.salesCents - a.salesCents || a.waiter.localeCompare(b.waiter))
      .map((row) => ({
        user_id: row.userId,
        name: row.waiter,
        bills: row.bills,
        sales: fromCents(row.salesCents),
        tips: fromCents(row.tipsCents),
      })),
    dishes: rankedDishes(dishes),
    out_of_stock: await outOfStock(ctx, outages),
    table_turn: spread(turns),
    kitchen: spread(kitchen),
    voids: { count: voids.count, amount: fromCents(voids.cents) },
    comps: {
      count: discounts.count + priceCuts.count,
      amount: fromCents(discounts.cents + priceCuts.cents),
    },
    now: {
      open_tables: now.tables,
      open_bills: now.bills,
      open_bills_balance: fromCents(now.balanceCents),
    },
  };
}

/**
 * The sales and covers of each local hour (0–23) on the same weekday of the four weeks before `day`,
 * added up (the caller averages them), kept USUAL_KEPT_MS per database, zone and day.
 */
async function usualOf(ctx: AppContext, day: string, timeZone: string): Promise<Hour[]> {
  const kept = usualKept.get(ctx.db) ?? new Map<string, { at: number; hours: Hour[] }>();
  usualKept.set(ctx.db, kept);
  const key = `${timeZone} ${day}`;
  const now = ctx.clock.now();
  const found = kept.get(key);
  if (found && now - found.at < USUAL_KEPT_MS) return found.hours;
  const usualSlots = Array.from({ length: USUAL_WEEKS }, (_, week) => {
    const earlier = DateTime.fromISO(day, { zone: timeZone })
      .minus({ weeks: week + 1 })
      .toISODate() as string;
    return hourSlots(localDaysToRange(earlier, earlier, timeZone), timeZone);
  });
  const totals = await Promise.all(
    usualSlots.map((daySlots) =>
      repo.slotTotals(
        ctx.db,
        daySlots.map((slot) => slot.start),
      ),
    ),
  );
  const hours = Array.from({ length: 24 }, () => ({ salesCents: 0, covers: 0 }));
  totals.forEach((dayTotals, index) => {
    for (const row of dayTotals) {
      const hour = hours[((usualSlots[index] as Slot[])[row.slot] as Slot).hour] as Hour;
      hour.salesCents += row.salesCents;
      hour.covers += row.covers;
    }
  });
  for (const [other, entry] of kept) if (now - entry.at >= USUAL_KEPT_MS) kept.delete(other);
  kept.set(key, { at: now, hours });
  return hours;
}

/**
 * The hours of a local day from its start: 24, or 23 and 25 on the days the clocks change, so a
 * repeated hour is two slots with the same local hour and a skipped one is not there.
 */
function hourSlots(range: { from: number; to: number }, timeZone: string): Slot[] {
  return Array.from({ length: Math.round((range.to - range.from) / HOUR_MS) }, (_, slot) => {
    const start = range.from + slot * HOUR_MS;
    return { start, hour: DateTime.fromMillis(start, { zone: timeZone }).hour };
  });
}

type BillTotals = Awaited<ReturnType<typeof repo.billTotals>>[number];

/** The day's groups (hour, waiter, channel) added up by one of them. */
function totalsBy(rows: BillTotals[], keyOf: (row: BillTotals) => string): BillTotals[] {
  const totals = new Map<string, BillTotals>();
  for (const row of rows) {
    const total = totals.get(keyOf(row));
    if (total === undefined) {
      totals.set(keyOf(row), { ...row });
      continue;
    }
    total.bills += row.bills;
    total.orders += row.orders;
    total.salesCents += row.salesCents;
    total.tipsCents += row.tipsCents;
  }
  return [...totals.values()];
}

/** Dine in first, then the delivery apps by name. */
const channelRank = (channel: string) => (channel === 'dine_in' ? 0 : 1);

type DishTotal = Awaited<ReturnType<typeof repo.dishSales>>[number];

/** The five most and least sold dishes by plates and by amount; ties by name, so the lists are stable. */
function rankedDishes(dishes: DishTotal[]): Dashboard['dishes'] {
  const view = (dish: DishTotal) => ({
    dish_id: dish.dish_id,
    name: dish.name,
    quantity: dish.quantity,
    amount: fromCents(dish.amount),
  });
  const ranked = (by: (dish: DishTotal) => number, direction: 1 | -1) =>
    [...dishes]
      .sort(
        (a, b) =>
          direction * (by(a) - by(b)) || a.name.localeCompare(b.name) || a.dish_id.localeCompare(b.dish_id),
      )
      .slice(0, RANKED)
      .map(view);
  return {
    top_by_quantity: ranked((dish) => dish.quantity, -1),
    bottom_by_quantity: ranked((dish) => dish.quantity, 1),
    top_by_amount: ranked((dish) => dish.amount, -1),
    bottom_by_amount: ranked((dish) => dish.amount, 1),
  };
}

type AuditRow = Awaited<ReturnType<typeof repo.auditEntries>>[number];

/**
 * Each dish taken off the menu that day, by hand or by its stock running out, at the last time it
 * went, and whether it is still off.
 */
async function outOfStock(ctx: AppContext, entries: AuditRow[]): Promise<Dashboard['out_of_stock']> {
  const lastOut = new Map<string, number>();
  for (const entry of entries) {
    const after = JSON.parse(entry.after ?? '{}') as { available?: boolean };
    if (after.available === false && entry.target_id !== null) lastOut.set(entry.target_id, Number(entry.at));
  }
  const dishes = await repo.dishesByIds(ctx.db, [...lastOut.keys()]);
  return dishes
    .map((dish) => ({
      dish_id: dish.id,
      name: dish.name,
      at: toIsoUtc(lastOut.get(dish.id) as number),
      is_still_out: Number(dish.is_available) === 0 || Number(dish.out_of_stock) === 1,
    }))
    .sort((a, b) => a.at.localeCompare(b.at) || a.name.localeCompare(b.name));
}

/**
 * The plates charged below their menu price that day (audited `dish.price_overridden`), at the
 * difference; a later override of the same plate replaces the earlier one.
 */
function overriddenBelowMenu(entries: AuditRow[]): { count: number; cents: number } {
  const cuts = new Map<string, number>();
  for (const entry of entries) {
    const after = JSON.parse(entry.after ?? '{}') as {
      dishes?: { id: string; menu_price: number | null; price_at_order: number | null }[];
    };
    for (const dish of after.dishes ?? []) {
      if (dish.menu_price === null || dish.price_at_order === null) continue;
      const cut = Math.round(dish.menu_price * 100) - Math.round(dish.price_at_order * 100);
      if (cut > 0) cuts.set(dish.id, cut);
      else cuts.delete(dish.id);
    }
  }
  return { count: cuts.size, cents: sum([...cuts.values()]) };
}

/** Median and 90th percentile in minutes (nearest rank), null when there is nothing to measure. */
function spread(durationsMs: number[]): { count: number; median: number | null; p90: number | null } {
  const sorted = [...durationsMs].sort((a, b) => a - b);
  const rank = (share: number) => {
    const value = sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)];
    return value === undefined ? null : Math.round((value / MINUTE_MS) * 10) / 10;
  };
  return { count: sorted.length, median: rank(0.5), p90: rank(0.9) };
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
