import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { databaseTargets } from '../helpers/database';
import { exitCodeOf, startServerProcess } from '../helpers/server-process';

/**
 * The README's network set-up, for real: the shipped deploy/Caddyfile (`tls internal`) run by Caddy
 * in front of a server process,
 * clients reaching it over HTTPS by name from two different source addresses (loopback aliases,
 * which Linux answers on all of 127/8). Caddy puts each client's address in X-Forwarded-For; with
 * POS_TRUST_PROXY naming Caddy, each tablet keeps its own login budget instead of sharing Caddy's.
 */
const HOST_NAME = 'pos.restaurant.test';
const ADMIN = { name: 'Owner', pin: '2468' };

function caddyVersion(): string | undefined {
  const result = spawnSync('caddy', ['version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** A tablet: its own source address, trusting Caddy's local authority, sending its cookies back. */
class Tablet {
  private readonly agent: Agent;
  private cookies = new Map<string, string>();

  constructor(
    sourceAddress: string,
    private readonly port: number,
    ca: string,
  ) {
    this.agent = new Agent({ localAddress: sourceAddress, ca, servername: HOST_NAME, keepAlive: false });
  }

  get origin(): string {
    return `https://${HOST_NAME}:${this.port}`;
  }

  send(method: string, path: string, body?: unknown): Promise<Answer> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { host: `${HOST_NAME}:${this.port}` };
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      // As a browser sends it: the server must see the proxy's https and host to call it same-origin.
      headers.origin = this.origin;
    }
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    return new Promise((resolve, reject) => {
      const outgoing = request(
        { host: '127.0.0.1', port: this.port, method, path, headers, agent: this.agent },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk) => {
            text += chunk;
          });
          response.on('end', () => {
            for (const line of response.headers['set-cookie'] ?? []) {
              assert.match(line, /; Secure/i, 'session cookies are Secure over the proxy');
              const [pair = ''] = line.split(';');
              const [name = '', value = ''] = pair.split('=');
              this.cookies.set(name, value);
            }
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text });
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(payload);
    });
  }

  async json(method: string, path: string, body: unknown, status: number): Promise<Record<string, unknown>> {
    const answer = await this.send(method, path, body);
    assert.equal(answer.status, status, `${method} ${path}: ${answer.body}`);
    return JSON.parse(answer.body);
  }

  close(): void {
    this.agent.destroy();
  }
}

type Proxy = { port: number; ca: string; output: () => string };

async function startCaddy(t: TestContext, upstreamPort: number): Promise<Proxy> {
  const folder = mkdtempSync(join(tmpdir(), 'pos-caddy-'));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  const [httpsPort, httpPort] = [await freePort(), await freePort()];
  // The shipped staff site, byte for byte: only the options a test needs (ports, storage) go before it.
  const caddyfile = join(folder, 'Caddyfile');
  writeFileSync(
    caddyfile,
    `{
  admin off
  storage file_system ${join(folder, 'storage')}
  skip_install_trust
  http_port ${httpPort}
  https_port ${httpsPort}
  auto_https disable_redirects
}

${readFileSync(join(import.meta.dirname, '..', '..', 'deploy', 'Caddyfile'), 'utf8')}`,
  );
  const child: ChildProcess = spawn('caddy', ['run', '--config', caddyfile, '--adapter', 'caddyfile'], {
    // Its data and configuration stay in the test's folder, whatever HOME is.
    env: {
      ...process.env,
      HOME: folder,
      XDG_DATA_HOME: folder,
      XDG_CONFIG_HOME: folder,
      POS_PUBLIC_NAME: `${HOST_NAME}:${httpsPort}`,
      POS_UPSTREAM: `127.0.0.1:${upstreamPort}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  t.after(async () => {
    child.kill('SIGTERM');
    await exitCodeOf(child);
  });

  // The local authority and the site's certificate are made at start; wait for both.
  const rootPath = join(folder, 'storage', 'pki', 'authorities', 'local', 'root.crt');
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) assert.fail(`caddy exited with ${child.exitCode}:\n${output}`);
    try {
      const ca = readFileSync(rootPath, 'utf8');
      const probe = new Tablet('127.0.0.1', httpsPort, ca);
      const answer = await probe.send('GET', '/health/live').finally(() => probe.close());
      if (answer.status === 200) return { port: httpsPort, ca, output: () => output };
    } catch {
      // Not ready yet: no root certificate, no listener or no site certificate so far.
    }
    if (Date.now() > deadline) assert.fail(`caddy did not serve ${HOST_NAME} within 30 s:\n${output}`);
    await sleep(200);
  }
}

/**
 * A public address on this machine, so a client can come "from the internet": TEST-NET-3, which no
 * real network routes, added to the loopback interface for the test. That needs root (CI runs as
 * root, and must run this); elsewhere the check is skipped, saying so.
 */
async function outsideAddress(t: TestContext): Promise<string | undefined> {
  const address = '203.0.113.7';
  const added = spawnSync('ip', ['addr', 'add', `${address}/32`, 'dev', 'lo'], { encoding: 'utf8' });
  if (added.status !== 0 && !added.stderr.includes('File exists')) {
    assert.notEqual(process.env.CI, 'true', `CI must test the staff site from outside: ${added.stderr}`);
    t.diagnostic(
      `the staff site from the internet NOT tested (needs root to add ${address}): ${added.stderr}`,
    );
    return undefined;
  }
  t.after(() => {
    spawnSync('ip', ['addr', 'del', `${address}/32`, 'dev', 'lo']);
  });
  return address;
}

describe('behind Caddy with tls internal', () => {
  const version = caddyVersion();

  for (const target of databaseTargets) {
    it(`logs in, orders and pays over HTTPS, each tablet with its own login budget (${target.name})`, async (t) => {
      if (version === undefined) {
        t.skip(
          'caddy is not installed (Debian package `caddy`, which .ci/run installs): proxy path NOT tested',
        );
        return;
      }
      const { url, drop } = await target.url();
      t.after(drop);
      const folder = mkdtempSync(join(tmpdir(), 'pos-proxy-'));
      t.after(() => rmSync(folder, { recursive: true, force: true }));
      const databaseUrl = target.name === 'sqlite' ? `sqlite:${join(folder, 'pos.db')}` : url;
      const server = await startServerProcess({
        DATABASE_URL: databaseUrl,
        POS_ADMIN_NAME: ADMIN.name,
        POS_ADMIN_PIN: ADMIN.pin,
        POS_ALLOWED_HOSTS: HOST_NAME,
        POS_TRUST_PROXY: '127.0.0.1',
        POS_COOKIE_SECURE: 'true',
      });
      t.after(async () => {
        server.child.kill('SIGTERM');
        await exitCodeOf(server.child);
      });
      const proxy = await startCaddy(t, Number(new URL(server.baseUrl).port));
      const first = new Tablet('127.0.0.2', proxy.port, proxy.ca);
      const second = new Tablet('127.0.0.3', proxy.port, proxy.ca);
      t.after(() => {
        first.close();
        second.close();
      });

      // The first tablet mistypes the PIN until its budget for this name is spent...
      let refused: Answer | undefined;
      for (let attempt = 0; attempt < 12; attempt++) {
        refused = await first.send('POST', '/auth/login', { name: ADMIN.name, pin: '0000' });
        if (refused.status === 429) break;
        assert.equal(refused.status, 401, refused.body);
      }
      assert.equal(refused?.status, 429, 'the first tablet runs out of attempts');
      assert.ok(Number(refused?.headers['retry-after']) >= 1);

      // ...and the second, behind the same proxy, still logs in.
      await second.json('POST', '/auth/login', ADMIN, 200);
      const category = await second.json('POST', '/categories', { name: 'Mains', type: 'dish' }, 201);
      const dish = await second.json(
        'POST',
        '/dishes',
        { name: 'Soup', price: 55, category_id: category.id },
        201,
      );
      const order = await second.json(
        'POST',
        '/orders/with-dishes',
        { order: {}, dishes: [{ dish_id: dish.id, price_at_order: 55 }] },
        201,
      );
      const bill = await second.json('POST', `/orders/${order.id}/tickets`, {}, 201);
      await second.json('POST', `/tickets/${bill.id}/payments`, { method: 'cash', amount: 55 }, 201);
      const paid = await second.send('GET', `/tickets/${bill.id}`);
      assert.equal(paid.status, 200, paid.body);
      assert.equal(JSON.parse(paid.body).balance, 0);

      // The server logged each tablet's own address, not the proxy's.
      assert.match(server.output(), /"remoteAddress":"127\.0\.0\.2"/);
      assert.match(server.output(), /"remoteAddress":"127\.0\.0\.3"/);

      // A device on the internet (the router forwards 443 for the guest site) never reaches the staff.
      const outside = await outsideAddress(t);
      if (outside !== undefined) {
        const stranger = new Tablet(outside, proxy.port, proxy.ca);
        t.after(() => stranger.close());
        for (const [method, path] of [
          ['GET', '/app/'],
          ['POST', '/auth/login'],
          ['GET', '/health/live'],
        ] as const) {
          const answer = await stranger.send(method, path, method === 'POST' ? ADMIN : undefined);
          assert.equal(answer.status, 404, `${method} ${path} from the internet`);
        }
        assert.doesNotMatch(
          server.output(),
          new RegExp(`"remoteAddress":"${outside.replaceAll('.', '\\.')}"`),
        );
      }
    });
  }
});
