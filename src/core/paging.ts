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
