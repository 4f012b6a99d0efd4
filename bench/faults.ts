import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { TcpProxy } from '../test/helpers/tcp-proxy';
import { PhoenixdSimulator } from '../test/phoenixd-sim/simulator';
import { ApiSession, createWaiters, loginEach, type Menu, seedMenuAndFloor } from './lib/api';
import { freshDatabase, postgresServerUrl } from './lib/databases';
import { APP_ADMIN, freePort, HOST, startAppServer } from './lib/processes';
import { fixed, markdownTable, percentile } from './lib/report';

/**
 * `npm run faults [-- --only postgres|lightning|disk]`
 * What a bad night does to a running server, and what it answers meanwhile: PostgreSQL going away
 * under the rush (a TCP hop cut for 5 s, as a restart looks to the app), the Lightning node that stops
 * answering during payments, and the SQLite disk filling up (a small tmpfs this script mounts).
 * Prints, per fault, the answers by status, how long the answers took while it lasted, how soon the
 * server served again once it ended, and what was lost (must be nothing).
 */
const { values } = parseArgs({ options: { only: { type: 'string' } } });
const only = values.only;

type Sample = { at: number; status: number; ms: number };

/** Writers that open orders as fast as answers come, keeping every answer's status and time. */
async function rush(sessions: ApiSession[], menu: Menu, isStopped: () => boolean) {
  const samples: Sample[] = [];
  const acknowledged: string[] = [];
  await Promise.all(
    sessions.map(async (session) => {
      while (!isStopped()) {
        const dish = menu.dishes[Math.floor(Math.random() * menu.dishes.length)];
        const started = performance.now();
        const reply = await session
          .request('POST', '/orders/with-dishes', { order: {}, dishes: [{ dish_id: dish?.id }] })
          .catch(() => ({ status: 0, body: undefined }));
        samples.push({ at: Date.now(), status: reply.status, ms: performance.now() - started });
        if (reply.status === 201) acknowledged.push((reply.body as { id: string }).id);
        // A client that was refused waits a little before it tries again, as the till does.
        if (reply.status !== 201) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }),
  );
  return { samples, acknowledged };
}

function summarize(samples: Sample[], from: number, to: number) {
  const during = samples.filter((sample) => sample.at >= from && sample.at <= to);
  const byStatus = new Map<number, number>();
  for (const sample of during) byStatus.set(sample.status, (byStatus.get(sample.status) ?? 0) + 1);
  const times = during.map((sample) => sample.ms).sort((a, b) => a - b);
  const firstBack = samples.find((sample) => sample.at > to && sample.status === 201);
  return {
    byStatus: [...byStatus].map(([status, count]) => `${status}: ${count}`).join(', ') || 'none',
    p99: percentile(times, 0.99),
    max: times.at(-1) ?? Number.NaN,
    backAfterMs: firstBack ? firstBack.at - to : Number.NaN,
    unexpected5xx: samples.filter(
      (sample) => sample.status >= 500 && sample.status !== 503 && sample.status !== 507,
    ).length,
  };
}

async function lostOrders(checker: ApiSession, ids: string[]): Promise<number> {
  let lost = 0;
  for (const id of ids) if ((await checker.request('GET', `/orders/${id}/complete`)).status !== 200) lost++;
  return lost;
}

const rows: (string | number)[][] = [];

if ((!only || only === 'postgres') && postgresServerUrl()) {
  const database = await freshDatabase('postgres', postgresServerUrl());
  const direct = new URL(database.url);
  const proxy = await TcpProxy.start({ host: direct.hostname, port: Number(direct.port || 5432) });
  const proxied = new URL(database.url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  const server = await startAppServer(proxied.toString(), { env: { LOG_LEVEL: 'fatal' } });
  try {
    const admin = await ApiSession.login(server.baseUrl, APP_ADMIN.name, APP_ADMIN.pin);
    const menu = await seedMenuAndFloor(admin, { dishes: 6, tables: 0 });
    const sessions = await loginEach(server.baseUrl, await createWaiters(admin, 8, 'fault'));
    let isStopped = false;
    const running = rush(sessions, menu, () => isStopped);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await proxy.cut();
    const downAt = Date.now();
    const health = await fetch(`${server.baseUrl}/health`).then((response) => response.json());
    await new Promise((resolve) => setTimeout(resolve, 5000));
    await proxy.restore();
    const upAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 4000));
    isStopped = true;
    const { samples, acknowledged } = await running;
    const summary = summarize(samples, downAt, upAt);
    const lost = await lostOrders(admin, acknowledged);
    console.log(`postgres down: /health answered ${JSON.stringify(health)}`);
    rows.push([
      'PostgreSQL gone 5 s under 8 writers',
      summary.byStatus,
      `${fixed(summary.p99, 0)} / ${fixed(summary.max, 0)}`,
      fixed(summary.backAfterMs, 0),
      summary.unexpected5xx,
      `${lost} of ${acknowledged.length}`,
    ]);
  } finally {
    await server.stop();
    await proxy.cut();
    await database.drop();
  }
}

if (!only || only === 'lightning') {
  const database = await freshDatabase('sqlite');
  const port = await freePort();
  const simulator = await PhoenixdSimulator.start({
    webhookUrl: `http://${HOST}:${port}/webhook/phoenixd`,
    webhookSecret: 'faults-webhook-secret',
  });
  const server = await startAppServer(database.url, {
    port,
    env: {
      PHOENIXD_URL: simulator.url,
      PHOENIXD_PASSWORD: simulator.password,
      PHOENIXD_WEBHOOK_SECRET: 'faults-webhook-secret',
      PHOENIXD_TIMEOUT_MS: '2000',
      POS_RATE_SOURCE: 'fixed:2000000',
      LOG_LEVEL: 'fatal',
    },
  });
  try {
    const admin = await ApiSession.login(server.baseUrl, APP_ADMIN.name, APP_ADMIN.pin);
    const menu = await seedMenuAndFloor(admin, { dishes: 3, tables: 0 });
    const bill = async () => {
      const order = await admin.expect<{ id: string }>(201, 'POST', '/orders/with-dishes', {
        order: {},
        dishes: [{ dish_id: menu.dishes[0]?.id }],
      });
      return (await admin.expect<{ id: string }>(201, 'POST', `/orders/${order.id}/tickets`, {})).id;
    };
    // Invoices made while the node answered; their guests pay while it is away.
    const before = [];
    for (let index = 0; index < 5; index++) {
      const payment = await admin.expect<{ id: string; lightning: { invoice: string } }>(
        201,
        'POST',
        `/tickets/${await bill()}/lightning`,
        {},
      );
      before.push(payment);
    }
    const bills = await Promise.all(Array.from({ length: 5 }, bill));
    // The node stops answering its API (a hung process, a dead link); payments still reach it and its
    // webhooks are lost, as when it cannot reach the POS either.
    simulator.setMode({ kind: 'slow', delayMs: 120_000 });
    simulator.webhookMode = 'drop';
    const answers: Sample[] = [];
    for (const ticketId of bills) {
      const started = performance.now();
      const reply = await admin.request('POST', `/tickets/${ticketId}/lightning`, {});
      answers.push({ at: Date.now(), status: reply.status, ms: performance.now() - started });
    }
    for (const payment of before) await simulator.receivePayment(payment.lightning.invoice);
    simulator.setMode({ kind: 'up' });
    simulator.webhookMode = 'deliver';
    const backAt = Date.now();
    const waiting = new Set(before.map((payment) => payment.id));
    while (waiting.size > 0 && Date.now() - backAt < 90_000) {
      for (const id of [...waiting]) {
        const reply = await admin.request('GET', `/payments/${id}`);
        if ((reply.body as { status?: string }).status === 'settled') waiting.delete(id);
      }
      if (waiting.size > 0) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const times = answers.map((answer) => answer.ms).sort((a, b) => a - b);
    const byStatus = new Map<number, number>();
    for (const answer of answers) byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
    rows.push([
      'Lightning node not answering (timeout 2 s), 5 bills asked',
      [...byStatus].map(([status, count]) => `${status}: ${count}`).join(', '),
      `${fixed(percentile(times, 0.99), 0)} / ${fixed(times.at(-1) ?? Number.NaN, 0)}`,
      `${before.length - waiting.size} of ${before.length} paid meanwhile settled ${fixed(Date.now() - backAt, 0)} ms after`,
      answers.filter((answer) => answer.status >= 500 && answer.status !== 503).length,
      `${waiting.size} of ${before.length} unsettled`,
    ]);
  } finally {
    await server.stop();
    await simulator.stop();
    await database.drop();
  }
}

if (!only || only === 'disk') {
  const folder = mkdtempSync(join(tmpdir(), 'pos-faults-disk-'));
  let mounted = false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', folder], { stdio: 'ignore' });
    mounted = true;
  } catch {
    console.log('disk: this machine allows no mount here; the full-disk fault was not run');
  }
  if (mounted) {
    // Each refused write is logged with its cause; the figures below are what matters here.
    const server = await startAppServer(`sqlite:${join(folder, 'pos.db')}`, { env: { LOG_LEVEL: 'fatal' } });
    const filler = join(folder, 'filler');
    try {
      const admin = await ApiSession.login(server.baseUrl, APP_ADMIN.name, APP_ADMIN.pin);
      const menu = await seedMenuAndFloor(admin, { dishes: 6, tables: 0 });
      const sessions = await loginEach(server.baseUrl, await createWaiters(admin, 4, 'disk'));
      // Leave about 3 MB: the rush fills it within seconds.
      const { bavail, bsize } = statfsSync(folder);
      writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - 3 * 1024 * 1024)));
      let isStopped = false;
      const running = rush(sessions, menu, () => isStopped);
      const filledAt = Date.now();
      let sawFull = false;
      while (!sawFull && Date.now() - filledAt < 60_000) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const probe = await admin.request('POST', '/orders/with-dishes', {
          order: {},
          dishes: [{ dish_id: menu.dishes[0]?.id }],
        });
        sawFull = probe.status === 507;
      }
      const fullAt = Date.now();
      const readWhileFull = await admin.request('GET', '/orders?limit=5');
      const health = await fetch(`${server.baseUrl}/health`).then((response) => response.json());
      await new Promise((resolve) => setTimeout(resolve, 2000));
      rmSync(filler);
      const freedAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 3000));
      isStopped = true;
      const { samples, acknowledged } = await running;
      const summary = summarize(samples, fullAt, freedAt);
      const lost = await lostOrders(admin, acknowledged);
      console.log(`disk full: reads answered ${readWhileFull.status}, /health ${JSON.stringify(health)}`);
      rows.push([
        'SQLite disk full (tmpfs 48 MB) under 4 writers',
        summary.byStatus,
        `${fixed(summary.p99, 0)} / ${fixed(summary.max, 0)}`,
        fixed(summary.backAfterMs, 0),
        summary.unexpected5xx,
        `${lost} of ${acknowledged.length}`,
      ]);
    } finally {
      await server.stop();
      execFileSync('umount', [folder]);
      rmSync(folder, { recursive: true, force: true });
    }
  }
}

console.log(
  markdownTable(
    [
      'fault',
      'answers while it lasted',
      'p99 / max answer (ms)',
      'first success after it ended (ms)',
      '5xx other than 503/507',
      'acknowledged lost',
    ],
    rows,
  ),
);
