import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Jobs } from '../core/jobs';
import { StartupError } from '../core/startup';
import { BackupError, backupSqlite, sqlitePathOf } from './sqlite-backup';

export const SCHEDULED_BACKUP = 'scheduled-backup';

/** The backups this server wrote in its folder, and when: what pruning counts, nothing else. */
export const MANIFEST = '.pos-backups.json';

type Written = { name: string; at: number };

/**
 * With POS_BACKUP_DIR and POS_BACKUP_EVERY, a backup of the SQLite database every so often into that
 * folder, keeping the newest POS_BACKUP_KEEP. Each is complete when it has its name (backupSqlite
 * writes under a temporary name and renames), so a power cut mid-backup leaves no half file among
 * them, and pruning only ever counts complete ones.
 *
 * The folder must not be writable by group or others (refused at start and before each backup): who
 * can write there could plant files or swap the manifest. Pruning goes by the time each backup was
 * written, from the manifest, never by file names: a file named for the year 9999 once made every
 * new backup the oldest by name, deleted at once (issue 35).
 */
export function registerScheduledBackups(jobs: Jobs, config: Config, log: FastifyBaseLogger): void {
  const { dir, everyMs, keep } = config.backups;
  if (dir === undefined || everyMs === undefined) return;
  const databasePath = sqlitePathOf(config.databaseUrl, 'backup');
  const problem = folderProblem(dir);
  if (problem) throw new StartupError(problem);
  const writeBackup = async () => {
    const refused = folderProblem(dir);
    if (refused) throw new BackupError(refused);
    const at = Date.now();
    const name = `pos-${new Date(at).toISOString().replace(/[-:]/g, '')}.db`;
    const { path, bytes } = await backupSqlite(databasePath, join(dir, name));
    const removed = pruneBackups(dir, [...readManifest(dir), { name, at }], keep);
    log.info({ path, bytes, removed }, 'backup written');
  };
  // A box switched off every night never lives a whole `1d` interval: a backup older than the
  // interval (or none) is due as soon as the server starts.
  const isDueAtStart = () => {
    const last = lastBackupAt(dir);
    return last === null || Date.now() - last >= everyMs;
  };
  jobs.register(SCHEDULED_BACKUP, everyMs, writeBackup, { isDueAtStart });
}

/** When the newest backup this server wrote in `dir` (and still there) was written; null: none. */
export function lastBackupAt(dir: string): number | null {
  const times = readManifest(dir)
    .filter((entry) => existsSync(join(dir, entry.name)))
    .map((entry) => entry.at);
  return times.length === 0 ? null : Math.max(...times);
}

function folderProblem(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  if ((statSync(dir).mode & 0o022) === 0) return undefined;
  return `POS_BACKUP_DIR ${dir} is writable by group or others: make it private (chmod go-w) so no one else can plant or swap backups`;
}

function readManifest(dir: string): Written[] {
  const path = join(dir, MANIFEST);
  if (!existsSync(path)) return [];
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  return Array.isArray(parsed)
    ? parsed.filter(
        (entry): entry is Written =>
          typeof entry?.name === 'string' && !entry.name.includes('/') && Number.isSafeInteger(entry.at),
      )
    : [];
}

/** Deletes all but the `keep` newest backups the manifest lists, by when they were written; other files are left alone. */
function pruneBackups(dir: string, written: Written[], keep: number): string[] {
  const newestFirst = written
    .filter((entry) => existsSync(join(dir, entry.name)))
    .sort((a, b) => b.at - a.at);
  const removed = newestFirst.slice(keep).map((entry) => entry.name);
  for (const name of removed) rmSync(join(dir, name), { force: true });
  const temporary = join(dir, `${MANIFEST}.${process.pid}.tmp`);
  writeFileSync(temporary, JSON.stringify(newestFirst.slice(0, keep)), { mode: 0o600 });
  renameSync(temporary, join(dir, MANIFEST));
  return removed;
}
