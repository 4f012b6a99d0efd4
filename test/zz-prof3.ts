import { buildApp } from '../src/app';
import { manualClock } from '../src/core/clock';
import { testConfig } from './helpers/app';
import { openTestDatabase, sqliteTarget } from './helpers/database';
const times: number[] = [];
for (let i = 0; i < 40; i++) {
  const opened = await openTestDatabase(sqliteTarget);
  const t0 = performance.now();
  const app = await buildApp(testConfig({ DATABASE_URL: opened.url }), { database: opened.database, clock: manualClock(0), startJobs: false });
  await app.ready();
  times.push(performance.now() - t0);
  await app.close(); await opened.dispose();
}
times.shift(); times.sort((a,b)=>a-b);
console.log('build+ready median', times[12].toFixed(0), 'min', times[0].toFixed(0));
