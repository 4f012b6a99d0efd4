/** The codes a write gets when the disk (or SQLite's page limit) is full: SQLite's, and PostgreSQL's SQLSTATE disk_full. */
const STORAGE_FULL_CODES = new Set(['SQLITE_FULL', '53100']);

/** Whether a database failure means there is no room left to write, however deep it was wrapped. */
export function isStorageFull(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if (STORAGE_FULL_CODES.has(String((cause as { code?: unknown }).code ?? ''))) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}
