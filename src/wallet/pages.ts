/** phoenixd always pages its lists; this page size keeps each answer small while few calls are needed. */
const PAGE_SIZE = 500;

/**
 * Collects every page of a phoenixd list, for the `all=true` listings that promise no pagination.
 * Only an empty page ends the list: phoenixd drops some records from a page after its query counted
 * them (kinds of payment its API does not show), so a short page need not be the last.
 */
export async function fetchAllPages<T>(
  fetchPage: (page: { limit: number; offset: number }) => Promise<T[]>,
): Promise<T[]> {
  const items: T[] = [];
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const page = await fetchPage({ limit: PAGE_SIZE, offset });
    if (page.length === 0) return items;
    items.push(...page);
  }
}
