import { DateTime } from 'luxon';

export function isValidTimeZone(zone: string): boolean {
  return DateTime.now().setZone(zone).isValid;
}

/** `YYYY-MM-DD` that names a real calendar day. */
export function isCalendarDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && DateTime.fromISO(value, { zone: 'UTC' }).isValid;
}

/**
 * The instant range [start, end) in Unix ms that the restaurant calls these local days.
 * Computed with the zone's rules, so days of 23 or 25 hours around DST changes come out right.
 */
export function localDaysToRange(
  firstDay: string,
  lastDay: string,
  timeZone: string,
): { from: number; to: number } {
  const start = DateTime.fromISO(firstDay, { zone: timeZone }).startOf('day');
  const end = DateTime.fromISO(lastDay, { zone: timeZone }).startOf('day').plus({ days: 1 });
  return { from: start.toMillis(), to: end.toMillis() };
}

/** `toIsoUtc` for instants that may be absent (a bill not paid yet, a payment not settled). */
export const toIsoUtcOrNull = (unixMs: number | null): string | null =>
  unixMs === null ? null : toIsoUtc(Number(unixMs));

export function toIsoUtc(unixMs: number): string {
  return new Date(unixMs).toISOString();
}

/** `2026-11-22 12:00`: an instant as the restaurant's clock on the wall showed it. */
export function formatLocalDateTime(unixMs: number, timeZone: string): string {
  return DateTime.fromMillis(unixMs, { zone: timeZone }).toFormat('yyyy-LL-dd HH:mm');
}
