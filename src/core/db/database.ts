import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresAdapter, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { migrationProvider } from './migrations';
import type { Database } from './schema';

export type Db = Kysely<Database>;
export type DialectName = 'sqlite' | 'postgres';
export type DatabaseHandle = { db: Db; dialect: DialectName; close(): Promise<void> };

const PG_INT8 = 20;
const PG_NUMERIC = 1700;

/** Opens the database a `DATABASE_URL` names: `sqlite:<path>`, `sqlite::memory:` or `postgres://…`. */
export function openDatabase(url: string): DatabaseHandle {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length));
  return openPostgres(url);
}

function openSqlite(path: string): DatabaseHandle {
  const isMemory = path === ':memory:';
  if (!isMemory) mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  if (!isMemory) sqlite.pragma('journal_mode = WAL');
  // FULL: a commit is on disk before we answer, so an acknowledged order survives a power cut.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query afresh; compiling the SQL was a tenth of the server's time under load.
 * Our queries are a small fixed set of texts, so each is compiled once and reused. Safe because
 * better-sqlite3 runs one statement at a time and Kysely holds our single connection per query.
 */
function withStatementCache(sqlite: SQLite.Database): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      statement = prepare(source);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(source, statement);
    }
    return statement;
  }) as SQLite.Database['prepare'];
  return sqlite;
}

/** Pool size and number parsing; the benchmark baseline uses the same, so the comparison is fair. */
export function postgresPoolConfig(url: string): pg.PoolConfig {
  return {
    connectionString: url,
    max: 10,
    // Counts, sums and Unix-ms instants arrive as JS numbers; all stay far below 2^53.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8 || oid === PG_NUMERIC
          ? Number
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  };
}

function openPostgres(url: string): DatabaseHandle {
  const pool = new pg.Pool(postgresPoolConfig(url));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider, ...(await migrationTableLocation(db)) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? [])
    .filter((result) => result.status === 'Success')
    .map((result) => result.migrationName);
}

/**
 * On PostgreSQL the migrator looks for its bookkeeping tables in every schema; pinning them to the
 * connection's own schema keeps databases that share a server (tests, tenants) apart.
 */
async function migrationTableLocation(db: Db): Promise<{ migrationTableSchema?: string }> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return {};
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0] ? { migrationTableSchema: rows[0].schema } : {};
}
