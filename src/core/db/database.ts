import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, type KyselyConfig, Migrator, PostgresAdapter, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { StartupError } from '../startup';
import { type BackfillOptions, type BackfillProgress, runBackfills } from './backfills';
import { backfills, migrationProvider } from './migrations';
import { OutboxCommitPool } from './outbox-commits';
import type { Database } from './schema';
import { sqliteDialect } from './sqlite-driver';
import { type SyncFile, WalSync } from './wal-sync';

export type Db = Kysely<Database>;
export type DialectName = 'sqlite' | 'postgres';
export type DatabaseHandle = {
  db: Db;
  dialect: DialectName;
  /**
   * Whether a commit may not be on disk yet (SQLite's group commit, see wal-sync.ts); when so, an
   * answer waits for `flushCommits()`. Always false on PostgreSQL, whose COMMIT returns once durable.
   */
  hasUnflushedCommits(): boolean;
  flushCommits(): Promise<void>;
  /**
   * Calls `listener` after each commit made through this handle that wrote to the events outbox (on
   * PostgreSQL other instances' commits are learnt by LISTEN). Returns the unsubscribe.
   */
  onOutboxCommit(listener: () => void): () => void;
  close(): Promise<void>;
};

export type OpenOptions = {
  /** How the SQLite WAL is synced to disk; tests slow it down or make it fail. */
  syncWal?: SyncFile;
  /**
   * For `sqlite::memory:`: start from a copy of this serialized database instead of an empty one
   * (tests open hundreds of databases from one that was migrated once).
   */
  sqliteImage?: Buffer;
  /** Kysely's query log; the upgrade benchmark times every statement with it. */
  log?: KyselyConfig['log'];
};

const PG_INT8 = 20;
const PG_NUMERIC = 1700;

/** Opens the database a `DATABASE_URL` names: `sqlite:<path>`, `sqlite::memory:` or `postgres://…`. */
export function openDatabase(url: string, options: OpenOptions = {}): DatabaseHandle {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length), options);
  return openPostgres(url, options);
}

/** The one folder created when missing; any other must exist, so a typo cannot scatter databases. */
const DEFAULT_SQLITE_FOLDER = 'data';

function openSqlite(path: string, options: OpenOptions): DatabaseHandle {
  const isMemory = path === ':memory:';
  if (!isMemory) prepareSqliteFile(path);
  let sqlite: SQLite.Database | undefined;
  try {
    sqlite = isMemory && options.sqliteImage ? new SQLite(options.sqliteImage) : new SQLite(path);
    if (!isMemory) sqlite.pragma('journal_mode = WAL');
  } catch (error) {
    sqlite?.close();
    throw new StartupError(`Cannot open the SQLite database ${resolve(path)}: ${(error as Error).message}`);
  }
  // NORMAL writes a commit to the WAL without syncing it; WalSync syncs it before anyone is answered,
  // so an acknowledged order still survives a power cut (see wal-sync.ts).
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Up to 64 MiB of pages (the default is 2): a report over a busy day reads a few MiB of facts, and
  // the dashboard's dozen queries evicted each other's pages (9 ms of its ~60 at a year of orders).
  sqlite.pragma('cache_size = -65536');
  const walSync = isMemory ? undefined : new WalSync(`${path}-wal`, options.syncWal);
  const outboxListeners = new Listeners();
  const db = new Kysely<Database>({
    dialect: sqliteDialect(sqlite, (wroteOutbox) => {
      walSync?.noteCommit();
      if (wroteOutbox) outboxListeners.call();
    }),
    log: options.log,
  });
  return {
    db,
    dialect: 'sqlite',
    hasUnflushedCommits: () => walSync?.hasPending() ?? false,
    flushCommits: async () => walSync?.flush(),
    onOutboxCommit: (listener) => outboxListeners.add(listener),
    close: async () => {
      await walSync?.close();
      await db.destroy();
    },
  };
}

/**
 * The database holds the JWT secret and the PIN key unless they come from the environment, so it is
 * readable by the server's user only. The file is created here with mode 0600 because SQLite creates
 * the -wal and -shm files with the mode of the database file. A file of ours that others can read
 * (made by an older version, or copied in) is tightened the same way at every start.
 */
function prepareSqliteFile(path: string): void {
  const folder = resolve(dirname(path));
  if (!existsSync(folder)) {
    if (folder !== resolve(DEFAULT_SQLITE_FOLDER)) {
      throw new StartupError(
        `The folder ${folder} of the SQLite database does not exist: create it or change DATABASE_URL`,
      );
    }
    mkdirSync(folder, { mode: 0o700 });
  }
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new StartupError(
        `Cannot create the SQLite database ${resolve(path)}: ${(error as Error).message}`,
      );
    }
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`]) restrictToOwner(file);
}

function restrictToOwner(file: string): void {
  const stats = statSync(file, { throwIfNoEntry: false });
  if (!stats?.isFile() || (stats.mode & 0o077) === 0 || stats.uid !== process.getuid?.()) return;
  chmodSync(file, stats.mode & 0o700);
}

/** Pool size and number parsing; the benchmark baseline uses the same, so the comparison is fair. */
export function postgresPoolConfig(url: string): pg.PoolConfig {
  return {
    connectionString: url,
    max: 10,
    // A database host that does not answer at all must not hold a request for the OS's TCP timeout.
    connectionTimeoutMillis: 5000,
    // Counts, sums and Unix-ms instants arrive as JS numbers; all stay far below 2^53.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8 || oid === PG_NUMERIC
          ? Number
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  };
}

/**
 * A pool whose connections the server may end (a restart, a terminated backend, an idle timeout, a
 * network cut) without ending the process: node-postgres drops such a connection and opens another
 * for the next query, but it reports the end as an 'error' event, which with no listener is an
 * uncaught exception. The pool listens for its idle connections; each connection listens for itself
 * while a request holds it, and its query fails with the same error, which the request answers.
 */
export function newPostgresPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

function openPostgres(url: string, options: OpenOptions): DatabaseHandle {
  const outboxListeners = new Listeners();
  const pool = new OutboxCommitPool(newPostgresPool(postgresPoolConfig(url)), () => outboxListeners.call());
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: options.log });
  return {
    db,
    dialect: 'postgres',
    hasUnflushedCommits: () => false,
    flushCommits: async () => {},
    onOutboxCommit: (listener) => outboxListeners.add(listener),
    close: () => db.destroy(),
  };
}

class Listeners {
  private readonly listeners = new Set<() => void>();

  add(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  call(): void {
    for (const listener of this.listeners) listener();
  }
}

/** Whether `db` (or a transaction of it) speaks to PostgreSQL rather than SQLite. */
export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export type MigrationProgress =
  | { step: 'migration'; name: string; ms: number }
  | ({ step: 'backfill' } & BackfillProgress);

export type MigrateOptions = Omit<BackfillOptions, 'onProgress'> & {
  onProgress?: (progress: MigrationProgress) => void;
};

/** The schema migrations, then the backfills they scheduled, to the end; returns the migrations applied. */
export async function migrateToLatest(db: Db, options: MigrateOptions = {}): Promise<string[]> {
  const applied = await migrateSchema(db, options.onProgress);
  await runBackfills(db as Kysely<unknown>, backfills, {
    ...options,
    onProgress: (progress) => options.onProgress?.({ step: 'backfill', ...progress }),
  });
  return applied;
}

/** Whether some migration has run: a start that migrates is then an upgrade, not a first install. */
export async function hasSchema(db: Db): Promise<boolean> {
  const migrator = new Migrator({ db, provider: migrationProvider, ...(await migrationTableLocation(db)) });
  return (await migrator.getMigrations()).some((migration) => migration.executedAt !== undefined);
}

/** Whether some schema migration has yet to run. */
export async function hasPendingMigrations(db: Db): Promise<boolean> {
  const migrator = new Migrator({ db, provider: migrationProvider, ...(await migrationTableLocation(db)) });
  return (await migrator.getMigrations()).some((migration) => migration.executedAt === undefined);
}

/**
 * The pending schema migrations, one at a time: on PostgreSQL each then commits on its own, where
 * Kysely's migrateToLatest runs them all in one transaction (an upgrade's worth of DDL and updates).
 */
export async function migrateSchema(
  db: Db,
  onProgress?: (progress: MigrationProgress) => void,
): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider, ...(await migrationTableLocation(db)) });
  const applied: string[] = [];
  while (true) {
    const started = performance.now();
    const { error, results } = await migrator.migrateUp();
    if (error) throw error;
    const result = results?.find((each) => each.status === 'Success');
    if (!result) return applied;
    applied.push(result.migrationName);
    onProgress?.({
      step: 'migration',
      name: result.migrationName,
      ms: Math.round(performance.now() - started),
    });
  }
}

/**
 * On PostgreSQL the migrator looks for its bookkeeping tables in every schema; pinning them to the
 * connection's own schema keeps databases that share a server (tests, tenants) apart.
 */
async function migrationTableLocation(db: Db): Promise<{ migrationTableSchema?: string }> {
  if (!isPostgres(db)) return {};
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0] ? { migrationTableSchema: rows[0].schema } : {};
}
