import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Jobs } from '../core/jobs';
import { backupSqlite, sqlitePathOf } from './sqlite-backup';

export const SCHEDULED_BACKUP = 'scheduled-backup';

/** pos-20261125T041200.123Z.db: sorting the names sorts by time. */
const BACKUP_NAME = /^pos-\d{8}T\d{6}\.\d{3}Z\.db$/;

/**
 * With POS_BACKUP_DIR and POS_BACKUP_EVERY, a backup of the SQLite database every so often into that
 * folder, keeping the newest POS_BACKUP_KEEP. Each is complete when it has its name (backupSqlite
 * writes under a temporary name and renames), so a power cut mid-backup leaves no half file among
 * them, and pruning only ever counts complete ones.
 */
export function registerScheduledBackups(jobs: Jobs, config: Config, log: FastifyBaseLogger): void {
  const { dir, everyMs, keep } = config.backups;
  if (dir === undefined || everyMs === undefined) return;
  const databasePath = sqlitePathOf(config.databaseUrl, 'backup');
  jobs.register(SCHEDULED_BACKUP, everyMs, async () => {
    const name = `pos-${new Date().toISOString().replace(/[-:]/g, '')}.db`;
    const { path, bytes } = await backupSqlite(databasePath, join(dir, name));
    const removed = pruneBackups(dir, keep);
    log.info({ path, bytes, removed }, 'backup written');
  });
}

/** Deletes all but the newest `keep` backups of ours in `dir`; other files there are left alone. */
export function pruneBackups(dir: string, keep: number): string[] {
  const backups = readdirSync(dir)
    .filter((file) => BACKUP_NAME.test(file))
    .sort();
  const removed = backups.slice(0, Math.max(0, backups.length - keep));
  for (const file of removed) rmSync(join(dir, file), { force: true });
  return removed;
}
