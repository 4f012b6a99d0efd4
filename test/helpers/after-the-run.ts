import { dropRunTemplates } from './database';

/**
 * Run by `npm test` and `npm run test:smoke` after the test runner, whatever its outcome: no test
 * process knows it is the last to use the migrated template they share, so a developer's PostgreSQL
 * would otherwise keep one after every run.
 */
try {
  await dropRunTemplates();
} catch (error) {
  console.error(`Could not drop the run's template database: ${(error as Error).message}`);
}
