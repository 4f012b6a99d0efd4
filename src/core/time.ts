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

/** A stretch of time over which a zone keeps one UTC offset: from the previous piece's `until`. */
export type OffsetPiece = { until: number; offsetMs: number };

const QUARTER_HOUR_MS = 15 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The zone's UTC offsets over [from, to), as pieces in time order (the last runs to `to`). Zones
 * change offset at most a few times a year and always on a quarter hour, so each day is checked and
 * only a day whose offset changes is searched, by quarter hours.
 */
export function zoneOffsets(from: number, to: number, timeZone: string): OffsetPiece[] {
  const offsetAt = (instant: number) => DateTime.fromMillis(instant, { zone: timeZone }).offset * 60_000;
  const pieces: OffsetPiece[] = [];
  let current = offsetAt(from);
  for (let dayStart = from; dayStart < to; dayStart += DAY_MS) {
    const dayEnd = Math.min(dayStart + DAY_MS, to);
    if (offsetAt(dayEnd - 1) === current) continue;
    for (
      let instant = dayStart - (dayStart % QUARTER_HOUR_MS);
      instant < dayEnd;
      instant += QUARTER_HOUR_MS
    ) {
      const offset = offsetAt(Math.max(instant, from));
      if (offset !== current) {
        pieces.push({ until: Math.max(instant, from), offsetMs: current });
        current = offset;
      }
    }
  }
  pieces.push({ until: to, offsetMs: current });
  return pieces;
}

/** `2026-11-22` for a day number (days since 1970-01-01 on the local calendar). */
export function dayNumberToDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}
