import { type Static, Type } from 'typebox';
import { MAX_OFFSET } from './schemas';

/** A page of a list: every list route takes these two query parameters. */
export const Page = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
  offset: Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0 }),
});
export type Page = Static<typeof Page>;

/**
 * How many rows match in all, when a page already tells: it is the last page (fewer rows than the
 * limit) and not an empty one past the end. Otherwise undefined, and the matches need counting. Most
 * lists a tablet polls (today's open orders) fit in one page, so this saves a count on most requests.
 */
export function totalFromLastPage(
  page: { limit: number; offset: number },
  rowCount: number,
): number | undefined {
  const isLastPage = rowCount < page.limit && (rowCount > 0 || page.offset === 0);
  return isLastPage ? page.offset + rowCount : undefined;
}
