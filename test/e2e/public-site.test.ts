import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildTestApp } from '../helpers/app';
import { billableOrder, createBill } from '../helpers/checkout-factories';
import { databaseTargets } from '../helpers/database';
import { exitCodeOf } from '../helpers/server-process';
import { buildWebApp } from './web/browser';

/**
 * The shipped guest site (deploy/Caddyfile.public) run by the real caddy in front of a server: its
 * rules as they are, its name (plain HTTP on a free port, so no certificate) and upstream set by the
 * environment. What it lets through reaches the server; anything else is Caddy's own empty 404.
 */
const GUEST_NAME = 'mesa.restaurant.test';
const [target] = databaseTargets as [(typeof databaseTargets)[number]];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const deployed = (name: string) =>
  readFileSync(join(import.meta.dirname, '..', '..', 'deploy', name), 'utf8');

/**
 * The two ways the guest site is run: alone (Compose's second Caddy), or after the staff's site in
 * the one Caddy of a systemd install. The shipped files byte for byte; the site names, the upstream
 * and the ports come from the environment, as in a deployment, and the test's options go first.
 */
const INSTALLS = {
  compose: (ports: Ports) => ({ caddyfile: deployed('Caddyfile.public'), env: guestSite(ports) }),
  systemd: (ports: Ports) => ({
    caddyfile: `${deployed('Caddyfile')}\n${deployed('Caddyfile.public')}`,
    env: { ...guestSite(ports), POS_PUBLIC_NAME: `pos.restaurant.test:${ports.https}` },
  }),
} as const;

type Ports = { guest: number; https: number; upstream: number };

function guestSite(ports: Ports): Record<string, string> {
  return {
    POS_GUEST_NAME: `http://${GUEST_NAME}:${ports.guest}`,
    POS_UPSTREAM: `127.0.0.1:${ports.upstream}`,
  };
}

type Answer = { status: number; text: string };

/** A request to the site by its name (fetch cannot set the Host header). */
function send(port: number, method: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { host: `${GUEST_NAME}:${port}`, 'content-type': 'application/json' },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(method === 'POST' ? '{}' : undefined);
  });
}

async function startPublicSite(
  t: TestContext,
  install: keyof typeof INSTALLS,
  upstream: number,
): Promise<number> {
  const folder = mkdtempSync(join(tmpdir(), 'pos-public-'));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  const ports = { guest: await freePort(), https: await freePort(), upstream };
  const { caddyfile, env } = INSTALLS[install](ports);
  const path = join(folder, 'Caddyfile');
  const options = `{\n\tadmin off\n\tstorage file_system ${join(folder, 'storage')}\n\tskip_install_trust\n\thttp_port ${await freePort()}\n\thttps_port ${ports.https}\n\tauto_https disable_redirects\n}\n\n`;
  writeFileSync(path, options + caddyfile);
  const child: ChildProcess = spawn('caddy', ['run', '--config', path, '--adapter', 'caddyfile'], {
    env: { ...process.env, HOME: folder, XDG_DATA_HOME: folder, XDG_CONFIG_HOME: folder, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = ports.guest;
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
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) assert.fail(`caddy exited with ${child.exitCode}:\n${output}`);
    try {
      await send(port, 'GET', '/');
      return port;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) assert.fail(`caddy did not start within 30 s:\n${output}`);
    await sleep(100);
  }
}

describe('the public guest site (deploy/Caddyfile.public)', () => {
  const hasCaddy = spawnSync('caddy', ['version']).status === 0;

  for (const install of Object.keys(INSTALLS) as (keyof typeof INSTALLS)[]) {
    it(`lets a guest reach the guest page and API, and answers 404 for every staff route (${install})`, async (t) => {
      if (!hasCaddy) {
        t.skip(
          'caddy is not installed (Debian package `caddy`, which .ci/run installs): public site NOT tested',
        );
        return;
      }
      // The guest page as `npm start` serves it, so it and its files can be fetched through the site.
      await buildWebApp();
      const { app, db } = await buildTestApp(t, target, {
        env: { POS_PUBLIC_URL: `https://${GUEST_NAME}` },
      });
      const { call, orderId } = await billableOrder(app, db);
      const ticketId = await createBill(call, orderId, {});
      const link = await call('POST', `/tickets/${ticketId}/guest-link`);
      assert.equal(link.statusCode, 201, link.body);
      const { token } = link.json();
      await app.listen({ port: 0, host: '127.0.0.1' });
      const upstreamPort = (app.server.address() as { port: number }).port;
      const port = await startPublicSite(t, install, upstreamPort);
      const through = (method: string, path: string) => send(port, method, path);

      const bill = await through('GET', `/guest/${token}`);
      assert.equal(bill.status, 200);
      assert.equal(JSON.parse(bill.text).total, 60);
      const receipt = await through('GET', `/guest/${token}/receipt`);
      assert.equal(receipt.status, 200);
      const page = await through('GET', `/g/${token}`);
      assert.equal(page.status, 200);
      const assets = [...page.text.matchAll(/\/g\/assets\/[^"']+/g)].map((match) => match[0]);
      assert.ok(assets.length > 0, 'the guest page loads its files from /g/assets/');
      for (const asset of assets) assert.equal((await through('GET', asset)).status, 200, asset);
      // Passed on to the server, which answers for itself (here: no wallet, a missing file).
      for (const [method, path] of [
        ['POST', `/guest/${token}/lightning`],
        ['GET', '/g/assets/missing.js'],
      ] as const) {
        const answer = await through(method, path);
        assert.notEqual(answer.text, '', `${method} ${path} reaches the server`);
      }

      for (const [method, path] of [
        ['GET', '/orders'],
        ['GET', `/tickets/${ticketId}`],
        ['POST', `/tickets/${ticketId}/guest-link`],
        ['GET', '/app/'],
        ['GET', '/app/till'],
        ['GET', '/app/assets/missing.js'],
        ['GET', '/swagger'],
        ['GET', '/swagger/json'],
        ['POST', '/auth/login'],
        ['GET', '/health'],
        ['GET', '/events'],
        ['GET', '/'],
        ['POST', `/g/${token}`],
      ] as const) {
        const answer = await through(method, path);
        assert.deepEqual([answer.status, answer.text], [404, ''], `${method} ${path}`);
      }
    });
  }
});
