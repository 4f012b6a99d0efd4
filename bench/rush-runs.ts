import { PhoenixdSimulator } from '../test/phoenixd-sim/simulator';
import { ApiSession, createWaiters, loginEach, type Menu, seedMenuAndFloor } from './lib/api';
import { type BenchDatabase, type Engine, freshDatabase } from './lib/databases';
import { APP_ADMIN, type RunningServer, startAppServer, startBaselineServer } from './lib/processes';
import { closeOpenOrders, type RushResult, runRush, type Tablet } from './rush';

export type RushSettings = { connections: number; seconds: number; cpuProfileDir: string | undefined };
export type RushRun = RushResult & {
  /** Lightning bills paid through the phoenixd simulator, and how many of its webhooks our server took (2xx). */
  lightning: { paid: number; settledByWebhook: number };
  peakRssMb: number;
  /** Server CPU time per answered request, in µs: steadier than req/s when the machine's speed drifts. */
  cpuMicrosPerRequest: number;
};

const WARM_UP_SECONDS = 2;
const DRAIN_MS = 3000;

const WEBHOOK_SECRET = 'bench-webhook-secret';

/**
 * Our whole server: one waiter account and login session per connection, each serving its own table,
 * with a phoenixd simulator as its Lightning node paying a share of the bills from outside.
 */
export async function rushOurServer(
  engine: Engine,
  postgresUrl: string | undefined,
  settings: RushSettings,
): Promise<RushRun> {
  return withDatabase(engine, postgresUrl, async (database) => {
    const simulator = await PhoenixdSimulator.start({ webhookSecret: WEBHOOK_SECRET });
    const server = await startAppServer(database.url, {
      cpuProfileDir: settings.cpuProfileDir,
      env: {
        PHOENIXD_URL: simulator.url,
        PHOENIXD_PASSWORD: simulator.password,
        PHOENIXD_WEBHOOK_SECRET: WEBHOOK_SECRET,
        POS_RATE_SOURCE: 'fixed:2000000',
      },
    });
    simulator.webhookUrl = `${server.baseUrl}/webhook/phoenixd`;
    try {
      const admin = await ApiSession.login(server.baseUrl, APP_ADMIN.name, APP_ADMIN.pin);
      const menu = await seedMenuAndFloor(admin, { dishes: 20, tables: settings.connections });
      const waiters = await createWaiters(admin, settings.connections);
      const sessions = await loginEach(server.baseUrl, waiters);
      const tablets = sessions.map((session, index) => ({
        cookie: session.cookie,
        tableId: menu.tableIds[index] as string,
      }));
      return await measure(server, settings, tablets, menu, simulator);
    } finally {
      await server.stop();
      await simulator.stop();
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
  simulator?: PhoenixdSimulator,
): Promise<RushRun> {
  const lightning = { paid: 0, settledByWebhook: 0 };
  const payInvoice = simulator
    ? (invoice: string) => {
        simulator.receivePayment(invoice).then(({ webhook }) => {
          lightning.paid++;
          if (webhook && webhook.status >= 200 && webhook.status < 300) lightning.settledByWebhook++;
        }, console.error);
      }
    : undefined;
  const options = {
    baseUrl: server.baseUrl,
    connections: settings.connections,
    tablets,
    menu,
    ...(payInvoice && { payInvoice }),
  };
  await runRush({ ...options, seconds: WARM_UP_SECONDS });
  // autocannon stops without waiting for answers: let the server finish what it was given first.
  await new Promise((resolve) => setTimeout(resolve, DRAIN_MS));
  await closeOpenOrders(server.baseUrl, tablets[0]?.cookie);
  lightning.paid = 0;
  lightning.settledByWebhook = 0;
  const cpuBefore = server.cpuSeconds();
  const result = await runRush({ ...options, seconds: settings.seconds });
  const cpuMicrosPerRequest = ((server.cpuSeconds() - cpuBefore) * 1e6) / result.requests;
  // Webhooks still on their way when autocannon stopped are not counted: a lower bound.
  return { ...result, lightning: { ...lightning }, peakRssMb: server.peakRssMb(), cpuMicrosPerRequest };
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
