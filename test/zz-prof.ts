import { buildApp } from '../src/app';
import { manualClock } from '../src/core/clock';
import { testConfig } from './helpers/app';
import { openTestDatabase, sqliteTarget } from './helpers/database';
for (let i = 0; i < 5; i++) {
  const t0 = performance.now();
  const opened = await openTestDatabase(sqliteTarget);
  const t1 = performance.now();
  const app = await buildApp(testConfig({ DATABASE_URL: opened.url }), { database: opened.database, clock: manualClock(0), startJobs: false });
  const t2 = performance.now();
  await app.ready();
  const t3 = performance.now();
  await app.inject({ url: '/health' });
  const t4 = performance.now();
  await app.close(); await opened.dispose();
  console.log(`migrate ${(t1-t0).toFixed(0)} build ${(t2-t1).toFixed(0)} ready ${(t3-t2).toFixed(0)} inject ${(t4-t3).toFixed(0)} close ${(performance.now()-t4).toFixed(0)}`);
}
