import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PhoenixdSimulator } from '../test/phoenixd-sim/simulator';
import { ApiSession, createWaiters, loginEach, type Menu, seedMenuAndFloor } from './lib/api';
import { type Hotspot, selfTimeByPackage, topHotspots } from './lib/cpu-profile';
import { type BenchDatabase, type Engine, freshDatabase } from './lib/databases';
import { type DeliveryFigures, DeliveryTraffic } from './lib/delivery-traffic';
import { APP_ADMIN, type RunningServer, startAppServer, startBaselineServer } from './lib/processes';
import { closeOpenOrders, type RushResult, runRush, type Tablet } from './rush';

export type RushSettings = {
  connections: number;
  seconds: number;
  /** A steady pace in requests per second for all servers together, instead of as fast as they answer. */
  rate?: number | undefined;
  cpuProfileDir: string | undefined;
  /** Server processes on the one database (PostgreSQL only for more than one); tablets take turns among them. */
  processes?: number;
  /** Something to run alongside the rush (live-stream subscribers), attached once the floor is seeded. */
  watcher?: RushWatcher | undefined;
  /** Counts each request kind's statements and bytes during the measured run (statement-census.mjs). */
  census?: boolean;
  /** Uber Eats and Rappi orders arriving during the rush (ours only: the baseline takes none). */
  delivery?: boolean;
};

/** Per kind of request (or `outside any request`, `live streams`): what the census counted. */
/** Events written, by type: how many and their payloads' bytes. */
export type EventCounts = Record<string, { count: number; payloadBytes: number }>;
export type Census = Record<
  string,
  { requests: number; statements: number; databaseBytes: number; answerBytes: number; events: EventCounts }
>;

export function addEventCounts(total: EventCounts, counted: EventCounts): void {
  for (const [type, events] of Object.entries(counted)) {
    total[type] ??= { count: 0, payloadBytes: 0 };
    const sum = total[type];
    sum.count += events.count;
    sum.payloadBytes += events.payloadBytes;
  }
}

/** Adds `counted` into `total`, kind by kind. */
export function addCensus(total: Census, counted: Census): void {
  for (const [kind, counts] of Object.entries(counted)) {
    const sum = total[kind] ?? { requests: 0, statements: 0, databaseBytes: 0, answerBytes: 0, events: {} };
    sum.requests += counts.requests;
    sum.statements += counts.statements;
    sum.databaseBytes += counts.databaseBytes;
    sum.answerBytes += counts.answerBytes;
    addEventCounts(sum.events, counts.events ?? {});
    total[kind] = sum;
  }
}

/** Told the running servers (and a login cookie, none for the baseline) before the warm-up, and when the measured run starts and ends. */
export type RushWatcher = {
  attach: (servers: RunningServer[], cookie: string | undefined, database: BenchDatabase) => Promise<void>;
  measuring: (isMeasuring: boolean) => void;
  /** Before the servers stop. */
  detach: () => Promise<void>;
  /** Every answer a tablet receives. */
  onAnswer?: (step: string, status: number, body: string) => void;
};
/**
 * Lightning bills paid through the phoenixd simulator during the measured run: how many, how many of
 * them paid a liquidity fee (so arrived short, or negative), how many of its webhooks our server took
 * (2xx), and how many bills then stood settled exactly once (their payment settled, the bill Paid
 * with nothing over: a payment counted twice would leave a negative balance).
 */
export type LightningFigures = {
  paid: number;
  withFee: number;
  settledByWebhook: number;
  settledOnce: number;
};

export type RushRun = RushResult & {
  lightning: LightningFigures;
  /** With `census`: every server's counts added up, and the CPU profile of the measured run. */
  census?: Census;
  profile?: { byPackage: Hotspot[]; hotspots: Hotspot[] };
  /** With `delivery`: the orders the platforms sent during the measured run and how they were taken in. */
  delivery?: DeliveryFigures;
  peakRssMb: number;
  /** Server CPU time per answered request, in µs: steadier than req/s when the machine's speed drifts. */
  cpuMicrosPerRequest: number;
};

const WARM_UP_SECONDS = 2;
const DRAIN_MS = 3000;

const WEBHOOK_SECRET = 'bench-webhook-secret';
/** One Lightning payment in this many arrives net of a liquidity fee, as on a node buying inbound liquidity. */
const FEE_EVERY = 10;
/** More than a small bill brings at the bench's rate (1.00 = 50 sat), so some arrive negative. */
const LIQUIDITY_FEE_SAT = 1500;

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
    const delivery = settings.delivery ? await DeliveryTraffic.start() : undefined;
    const env = {
      ...delivery?.env(),
      PHOENIXD_URL: simulator.url,
      PHOENIXD_PASSWORD: simulator.password,
      PHOENIXD_WEBHOOK_SECRET: WEBHOOK_SECRET,
      POS_RATE_SOURCE: 'fixed:2000000',
    };
    // One after the other: the first creates the schema and the admin the others then find.
    const servers: RunningServer[] = [];
    const census = settings.census ? new CensusFiles() : undefined;
    try {
      for (let index = 0; index < (settings.processes ?? 1); index++) {
        servers.push(
          await startAppServer(database.url, {
            cpuProfileDir: index === 0 ? settings.cpuProfileDir : undefined,
            env,
            censusFile: census?.fileOf(index),
          }),
        );
      }
      const server = servers[0] as RunningServer;
      simulator.webhookUrl = `${server.baseUrl}/webhook/phoenixd`;
      delivery?.deliverTo(server.baseUrl);
      const admin = await ApiSession.login(server.baseUrl, APP_ADMIN.name, APP_ADMIN.pin);
      const menu = await seedMenuAndFloor(admin, { dishes: 20, tables: settings.connections });
      const waiters = await createWaiters(admin, settings.connections);
      const sessions = await loginEach(server.baseUrl, waiters);
      const tablets = sessions.map((session, index) => ({
        cookie: session.cookie,
        tableId: menu.tableIds[index] as string,
      }));
      await settings.watcher?.attach(servers, admin.cookie, database);
      return await measure(servers, settings, tablets, menu, { simulator, census, delivery });
    } finally {
      await settings.watcher?.detach();
      for (const server of servers) await server.stop();
      await simulator.stop();
      await delivery?.stop();
      census?.remove();
    }
  });
}

/**
 * The bare baseline on a database seeded the same way (through our API, before the baseline starts),
 * with as many processes and the same watcher as ours.
 */
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
    const servers: RunningServer[] = [];
    const census = settings.census ? new CensusFiles() : undefined;
    try {
      for (let index = 0; index < (settings.processes ?? 1); index++) {
        servers.push(await startBaselineServer(database.url, census?.fileOf(index)));
      }
      const tablets = menu.tableIds.map((tableId) => ({ cookie: undefined, tableId }));
      await settings.watcher?.attach(servers, undefined, database);
      return await measure(servers, settings, tablets, menu, { census });
    } finally {
      await settings.watcher?.detach();
      for (const server of servers) await server.stop();
      census?.remove();
    }
  });
}

async function measure(
  servers: RunningServer[],
  settings: RushSettings,
  tablets: Tablet[],
  menu: Menu,
  outside: {
    simulator?: PhoenixdSimulator;
    census?: CensusFiles | undefined;
    delivery?: DeliveryTraffic | undefined;
  },
): Promise<RushRun> {
  const { simulator, census, delivery } = outside;
  const lightning: LightningFigures = { paid: 0, withFee: 0, settledByWebhook: 0, settledOnce: 0 };
  const paidPaymentIds: string[] = [];
  let invoices = 0;
  const payInvoice = simulator
    ? (invoice: string) => {
        const withFee = invoices++ % FEE_EVERY === 0;
        const options = withFee ? { liquidityFeeSat: LIQUIDITY_FEE_SAT } : {};
        simulator.receivePayment(invoice, options).then(async ({ payment, webhooks }) => {
          lightning.paid++;
          if (withFee) lightning.withFee++;
          if (payment.externalId) paidPaymentIds.push(payment.externalId);
          const [delivery] = await webhooks;
          if (delivery && delivery.status >= 200 && delivery.status < 300) lightning.settledByWebhook++;
        }, console.error);
      }
    : undefined;
  // Tablets take turns among the servers, each server gets its own autocannon with its share.
  const shares = servers.map((server, index) => {
    const own = tablets.filter((_, tablet) => tablet % servers.length === index);
    return {
      baseUrl: server.baseUrl,
      connections: own.length,
      ...(settings.rate && { rate: Math.max(1, Math.round(settings.rate / servers.length)) }),
      tablets: own,
      menu,
      ...(payInvoice && { payInvoice }),
      ...(settings.watcher?.onAnswer && { onAnswer: settings.watcher.onAnswer }),
    };
  });
  const rushAll = (seconds: number) =>
    Promise.all(shares.map((share) => runRush({ ...share, seconds }))).then(mergeResults);
  await rushAll(WARM_UP_SECONDS);
  // autocannon stops without waiting for answers: let the server finish what it was given first.
  await new Promise((resolve) => setTimeout(resolve, DRAIN_MS));
  await closeOpenOrders((servers[0] as RunningServer).baseUrl, tablets[0]?.cookie);
  Object.assign(lightning, { paid: 0, withFee: 0, settledByWebhook: 0, settledOnce: 0 });
  paidPaymentIds.length = 0;
  const cpuSeconds = () => servers.reduce((sum, server) => sum + server.cpuSeconds(), 0);
  if (census) await census.collect(servers);
  const cpuBefore = cpuSeconds();
  settings.watcher?.measuring(true);
  delivery?.begin(menu);
  const result = await rushAll(settings.seconds);
  delivery?.end();
  settings.watcher?.measuring(false);
  const counted = census ? await census.collect(servers) : undefined;
  const cpuMicrosPerRequest = ((cpuSeconds() - cpuBefore) * 1e6) / result.requests;
  const peakRssMb = servers.reduce((sum, server) => sum + server.peakRssMb(), 0);
  if (simulator) {
    await simulator.webhooksDelivered();
    lightning.settledOnce = await countSettledOnce((servers[0] as RunningServer).baseUrl, paidPaymentIds);
  }
  const deliveryFigures = await delivery?.settle();
  return {
    ...result,
    ...(deliveryFigures && { delivery: deliveryFigures }),
    lightning: { ...lightning },
    peakRssMb,
    cpuMicrosPerRequest,
    ...(counted && census && { census: counted, profile: census.profile() }),
  };
}

/** Where each server process of a run writes its census when sent SIGUSR2 (statement-census.mjs). */
class CensusFiles {
  private readonly dir = mkdtempSync(join(tmpdir(), 'census-'));

  fileOf(index: number): string {
    return join(this.dir, `server-${index}.json`);
  }

  /** Every server's counts since the last collection, added up; each server starts counting again. */
  async collect(servers: RunningServer[]): Promise<Census> {
    const files = servers.map((_, index) => this.fileOf(index));
    for (const file of files) rmSync(file, { force: true });
    for (const server of servers) server.child.kill('SIGUSR2');
    const deadline = Date.now() + 10_000;
    while (!files.every((file) => existsSync(file))) {
      if (Date.now() > deadline) throw new Error('a server wrote no census within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const total: Census = {};
    for (const file of files) addCensus(total, JSON.parse(readFileSync(file, 'utf8')) as Census);
    return total;
  }

  /** The CPU profiles the servers wrote at the last collection: the measured run's. */
  profile(): { byPackage: Hotspot[]; hotspots: Hotspot[] } {
    return { byPackage: selfTimeByPackage(this.dir), hotspots: topHotspots(this.dir, 60) };
  }

  remove(): void {
    // CENSUS_PROFILES_TO keeps the measured runs' profiles (DevTools reads them) before the folder goes.
    const keepIn = process.env.CENSUS_PROFILES_TO;
    if (keepIn) {
      for (const name of readdirSync(this.dir).filter((file) => file.endsWith('.cpuprofile'))) {
        copyFileSync(join(this.dir, name), join(keepIn, name));
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** How many of these Lightning payments are settled and left their bill Paid with a zero balance. */
async function countSettledOnce(baseUrl: string, paymentIds: string[]): Promise<number> {
  const admin = await ApiSession.login(baseUrl, APP_ADMIN.name, APP_ADMIN.pin);
  let settledOnce = 0;
  for (const id of paymentIds) {
    const payment = (await admin.request('GET', `/payments/${id}`)).body as {
      status: string;
      ticket_id: string;
    };
    const ticket = (await admin.request('GET', `/tickets/${payment.ticket_id}`)).body as {
      status: number;
      balance: number;
    };
    if (payment.status === 'settled' && ticket.status === 2 && ticket.balance === 0) settledOnce++;
    else
      console.error(
        `Lightning payment ${id}: ${payment.status}, bill status ${ticket.status} balance ${ticket.balance}`,
      );
  }
  return settledOnce;
}

/**
 * Several servers' runs as one: throughput and counts add up; p99 and max are the worst server's
 * (a safe side for a percentile that cannot be merged exactly), p50 the request-weighted mean.
 */
function mergeResults(results: RushResult[]): RushResult {
  if (results.length === 1) return results[0] as RushResult;
  const sum = (pick: (result: RushResult) => number) =>
    results.reduce((total, result) => total + pick(result), 0);
  const requests = sum((result) => result.requests);
  const failures: Record<string, number> = {};
  for (const result of results) {
    for (const [failure, count] of Object.entries(result.failures))
      failures[failure] = (failures[failure] ?? 0) + count;
  }
  return {
    requestsPerSecond: sum((result) => result.requestsPerSecond),
    p50Ms: Math.round(sum((result) => result.p50Ms * result.requests) / requests),
    p99Ms: Math.max(...results.map((result) => result.p99Ms)),
    maxMs: Math.max(...results.map((result) => result.maxMs)),
    requests,
    non2xx: sum((result) => result.non2xx),
    errors: sum((result) => result.errors),
    timeouts: sum((result) => result.timeouts),
    failures,
  };
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
