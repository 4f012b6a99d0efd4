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

/**
 * What the driver says when the database server cannot be reached or went away mid-query: a refused,
 * reset or timed-out connection, PostgreSQL shutting down or starting (SQLSTATE class 08 and 57P0x),
 * and node-postgres's own words for a connection that ended or never came.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
const UNAVAILABLE_SQLSTATES = /^(08\d{3}|57P0[1-3])$/;
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/** Whether a failure means the database is out of reach for now (a retry later may work). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    const code = String((cause as { code?: unknown }).code ?? '');
    const message = String((cause as { message?: unknown }).message ?? '');
    if (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_SQLSTATES.test(code) || UNAVAILABLE_MESSAGES.test(message))
      return true;
    // AggregateError: every address of a host name refused.
    const errors = (cause as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}
