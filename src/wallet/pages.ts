/** phoenixd always pages its lists; this page size keeps each answer small while few calls are needed. */
const PAGE_SIZE = 500;

/** Collects every page of a phoenixd list, for the `all=true` listings that promise no pagination. */
export async function fetchAllPages<T>(
  fetchPage: (page: { limit: number; offset: number }) => Promise<T[]>,
): Promise<T[]> {
  const items: T[] = [];
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const page = await fetchPage({ limit: PAGE_SIZE, offset });
    items.push(...page);
    if (page.length < PAGE_SIZE) return items;
  }
}
