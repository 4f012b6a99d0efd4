import { type Config, ConfigError, loadConfig } from './config';
import { migrateToLatest, openDatabase } from './core/db/database';
import { describeBuildFailure, describeConfigFailure } from './core/startup';
import { describeProgress } from './core/upgrade';

/**
 * `npm run migrate`: brings the configured database to the latest schema, then runs the backfills the
 * migrations scheduled, printing each step's progress. Interrupted, it resumes after the last batch.
 */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) return fail(describeConfigFailure(error));
    throw error;
  }
  try {
    const database = openDatabase(config.databaseUrl);
    try {
      const applied = await migrateToLatest(database.db, {
        onProgress: (progress) => console.log(describeProgress(progress)),
      });
      console.log(applied.length === 0 ? 'Database is up to date.' : `Applied: ${applied.join(', ')}`);
    } finally {
      await database.close();
    }
  } catch (error) {
    fail(describeBuildFailure(error, config));
  }
}

function fail(line: string): void {
  console.error(line);
  process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
