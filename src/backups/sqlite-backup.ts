import {
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Migrator, sql } from 'kysely';
import { openDatabase } from '../core/db/database';
import { migrationProvider } from '../core/db/migrations';

/** A backup or a restore that cannot proceed, for a reason the operator can act on. */
export class BackupError extends Error {}

/** The SQLite file a `DATABASE_URL` names; PostgreSQL and memory databases have their own answer. */
export function sqlitePathOf(databaseUrl: string, command: 'backup' | 'restore'): string {
  if (databaseUrl.startsWith('postgres')) {
    throw new BackupError(
      command === 'backup'
        ? 'DATABASE_URL is PostgreSQL: back it up with pg_dump --format=custom (docs/operations.md), not with this command'
        : 'DATABASE_URL is PostgreSQL: restore it with pg_restore (docs/operations.md), not with this command',
    );
  }
  const path = databaseUrl.slice('sqlite:'.length);
  if (path === ':memory:')
    throw new BackupError('DATABASE_URL is an in-memory database: there is nothing to copy');
  return resolve(path);
}

/** Tables every database of ours has since its first migration. */
const OUR_TABLES = ['kysely_migration', 'app_settings', 'users', 'orders'];

/**
 * Copies the live database with SQLite's online backup API, never a file copy: the copy is one
 * consistent snapshot of every committed transaction, even while the server keeps writing (WAL mode
 * lets it). The whole copy is one step, one read transaction, so concurrent writes never make it
 * start over. It is written under a temporary name with mode 0600 (it holds the PIN hashes, and the
 * keys unless they come from outside), checked, then renamed: a file with the final name is complete.
 */
export async function backupSqlite(
  databasePath: string,
  destination: string,
): Promise<{ path: string; bytes: number }> {
  const target = resolve(destination);
  if (!existsSync(databasePath)) throw new BackupError(`There is no database at ${databasePath}`);
  if (existsSync(target)) throw new BackupError(`${target} already exists: choose a new name`);
  if (!existsSync(dirname(target))) throw new BackupError(`The folder ${dirname(target)} does not exist`);
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  closeSync(openSync(temporary, 'wx', 0o600));
  try {
    const source = new SQLite(databasePath, { readonly: true, fileMustExist: true, timeout: 5000 });
    try {
      await source.backup(temporary, { progress: () => Number.MAX_SAFE_INTEGER });
    } finally {
      source.close();
    }
    const copy = new SQLite(temporary, { fileMustExist: true });
    try {
      // One self-contained file: the copy inherits WAL mode from its source, which would need -wal files.
      copy.pragma('journal_mode = DELETE');
      assertSound(copy, 'The copy');
    } finally {
      copy.close();
    }
    syncFile(temporary);
    renameSync(temporary, target);
    syncFile(dirname(target));
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  return { path: target, bytes: statSync(target).size };
}

/**
 * Puts a backup in place of the database. Refused while any process has the database open: a
 * server holds it open from start to stop, and in WAL mode every open connection holds a shared
 * lock on the database's -shm file, so an EXCLUSIVE lock is granted only when nobody else has it
 * open. The OS releases those locks when a process dies, so a crashed server does not block a
 * restore, and nothing stale (a pid file) can. The replaced database is kept beside it.
 */
export async function restoreSqlite(databasePath: string, from: string): Promise<{ keptAs: string | undefined }> {
  const backup = resolve(from);
  if (!existsSync(backup)) throw new BackupError(`There is no file at ${backup}`);
  let checked: SQLite.Database | undefined;
  let found: { migrations: string[]; columns: Set<string> };
  try {
    checked = new SQLite(backup, { readonly: true, fileMustExist: true });
    assertSound(checked, backup);
    found = {
      migrations: (checked.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map(
        (row) => row.name,
      ),
      columns: new Set((checked.prepare(COLUMNS_QUERY).all() as Column[]).map(columnName)),
    };
  } catch (error) {
    if (error instanceof BackupError) throw error;
    // SQLite reads the header only at the first statement, so a file that is not a database fails here.
    throw new BackupError(`${backup} is not a SQLite database: ${(error as Error).message}`);
  } finally {
    checked?.close();
  }
  await assertStartable(backup, found);

  // The copy first, beside its place: should it fail, the database has not been touched.
  const temporary = join(dirname(databasePath), `.${basename(databasePath)}.${process.pid}.restoring`);
  copyFileSync(backup, temporary, constants.COPYFILE_EXCL);
  try {
    chmodSync(temporary, 0o600);
    syncFile(temporary);
    let keptAs: string | undefined;
    if (existsSync(databasePath)) {
      checkpointWhileAlone(databasePath);
      keptAs = `${databasePath}.replaced-${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '')}Z`;
      renameSync(databasePath, keptAs);
      // A -wal left beside the new file would be replayed into it; it belongs to the replaced one.
      for (const suffix of ['-wal', '-shm']) {
        if (existsSync(`${databasePath}${suffix}`))
          renameSync(`${databasePath}${suffix}`, `${keptAs}${suffix}`);
      }
    }
    renameSync(temporary, databasePath);
    syncFile(dirname(databasePath));
    return { keptAs };
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** Takes the exclusive lock (refusing if a server has the database open) and folds the WAL in. */
function checkpointWhileAlone(databasePath: string): void {
  const database = new SQLite(databasePath, { fileMustExist: true, timeout: 0 });
  try {
    database.pragma('locking_mode = EXCLUSIVE');
    database.exec('BEGIN EXCLUSIVE');
    database.exec('COMMIT');
    database.pragma('wal_checkpoint(TRUNCATE)');
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new BackupError(
        `A server (or another process) has ${databasePath} open: stop it, then restore; nothing was changed`,
      );
    }
    throw error;
  } finally {
    database.close();
  }
}

function assertSound(database: SQLite.Database, name: string): void {
  const result = database.pragma('integrity_check', { simple: true });
  if (result !== 'ok') throw new BackupError(`${name} fails SQLite's integrity check: ${String(result)}`);
  const tables = new Set(
    (database.prepare(`select name from sqlite_master where type = 'table'`).all() as { name: string }[]).map(
      (row) => row.name,
    ),
  );
  const missing = OUR_TABLES.filter((table) => !tables.has(table));
  if (missing.length > 0)
    throw new BackupError(`${name} is not a restaurant POS database (no ${missing.join(', ')} table)`);
}

/** Every column of every table, as `table.column`. */
const COLUMNS_QUERY = `select m.name as table_name, p.name as column_name from sqlite_master m
  join pragma_table_info(m.name) p where m.type = 'table' and m.name not like 'sqlite_%'`;
type Column = { table_name: string; column_name: string };
const columnName = (row: Column) => `${row.table_name}.${row.column_name}`;

/**
 * What the next start needs of the file (issue 35), checked before anything is replaced: its
 * migrations are ours and in order (a backup of a newer version, or one with a gap, stops the start),
 * and its tables have every column those migrations make, compared with a database migrated to the
 * same point in memory. Tables with the right names alone are not a database the server can open.
 */
async function assertStartable(name: string, found: { migrations: string[]; columns: Set<string> }) {
  const known = Object.keys(await migrationProvider.getMigrations()).sort();
  const unknown = found.migrations.filter((migration) => !known.includes(migration));
  if (unknown.length > 0) {
    throw new BackupError(
      `${name} comes from a newer version of the server (unknown migrations: ${unknown.join(', ')}); nothing was changed`,
    );
  }
  const last = found.migrations.at(-1);
  if (last === undefined || found.migrations.some((migration, index) => migration !== known[index])) {
    throw new BackupError(`${name} does not record this server's migrations in order; nothing was changed`);
  }
  const reference = openDatabase('sqlite::memory:');
  try {
    const { error } = await new Migrator({ db: reference.db, provider: migrationProvider }).migrateTo(last);
    if (error) throw error;
    const { rows } = await sql<Column>`${sql.raw(COLUMNS_QUERY)}`.execute(reference.db);
    const missing = rows.map(columnName).filter((column) => !found.columns.has(column));
    if (missing.length > 0) {
      throw new BackupError(
        `${name} lacks what its migrations make (${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}); nothing was changed`,
      );
    }
  } finally {
    await reference.close();
  }
}

function syncFile(path: string): void {
  const descriptor = openSync(path, 'r');
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}
