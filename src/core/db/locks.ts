import type { SelectQueryBuilder } from 'kysely';
import { type Db, isPostgres } from './database';

/**
 * Row locks exist only on PostgreSQL. SQLite runs one write transaction at a time on our single
 * connection, so the same query there is already exclusive.
 */
// biome-ignore lint/suspicious/noExplicitAny: the builder's own type parameters pass through untouched.
export function forUpdate<Q extends SelectQueryBuilder<any, any, any>>(
  db: Db,
  query: Q,
  options: { skipLocked?: boolean } = {},
): Q {
  if (!isPostgres(db)) return query;
  const locked = query.forUpdate();
  return (options.skipLocked ? locked.skipLocked() : locked) as Q;
}

/** True when a database error is a unique-index violation, on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code } = error as { code?: unknown };
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True when a database error is a foreign-key violation, on either engine. */
export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code } = error as { code?: unknown };
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * A shared row lock on PostgreSQL: writers that only need the row to stay as it is (a payment that
 * names an open shift) do not queue behind each other, only behind a FOR UPDATE (the close).
 */
// biome-ignore lint/suspicious/noExplicitAny: the builder's own type parameters pass through untouched.
export function forShare<Q extends SelectQueryBuilder<any, any, any>>(db: Db, query: Q): Q {
  return (isPostgres(db) ? query.forShare() : query) as Q;
}
