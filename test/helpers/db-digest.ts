import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { type Db, isPostgres } from '../../src/core/db/database';
import type { Database } from '../../src/core/db/schema';

/**
 * Tables a refused request may still change, each for a reason of its own:
 * - `kysely_migration`, `kysely_migration_lock`: the migrator's bookkeeping, written only at start.
 */
const CHANGED_BY_READS = new Set(['kysely_migration', 'kysely_migration_lock']);

/**
 * Every table of the test's database, from the database's own catalogue, so a table added by a
 * migration is in the digest without anyone remembering to list it.
 */
async function tablesOf(db: Db): Promise<string[]> {
  const catalogue = isPostgres(db)
    ? sql<{ name: string }>`select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE'`
    : sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`;
  const { rows } = await catalogue.execute(db);
  return rows
    .map((row) => row.name)
    .filter((name) => !CHANGED_BY_READS.has(name))
    .sort();
}

// PostgreSQL's sequencer numbers committed events in the background, so an event committed before
// a refused request may get its position while that request runs: not a change the request made.
export function withoutPosition<Row extends object>(row: Row): Omit<Row, 'position'> {
  const { position: _position, ...rest } = row as Row & { position?: unknown };
  return rest;
}

/** A fingerprint of every stored row, to prove that a refused request changed nothing. */
export async function databaseDigest(db: Db): Promise<string> {
  const tables = await tablesOf(db);
  // Read side by side: PostgreSQL's pool answers them at once (SQLite runs them one by one anyway).
  const contents = await Promise.all(
    tables.map((table) =>
      db
        .selectFrom(table as keyof Database)
        .selectAll()
        .execute(),
    ),
  );
  const hash = createHash('sha256');
  for (const [index, table] of tables.entries()) {
    const rows = contents[index] ?? [];
    // Rows in a fixed order whatever the table's keys: sorted by their own text.
    const texts = (table === 'events' ? rows.map(withoutPosition) : rows).map((row) => JSON.stringify(row));
    hash.update(table).update(JSON.stringify(texts.sort()));
  }
  return hash.digest('hex');
}
