import { performance } from 'node:perf_hooks';
import { ApiSession, seedMenuAndFloor } from './lib/api';
import { seedStockItems, writeStockHistory } from './lib/bulk-movements';
import { insertOrders, sampleDay } from './lib/bulk-orders';
import { type Engine, freshDatabase } from './lib/databases';
import { APP_ADMIN, startAppServer } from './lib/processes';
import { percentile } from './lib/report';

export type QueryTiming = { query: string; p50Ms: number; p99Ms: number; status: number };
export type ScaleStep = {
  orders: number;
  seedSeconds: number;
  movements: number;
  movementSeconds: number;
  peakRssMb: number;
  timings: QueryTiming[];
};

export const SCALE_SIZES = [10_000, 100_000, 1_000_000];
const WARM_UP_REQUESTS = 10;
const TIMED_REQUESTS = 50;
/** Stock movements per order: what a plate's recipe of about three items records when it is sent. */
const MOVEMENTS_PER_ORDER = 3;

/**
 * Grows one database through the sizes (seeding straight into it while our server is stopped), and
 * after each size starts the server and times the reporting queries over HTTP, one request at a time.
 */
export async function runScale(
  engine: Engine,
  postgresUrl: string | undefined,
  options: { maxOrders: number; cpuProfileDir: string | undefined; onStep: (step: ScaleStep) => void },
): Promise<ScaleStep[]> {
  const database = await freshDatabase(engine, postgresUrl);
  try {
    const seeder = await startAppServer(database.url);
    let adminId: string;
    try {
      const admin = await ApiSession.login(seeder.baseUrl, APP_ADMIN.name, APP_ADMIN.pin);
      await seedMenuAndFloor(admin, { dishes: 20, tables: 40 });
      await seedStockItems(admin);
      adminId = admin.userId;
    } finally {
      await seeder.stop();
    }
    const history = { now: Date.now(), userId: adminId, waiter: APP_ADMIN.name };
    const day = sampleDay(history);
    const week = `from=${day}&to=${daysAfter(day, 6)}`;
    const queries = [
      `/orders/total-sales/${day}`,
      `/orders/date-range?start_date=${day}&end_date=${day}`,
      '/orders?status=pending&limit=100',
      `/reports/sales?from=${day}&to=${day}&group_by=hour`,
      `/reports/sales?from=${day}&to=${day}&group_by=payment_method`,
      `/reports/sales?from=${day}&to=${day}&group_by=dish`,
      `/reports/sales?${week}&group_by=day`,
      `/reports/sales?${week}&group_by=dish`,
      `/reports/inventory?${week}`,
      `/reports/inventory?from=${day}&to=${daysAfter(day, 27)}`,
      `/reports/dashboard?date=${day}`,
    ];
    const steps: ScaleStep[] = [];
    let seeded = 0;
    for (const size of SCALE_SIZES.filter((size) => size <= options.maxOrders)) {
      const started = performance.now();
      await insertOrders(database, history, size - seeded);
      seeded = size;
      const seedSeconds = (performance.now() - started) / 1000;
      const movements = size * MOVEMENTS_PER_ORDER;
      await writeStockHistory(database, history, movements);
      const movementSeconds = (performance.now() - started) / 1000 - seedSeconds;
      const server = await startAppServer(database.url, { cpuProfileDir: options.cpuProfileDir });
      try {
        const timings: QueryTiming[] = [];
        // A session per query: slow queries at 1M orders outlast one access token.
        for (const query of queries) {
          const session = await ApiSession.login(server.baseUrl, APP_ADMIN.name, APP_ADMIN.pin);
          timings.push(await timeQuery(session, query));
        }
        const step = {
          orders: size,
          seedSeconds,
          movements,
          movementSeconds,
          peakRssMb: server.peakRssMb(),
          timings,
        };
        options.onStep(step);
        steps.push(step);
      } finally {
        await server.stop();
      }
    }
    return steps;
  } finally {
    await database.drop();
  }
}

function daysAfter(day: string, days: number): string {
  return new Date(Date.parse(day) + days * 86_400_000).toISOString().slice(0, 10);
}

async function timeQuery(session: ApiSession, path: string): Promise<QueryTiming> {
  let status = 0;
  for (let index = 0; index < WARM_UP_REQUESTS; index++) status = (await session.request('GET', path)).status;
  const samples: number[] = [];
  for (let index = 0; index < TIMED_REQUESTS; index++) {
    const started = performance.now();
    const reply = await session.request('GET', path);
    samples.push(performance.now() - started);
    if (reply.status >= 300) status = reply.status;
  }
  samples.sort((a, b) => a - b);
  return { query: path, p50Ms: percentile(samples, 0.5), p99Ms: percentile(samples, 0.99), status };
}
