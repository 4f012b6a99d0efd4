import { ApiSession, createWaiters, type Menu, seedMenuAndFloor } from './lib/api';
import { type BenchDatabase, type Engine, freshDatabase } from './lib/databases';
import { APP_ADMIN, type RunningServer, startAppServer, startBaselineServer } from './lib/processes';
import { cancelOpenOrders, type RushResult, runRush, type Tablet } from './rush';

export type RushSettings = { connections: number; seconds: number; cpuProfileDir: string | undefined };
export type RushRun = RushResult & {
  peakRssMb: number;
  /** Server CPU time per answered request, in µs: steadier than req/s when the machine's speed drifts. */
  cpuMicrosPerRequest: number;
};

const WARM_UP_SECONDS = 2;
const DRAIN_MS = 3000;

/** Our whole server: one waiter account and login session per connection, each serving its own table. */
export async function rushOurServer(
  engine: Engine,
  postgresUrl: string | undefined,
  settings: RushSettings,
): Promise<RushRun> {
  return withDatabase(engine, postgresUrl, async (database) => {
    const server = await startAppServer(database.url, { cpuProfileDir: settings.cpuProfileDir });
    try {
      const admin = await ApiSession.login(server.baseUrl, APP_ADMIN.name, APP_ADMIN.pin);
      const menu = await seedMenuAndFloor(admin, { dishes: 20, tables: settings.connections });
      const waiters = await createWaiters(admin, settings.connections);
      const sessions = await Promise.all(
        waiters.map((waiter) => ApiSession.login(server.baseUrl, waiter.name, waiter.pin)),
      );
      const tablets = sessions.map((session, index) => ({
        cookie: session.cookie,
        tableId: menu.tableIds[index] as string,
      }));
      return await measure(server, settings, tablets, menu);
    } finally {
      await server.stop();
    }
  });
}

/** The bare baseline on a database seeded the same way (through our API, before the baseline starts). */
export async function rushBaseline(
  engine: Engine,
  postgresUrl: string | undefined,
  settings: RushSettings,
): Promise<RushRun> {
  return withDatabase(engine, postgresUrl, async (database) => {
    const seeder = await startAppServer(database.url);
    let menu: Menu;
    try {
      const admin = await ApiSession.login(seeder.baseUrl, APP_ADMIN.name, APP_ADMIN.pin);
      menu = await seedMenuAndFloor(admin, { dishes: 20, tables: settings.connections });
    } finally {
      await seeder.stop();
    }
    const server = await startBaselineServer(database.url);
    try {
      const tablets = menu.tableIds.map((tableId) => ({ cookie: undefined, tableId }));
      return await measure(server, settings, tablets, menu);
    } finally {
      await server.stop();
    }
  });
}

async function measure(
  server: RunningServer,
  settings: RushSettings,
  tablets: Tablet[],
  menu: Menu,
): Promise<RushRun> {
  const options = { baseUrl: server.baseUrl, connections: settings.connections, tablets, menu };
  await runRush({ ...options, seconds: WARM_UP_SECONDS });
  // autocannon stops without waiting for answers: let the server finish what it was given first.
  await new Promise((resolve) => setTimeout(resolve, DRAIN_MS));
  await cancelOpenOrders(server.baseUrl, tablets[0]?.cookie);
  const cpuBefore = server.cpuSeconds();
  const result = await runRush({ ...options, seconds: settings.seconds });
  const cpuMicrosPerRequest = ((server.cpuSeconds() - cpuBefore) * 1e6) / result.requests;
  return { ...result, peakRssMb: server.peakRssMb(), cpuMicrosPerRequest };
}

async function withDatabase<T>(
  engine: Engine,
  postgresUrl: string | undefined,
  work: (database: BenchDatabase) => Promise<T>,
): Promise<T> {
  const database = await freshDatabase(engine, postgresUrl);
  try {
    return await work(database);
  } finally {
    await database.drop();
  }
}
