import { buildApp } from '../src/app';
import { manualClock } from '../src/core/clock';
import { testConfig } from './helpers/app';
import { openTestDatabase, sqliteTarget } from './helpers/database';
for (let i = 0; i < 6; i++) {
  const opened = await openTestDatabase(sqliteTarget);
  const app = await buildApp(testConfig({ DATABASE_URL: opened.url }), { database: opened.database, clock: manualClock(0), startJobs: false });
  await app.ready();
  await app.close(); await opened.dispose();
}
