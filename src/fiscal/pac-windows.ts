import { DateTime } from 'luxon';
import { type Pac, type PacReceipt, RECEIPTS_MAX_PAGES, RECEIPTS_PAGE } from '../core/pac';

/** An instant range, both ends included, as the PAC's `date[gte]` and `date[lte]` take it. */
export type Window = { from: number; to: number };

/** The most receipts one date range may hold to be read whole: 30 pages of 100. */
const READABLE_RECEIPTS = RECEIPTS_MAX_PAGES * RECEIPTS_PAGE;

/** An instant as the PAC takes it: ISO 8601 with the restaurant's offset (a bare date is midnight at the PAC). */
export function pacInstant(at: number, timeZone: string): string {
  return DateTime.fromMillis(at, { zone: timeZone }).toISO() ?? '';
}

/**
 * The window cut into consecutive sub-ranges of at most `max` receipts each, by halving: the PAC counts
 * a range's receipts (`total_results` of a one-item page), whatever their state, so each part holds
 * at most `max` open ones too.
 */
export async function windowsOf(pac: Pac, window: Window, max: number, timeZone: string): Promise<Window[]> {
  const { total_results: count } = await pac.listReceipts({
    from: pacInstant(window.from, timeZone),
    to: pacInstant(window.to, timeZone),
    page: 1,
    limit: 1,
  });
  if (count <= max) return [window];
  if (window.from >= window.to) {
    throw new Error(`The PAC holds ${count} receipts dated at one instant, more than ${max}`);
  }
  const middle = Math.floor((window.from + window.to) / 2);
  return [
    ...(await windowsOf(pac, { from: window.from, to: middle }, max, timeZone)),
    ...(await windowsOf(pac, { from: middle + 1, to: window.to }, max, timeZone)),
  ];
}

/**
 * Every receipt the PAC dates in the window, page by page, over sub-ranges the API can read whole (a
 * month of a busy restaurant holds more than 30 pages). `visit` answers true to stop.
 */
export async function visitReceipts(
  pac: Pac,
  window: Window,
  timeZone: string,
  visit: (receipt: PacReceipt) => Promise<boolean | undefined> | boolean | undefined,
): Promise<void> {
  for (const part of await windowsOf(pac, window, READABLE_RECEIPTS, timeZone)) {
    const range = { from: pacInstant(part.from, timeZone), to: pacInstant(part.to, timeZone) };
    for (let page = 1; ; page += 1) {
      const found = await pac.listReceipts({ ...range, page });
      for (const receipt of found.data) if (await visit(receipt)) return;
      if (page >= found.total_pages) break;
    }
  }
}
