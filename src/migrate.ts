import { ConfigError, loadConfig } from './config';
import { migrateToLatest, openDatabase } from './core/db/database';

/** `npm run migrate`: brings the configured database to the latest schema and says what ran. */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl);
  try {
    const applied = await migrateToLatest(database.db);
    console.log(applied.length === 0 ? 'Database is up to date.' : `Applied: ${applied.join(', ')}`);
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
