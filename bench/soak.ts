import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { LiveSubscribers } from './events';
import { ApiSession, createWaiters, loginEach, seedMenuAndFloor } from './lib/api';
import { type Engine, freshDatabase, postgresServerUrl } from './lib/databases';
import { APP_ADMIN, startAppServer } from './lib/processes';
import { fixed, markdownTable } from './lib/report';
import { closeOpenOrders, runRush, type Tablet } from './rush';

/**
 * `npm run soak [-- --orders 50000 --minute 60 --subscribers 200 --db sqlite|postgres]`
 * An evening compressed: the rush's loop (seat, add, send, bill, pay, close) as fast as the server
 * answers, with `--subscribers` live streams open, until `--orders` orders were billed. Every
 * `--minute` seconds it samples the server's resident memory, the rush's p99 and how the streams were
 * served in that minute (events delivered, their p99 from the event's stamp to the arrival). Flat
 * lines are the point: memory that climbs minute after minute, or a p99 that does, is a leak.
 * The streams are reopened at each minute's start (the subscribers report per attachment).
 */
const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '50000' },
    minute: { type: 'string', default: '60' },
    subscribers: { type: 'string', default: '200' },
    connections: { type: 'string', default: '16' },
    db: { type: 'string', default: 'sqlite' },
  },
});
const targetOrders = Number(values.orders);
const minuteSeconds = Number(values.minute);
const engine = values.db as Engine;

const database = await freshDatabase(engine, postgresServerUrl());
const server = await startAppServer(database.url, { env: { LOG_LEVEL: 'error' } });
const rows: (string | number)[][] = [];
let renewing: ReturnType<typeof setInterval> | undefined;
try {
  const connections = Number(values.connections);
  const admin = await ApiSession.login(server.baseUrl, APP_ADMIN.name, APP_ADMIN.pin);
  const menu = await seedMenuAndFloor(admin, { dishes: 20, tables: connections });
  const waiters = await createWaiters(admin, connections, 'soak');
  console.log(
    `# soak on ${engine}: ${targetOrders} orders, ${values.subscribers} live streams, ${connections} tablets, ` +
      `a sample every ${minuteSeconds} s`,
  );
  let sessions = await loginEach(server.baseUrl, waiters);
  const tablets = sessions.map((session, index) => ({
    cookie: session.cookie,
    tableId: menu.tableIds[index] as string,
  }));
  // An access token lives a minute: each tablet renews its own every half minute, as the web app does,
  // and the rush reads a tablet's cookie at every request.
  renewing = setInterval(async () => {
    sessions = await Promise.all(sessions.map((session) => session.refreshed()));
    sessions.forEach((session, index) => {
      (tablets[index] as Tablet).cookie = session.cookie;
    });
  }, 30_000);
  let orders = 0;
  for (let minute = 1; orders < targetOrders; minute++) {
    const subscribers = new LiveSubscribers(Number(values.subscribers));
    const watcher = await ApiSession.login(server.baseUrl, APP_ADMIN.name, APP_ADMIN.pin);
    // A minute ends mid-loop and leaves tables seated: the next starts from a free floor, as the bench does.
    await closeOpenOrders(server.baseUrl, watcher.cookie);
    await subscribers.attach([server], watcher.cookie, database);
    subscribers.measuring(true);
    let billed = 0;
    const result = await runRush({
      baseUrl: server.baseUrl,
      connections,
      seconds: minuteSeconds,
      tablets,
      menu,
      onAnswer: (step, status, body) => {
        if (step === 'bill' && status === 201) billed++;
        subscribers.onAnswer(step, status, body);
      },
    });
    subscribers.measuring(false);
    await subscribers.detach();
    const delivery = subscribers.figures();
    orders += billed;
    rows.push([
      minute,
      orders,
      fixed(residentMb(server.pid), 0),
      fixed(result.requestsPerSecond, 0),
      fixed(result.p99Ms, 0),
      result.non2xx + result.errors + result.timeouts,
      delivery.deliveries,
      fixed(delivery.afterAt.p99Ms, 0),
      delivery.misordered,
    ]);
    // Each minute's row as it comes, so a run stopped early keeps what it measured.
    console.log(`minute ${rows.at(-1)?.join(' | ')}`);
    for (const [answer, count] of Object.entries(result.failures)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)) {
      console.log(`  ${count} × ${answer}`);
    }
  }
} finally {
  clearInterval(renewing);
  await server.stop();
  await database.drop();
}
console.log(
  markdownTable(
    [
      'minute',
      'orders so far',
      'server RSS (MiB)',
      'req/s',
      'p99 (ms)',
      'non-2xx',
      'events delivered',
      'delivery p99 (ms)',
      'misordered',
    ],
    rows,
  ),
);

/** The server's resident memory now (VmRSS), not its peak. */
function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}
