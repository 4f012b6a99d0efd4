import { performance } from 'node:perf_hooks';
import { ApiSession } from './lib/api';
import { type Engine, freshDatabase, postgresServerUrl } from './lib/databases';
import { APP_ADMIN, startAppServer } from './lib/processes';
import { fixed, percentile } from './lib/report';

/**
 * GET /menu on a large menu: 200 dishes, each with 3 groups of its own of 5 options (600 groups,
 * 3000 options), the answer every order screen reads. Prints p50/p99 of one request at a time and the
 * requests per second of 10 at once, on SQLite and, when a PostgreSQL URL is given, on PostgreSQL.
 * Run: `node --import tsx bench/menu.ts`.
 */
const DISHES = 200;
const GROUPS_PER_DISH = 3;
const OPTIONS_PER_GROUP = 5;
const TIMED = 300;
const CONCURRENCY = 10;
const THROUGHPUT_MS = 5000;

async function seed(admin: ApiSession): Promise<void> {
  const { id: categoryId } = await admin.expect<{ id: string }>(201, 'POST', '/categories', {
    name: 'Tacos',
    type: 'dish',
  });
  for (let dish = 0; dish < DISHES; dish++) {
    const groupIds: string[] = [];
    for (let group = 0; group < GROUPS_PER_DISH; group++) {
      const created = await admin.expect<{ id: string }>(201, 'POST', '/modifier-groups', {
        name: `Dish ${dish} group ${group}`,
        min_select: group === 0 ? 1 : 0,
        max_select: 2,
        options: Array.from({ length: OPTIONS_PER_GROUP }, (_, option) => ({
          name: `Option ${option}`,
          price_delta: option,
        })),
      });
      groupIds.push(created.id);
    }
    await admin.expect(201, 'POST', '/dishes', {
      name: `Dish ${dish}`,
      price: 50,
      category_id: categoryId,
      description: 'A dish of the bench',
      modifier_group_ids: groupIds,
    });
  }
}

async function measure(engine: Engine, postgresUrl: string | undefined): Promise<void> {
  const database = await freshDatabase(engine, postgresUrl);
  const server = await startAppServer(database.url);
  try {
    await seed(await ApiSession.login(server.baseUrl, APP_ADMIN.name, APP_ADMIN.pin));
    // A fresh session: the seeding can outlast an access token (60 s).
    const admin = await ApiSession.login(server.baseUrl, APP_ADMIN.name, APP_ADMIN.pin);
    const first = await admin.request('GET', '/menu');
    const bytes = JSON.stringify(first.body).length;
    for (let index = 0; index < 20; index++) await admin.request('GET', '/menu');
    const samples: number[] = [];
    for (let index = 0; index < TIMED; index++) {
      const start = performance.now();
      const reply = await admin.request('GET', '/menu');
      samples.push(performance.now() - start);
      if (reply.status !== 200) throw new Error(`GET /menu answered ${reply.status}`);
    }
    samples.sort((a, b) => a - b);
    let done = 0;
    const until = performance.now() + THROUGHPUT_MS;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < until) {
          await admin.request('GET', '/menu');
          done += 1;
        }
      }),
    );
    console.log(
      `${engine}: GET /menu (${DISHES} dishes × ${GROUPS_PER_DISH} groups × ${OPTIONS_PER_GROUP} options, ` +
        `${Math.round(bytes / 1024)} KiB) p50 ${fixed(percentile(samples, 0.5))} ms, ` +
        `p99 ${fixed(percentile(samples, 0.99))} ms, ${fixed(done / (THROUGHPUT_MS / 1000), 0)} req/s at ${CONCURRENCY} at once`,
    );
  } finally {
    await server.stop();
    await database.drop();
  }
}

const postgresUrl = postgresServerUrl();
await measure('sqlite', undefined);
if (postgresUrl) await measure('postgres', postgresUrl);
