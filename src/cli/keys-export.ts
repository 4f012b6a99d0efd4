import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../config';
import { migrateToLatest, openDatabase } from '../core/db/database';
import { keptSecrets } from '../core/secrets';

/**
 * Moves the keys a database keeps (generated at its first start) out to files, unchanged, so the
 * deployment guide's `POS_PIN_KEY_FILE` and `POS_JWT_SECRET_FILE` can take over without a lockout.
 * The folder must be new: it is made readable by its owner alone, and no key file is overwritten.
 */
export async function keysExportCommand(config: Config, to: string): Promise<string> {
  const database = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database.db);
    const { pinKey, jwtSecret } = await keptSecrets(database.db);
    if (pinKey === undefined && jwtSecret === undefined) {
      throw new Error(
        'This database keeps no keys: they have always come from POS_PIN_KEY and POS_JWT_SECRET',
      );
    }
    const folder = resolve(to);
    mkdirSync(folder, { mode: 0o700 });
    const written: string[] = [];
    for (const [file, value] of [
      ['pin-key', pinKey],
      ['jwt-secret', jwtSecret],
    ] as const) {
      if (value === undefined) continue;
      writeFileSync(join(folder, file), `${value}\n`, { mode: 0o600, flag: 'wx' });
      written.push(join(folder, file));
    }
    const variables = written.map((path) =>
      path.endsWith('pin-key') ? `POS_PIN_KEY_FILE=${path}` : `POS_JWT_SECRET_FILE=${path}`,
    );
    return `Keys written (owner-only): set ${variables.join(' and ')}, then restart the server.`;
  } finally {
    await database.close();
  }
}
