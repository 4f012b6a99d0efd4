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
  return `Restored ${databasePath} from ${from}.${kept} Start the server to use it.`;
}
