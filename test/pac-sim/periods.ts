import { DateTime } from 'luxon';

/** Facturapi organizations' periods are calendar periods where the business is; ours is in Mexico City. */
export const ZONE = 'America/Mexico_City';

export type Periodicity = 'day' | 'week' | 'fortnight' | 'month' | 'two_months';
export const PERIODICITIES: readonly Periodicity[] = ['day', 'week', 'fortnight', 'month', 'two_months'];

/** The period holding `instant`: first and last millisecond, local calendar (weeks start on Monday). */
export function periodOf(periodicity: Periodicity, instant: Date): { start: Date; end: Date } {
  const local = DateTime.fromJSDate(instant, { zone: ZONE });
  let start: DateTime;
  let end: DateTime;
  switch (periodicity) {
    case 'day':
      start = local.startOf('day');
      end = local.endOf('day');
      break;
    case 'week':
      start = local.startOf('week');
      end = local.endOf('week');
      break;
    case 'fortnight':
      start = local.day <= 15 ? local.startOf('month') : local.set({ day: 16 }).startOf('day');
      end = local.day <= 15 ? local.set({ day: 15 }).endOf('day') : local.endOf('month');
      break;
    case 'month':
      start = local.startOf('month');
      end = local.endOf('month');
      break;
    case 'two_months': {
      const firstMonth = local.month % 2 === 1 ? local.month : local.month - 1;
      start = local.set({ month: firstMonth }).startOf('month');
      end = start.plus({ months: 1 }).endOf('month');
      break;
    }
  }
  return { start: start.toJSDate(), end: end.toJSDate() };
}

/** The last period that has closed before `now`. */
export function previousPeriod(periodicity: Periodicity, now: Date) {
  const current = periodOf(periodicity, now);
  return periodOf(periodicity, new Date(current.start.getTime() - 1));
}

export function localMonthAndYear(instant: Date): { month: number; year: number } {
  const local = DateTime.fromJSDate(instant, { zone: ZONE });
  return { month: local.month, year: local.year };
}

/**
 * The end of the business day after `instant` (Monday to Friday, local time; public holidays are
 * not counted): the SAT lets an issuer cancel without the receiver's consent until then.
 */
export function endOfNextBusinessDay(instant: Date): Date {
  let day = DateTime.fromJSDate(instant, { zone: ZONE }).plus({ days: 1 });
  while (day.weekday > 5) day = day.plus({ days: 1 });
  return day.endOf('day').toJSDate();
}

export const HOUR_MS = 3_600_000;
