import { existsSync, renameSync } from 'node:fs';
import { backupSqlite, restoreSqlite, sqlitePathOf } from '../backups/sqlite-backup';
import type { Config } from '../config';

export async function backupCommand(config: Config, to: string): Promise<string> {
  const databasePath = sqlitePathOf(config.databaseUrl, 'backup');
  const { path, bytes } = await backupSqlite(databasePath, to);
  return `Backup of ${databasePath} written to ${path} (${Math.ceil(bytes / 1024)} KB, integrity check ok).`;
}

export async function restoreCommand(config: Config, from: string): Promise<string> {
  const databasePath = sqlitePathOf(config.databaseUrl, 'restore');
  const { keptAs } = await restoreSqlite(databasePath, from);
  const kept = keptAs ? ` The replaced database is kept as ${keptAs}.` : '';
  return `Restored ${databasePath} from ${from}.${kept}${setAnchorAside(config)} Start the server to use it.`;
}

/**
 * A backup's audit chain ends before the head the replaced database published: restoring it is the
 * one rollback an operator means, so that head is set aside (kept, not deleted) instead of making
 * the restored log fail verification.
 */
function setAnchorAside(config: Config): string {
  const anchor = config.auditAnchorFile;
  if (anchor === undefined || !existsSync(anchor)) return '';
  const keptAs = `${anchor}.replaced-${new Date().toISOString().replace(/[-:]/g, '')}`;
  renameSync(anchor, keptAs);
  return ` Its published audit head is kept as ${keptAs}.`;
}
