import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { openDatabase } from '../../src/core/db/database';
import { exitCodeOf, startServerProcess } from '../helpers/server-process';

const root = join(import.meta.dirname, '..', '..');

/** Every process descended from `pid`, from /proc (Linux). */
function descendantsOf(pid: number): { pid: number; command: string }[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const found: { pid: number; command: string }[] = [];
  const visit = (parent: number) => {
    for (const child of parents.get(parent) ?? []) {
      let command = '';
      try {
        command = readFileSync(`/proc/${child}/cmdline`, 'utf8').replaceAll('\0', ' ');
      } catch {}
      found.push({ pid: child, command });
      visit(child);
    }
  };
  visit(pid);
  return found;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** `npm run <script>` until it prints `ready`, then SIGTERM to npm alone: nothing it started may outlive it. */
async function endsWithItsChildren(
  script: string,
  ready: RegExp,
  env: Record<string, string>,
): Promise<void> {
  const child = spawn('npm', ['run', script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const deadline = Date.now() + 60_000;
  while (!ready.test(output)) {
    assert.ok(child.exitCode === null, `npm run ${script} exited:\n${output}`);
    assert.ok(Date.now() < deadline, `npm run ${script} never got ready:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const started = descendantsOf(child.pid as number);
  assert.ok(started.length > 0 || child.exitCode === null);
  child.kill('SIGTERM');
  await exitCodeOf(child);
  // A child such as tsx's esbuild service ends once its parent's pipe closes, which on a loaded
  // machine can take a few seconds: wait for that, but no longer than a real leak would take.
  let survivors = started;
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; ) {
    survivors = started.filter(({ pid }) => isAlive(pid));
    if (survivors.length === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  for (const { pid } of survivors) process.kill(pid, 'SIGKILL');
  assert.deepEqual(survivors, [], `npm run ${script} left processes behind`);
}

describe('npm scripts end with their children on SIGTERM', () => {
  it('phoenixd-sim', () =>
    endsWithItsChildren('phoenixd-sim', /Start the POS server with/, { SIM_PORT: '0' }));
  it('price-sim', () => endsWithItsChildren('price-sim', /price simulator on/, { PRICE_SIM_PORT: '0' }));
  it('pac-sim', () => endsWithItsChildren('pac-sim', /POS_PAC_URL=http/, { PAC_SIM_PORT: '0' }));
  it('dev', () =>
    endsWithItsChildren('dev', /API docs:/, {
      PORT: '0',
      DATABASE_URL: 'sqlite::memory:',
      LOG_LEVEL: 'warn',
    }));
});

describe('price-sim --help', () => {
  it('prints its help, PRICE_SIM_PORT included, and exits', () => {
    const result = spawnSync('npm', ['run', '--silent', 'price-sim', '--', '--help'], {
      cwd: root,
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^npm run price-sim/);
    assert.match(result.stdout, /PRICE_SIM_PORT +port it listens on/);
  });
});

describe('pac-sim --help', () => {
  it('prints its help, PAC_SIM_PORT included, and exits', () => {
    const result = spawnSync('npm', ['run', '--silent', 'pac-sim', '--', '--help'], {
      cwd: root,
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^npm run pac-sim/);
    assert.match(result.stdout, /PAC_SIM_PORT +port it listens on/);
  });
});

describe('npm start after a build', () => {
  it('leaves no esbuild service running beside the server', async (t) => {
    // A source newer than dist/ makes start.mjs build before it serves.
    spawnSync('touch', [join(root, 'src', 'server.ts')]);
    const server = await startServerProcess({ DATABASE_URL: 'sqlite::memory:' });
    t.after(async () => {
      server.child.kill('SIGTERM');
      await exitCodeOf(server.child);
    });
    const esbuild = descendantsOf(server.serverPid).filter(({ command }) => /esbuild/.test(command));
    assert.deepEqual(esbuild, []);
  });

  it('wrote a brotli and a gzip file beside each text file of the web app', () => {
    const web = join(root, 'dist', 'web');
    const html = readFileSync(join(web, 'index.html'));
    assert.deepEqual(brotliDecompressSync(readFileSync(join(web, 'index.html.br'))), html);
    assert.deepEqual(gunzipSync(readFileSync(join(web, 'index.html.gz'))), html);
    const scripts = readdirSync(join(web, 'assets')).filter((file) => file.endsWith('.js'));
    assert.ok(scripts.length > 0);
    for (const file of scripts) {
      for (const suffix of ['.br', '.gz'])
        assert.ok(existsSync(join(web, 'assets', file + suffix)), file + suffix);
    }
  });
});

describe('npm run demo:night', () => {
  it('seeds the demo restaurant and takes a delivery order from Uber Eats and one from Rappi', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'pos-demo-night-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const databaseUrl = `sqlite:${join(dir, 'pos.db')}`;
    const child = spawn('npm', ['run', 'demo:night'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => (output += chunk));
    t.after(() => child.kill('SIGKILL'));
    const simState = async (name: string) => {
      const url = new RegExp(`${name} simulator on (http://[^ ,]+)`).exec(output)?.[1];
      return url === undefined ? { orders: [] } : (await fetch(`${url}/sim/state`)).json();
    };
    // Both first orders are accepted at their platforms: Uber's by webhook, Rappi's at the first read.
    const deadline = Date.now() + 90_000;
    for (;;) {
      assert.ok(child.exitCode === null, `npm run demo:night exited:\n${output}`);
      assert.ok(Date.now() < deadline, `no delivery order was accepted:\n${output}`);
      const uber = (await simState('Uber Eats')).orders as { state: string }[];
      const rappi = (await simState('Rappi')).orders as { status: string }[];
      if (uber.some((order) => order.state === 'ACCEPTED') && rappi.some((order) => order.status === 'TAKEN'))
        break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    assert.match(output, /Demo restaurant created/);
    child.kill('SIGTERM');
    assert.equal(await exitCodeOf(child), 0, output);

    const database = openDatabase(databaseUrl);
    t.after(() => database.close());
    const orders = await database.db
      .selectFrom('orders')
      .select(['channel', 'channel_state'])
      .where('channel', '!=', 'dine_in')
      .orderBy('channel')
      .execute();
    assert.deepEqual(orders, [
      { channel: 'rappi', channel_state: 'accepted' },
      { channel: 'ubereats', channel_state: 'accepted' },
    ]);
  });
});
