import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { loadConfig } from '../../src/config';
import { describeUnsupportedNode, startupSummary } from '../../src/core/startup';
import { databaseTargets } from '../helpers/database';
import { exitCodeOf, runUntilExit, type ServerProcess, startServerProcess } from '../helpers/server-process';
import { PhoenixdSimulator } from '../phoenixd-sim/simulator';

function temporaryFolder(t: TestContext): string {
  const folder = mkdtempSync(join(tmpdir(), 'pos-startup-'));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  assert.equal(await exitCodeOf(server.child), 0, server.output());
}

function modeOf(path: string): number {
  return statSync(path).mode & 0o777;
}

/** Exit code 1 and exactly one line of output, naming the cause, with no stack trace. */
async function assertFailsWithOneLine(env: Record<string, string>, cause: RegExp): Promise<string> {
  const { code, stdout, stderr } = await runUntilExit(env);
  const output = stdout + stderr;
  assert.equal(code, 1, output);
  assert.equal(stdout, '');
  assert.match(stderr, /^[^\n]+\n$/, 'a single line');
  assert.doesNotMatch(output, /^\s+at /m, 'no stack trace');
  assert.match(stderr, cause);
  return stderr;
}

describe('start-up failures', () => {
  it('says the PostgreSQL database cannot be reached, with its password masked', async () => {
    const line = await assertFailsWithOneLine(
      { DATABASE_URL: 'postgres://pos:hunter2@127.0.0.1:1/pos' },
      /^Cannot reach the database \(PostgreSQL postgres:\/\/pos:\*\*\*@127\.0\.0\.1:1\/pos\): .*ECONNREFUSED/,
    );
    assert.doesNotMatch(line, /hunter2/);
  });

  it('says the SQLite file cannot be opened', async (t) => {
    const folder = temporaryFolder(t);
    mkdirSync(join(folder, 'pos.db'));
    await assertFailsWithOneLine(
      { DATABASE_URL: `sqlite:${join(folder, 'pos.db')}` },
      new RegExp(`^Cannot open the SQLite database ${join(folder, 'pos.db')}: unable to open database file`),
    );
  });

  it('says a file that is not a database cannot be opened', async (t) => {
    const path = join(temporaryFolder(t), 'notes.txt');
    writeFileSync(path, 'x'.repeat(4096));
    await assertFailsWithOneLine(
      { DATABASE_URL: `sqlite:${path}` },
      /^Cannot open the SQLite database .*notes\.txt: file is not a database/,
    );
  });

  it('does not create a missing folder other than ./data', async (t) => {
    const missing = join(temporaryFolder(t), 'typo');
    await assertFailsWithOneLine(
      { DATABASE_URL: `sqlite:${join(missing, 'pos.db')}` },
      new RegExp(`^The folder ${missing} of the SQLite database does not exist`),
    );
    assert.throws(() => statSync(missing), { code: 'ENOENT' });
  });

  it('says the port is in use', async (t) => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    t.after(() => blocker.close());
    const { port } = blocker.address() as { port: number };
    await assertFailsWithOneLine(
      { DATABASE_URL: `sqlite:${join(temporaryFolder(t), 'pos.db')}`, PORT: String(port) },
      new RegExp(`^Port ${port} is already in use on 127\\.0\\.0\\.1`),
    );
  });

  it('lists every configuration problem on one line', async () => {
    await assertFailsWithOneLine(
      { POS_TIMEZONE: 'Nowhere/Atlantis', PORT: '99999' },
      /^Invalid configuration: PORT .*; POS_TIMEZONE "Nowhere\/Atlantis"/,
    );
  });
});

describe('start-up summary', () => {
  it('names the URL, the database, how to create the admin, Lightning and the docs', async (t) => {
    const path = join(temporaryFolder(t), 'pos.db');
    const server = await startServerProcess({ DATABASE_URL: `sqlite:${path}` });
    t.after(() => stop(server));
    const summary = server
      .output()
      .split('\n')
      .filter((line) => !line.startsWith('{'))
      .join('\n');
    const { port } = new URL(server.baseUrl);
    assert.equal(
      summary,
      [
        `Restaurant POS listening on http://127.0.0.1:${port}`,
        `  database:  SQLite ${path}`,
        `  admin:     none yet: open http://127.0.0.1:${port}/app/ (or POST http://127.0.0.1:${port}/initial-setup {"name","pin","wallet_password","country"}, or set POS_ADMIN_NAME and POS_ADMIN_PIN)`,
        "  settings:  no tax, days in UTC, MXN, paper es-MX (the manager's settings screen changes them)",
        '  invoicing: off (the manager switches it on; it needs POS_PAC_KEY)',
        '  rates:     none (set POS_RATE_SOURCE: Lightning amounts need a BTC price)',
        '  uber eats: off (set POS_UBEREATS_CLIENT_ID, POS_UBEREATS_CLIENT_SECRET and POS_UBEREATS_STORE_ID)',
        '  rappi:     off (set POS_RAPPI_CLIENT_ID, POS_RAPPI_CLIENT_SECRET and POS_RAPPI_STORE_ID)',
        '  terminal:  off (set POS_MP_ACCESS_TOKEN for Mercado Pago Point; the manual card method stays)',
        '  lightning: not configured (set PHOENIXD_PASSWORD; wallet routes answer 503 until then)',
        '  keys:      PIN key kept in the database, session key kept in the database',
        '  backups:   none scheduled (set POS_BACKUP_DIR and POS_BACKUP_EVERY)',
        '  hosts:     localhost and IP addresses (others get 421; add names to POS_ALLOWED_HOSTS)',
        '  proxy:     none trusted (POS_TRUST_PROXY unset: X-Forwarded-For is ignored)',
        `  web app:   http://127.0.0.1:${port}/app/`,
        `  API docs:  http://127.0.0.1:${port}/swagger`,
        '',
      ].join('\n'),
    );
    const docs = await fetch(`${server.baseUrl}/swagger/json`);
    assert.equal(docs.status, 200);
  });

  for (const target of databaseTargets) {
    if (target.name !== 'postgres') continue;
    it('masks the PostgreSQL password and reports an admin made from POS_ADMIN_*', async (t) => {
      const { url, drop } = await target.url();
      t.after(drop);
      const withPassword = new URL(url);
      withPassword.password = 'hunter2';
      const server = await startServerProcess({
        DATABASE_URL: withPassword.toString(),
        POS_ADMIN_NAME: 'Owner',
        POS_ADMIN_PIN: '1234',
        POS_COUNTRY: 'MX',
        POS_RATE_SOURCE: 'fixed:2000000',
        PHOENIXD_PASSWORD: 'node-password',
        PHOENIXD_URL: 'http://127.0.0.1:9740',
      });
      t.after(() => stop(server));
      const output = server.output();
      assert.match(output, /^ {2}database: {2}PostgreSQL postgres:\/\/postgres:\*\*\*@127\.0\.0\.1/m);
      assert.doesNotMatch(output, /hunter2|node-password/);
      assert.match(output, /^ {2}admin: {5}set up$/m);
      assert.match(
        output,
        /^ {2}settings: {2}tax 16% included in prices, days in America\/Mexico_City, MXN, paper es-MX /m,
      );
      assert.match(output, /^ {2}invoicing: off /m);
      assert.match(output, /^ {2}rates: {5}a fixed price, 2000000 MXN per BTC$/m);
      assert.match(output, /^ {2}lightning: phoenixd at http:\/\/127\.0\.0\.1:9740 /m);
    });
  }

  it('says plainly which Node.js it needs, the range package.json declares', () => {
    const { engines } = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8'),
    );
    assert.equal(engines.node, '^22.12.0');
    for (const supported of ['22.12.0', '22.23.3', process.versions.node])
      assert.equal(describeUnsupportedNode(supported), undefined, supported);
    for (const unsupported of ['20.20.2', '22.11.0', '23.0.0', '24.1.0'])
      assert.match(
        describeUnsupportedNode(unsupported) ?? '',
        new RegExp(
          `^This server needs Node\\.js 22 \\(22\\.12 or a later 22\\); this is Node\\.js ${unsupported.replaceAll('.', '\\.')}\\.`,
        ),
      );
  });

  it('says whether CFDI are stamped: on with the PAC key, switched on without it stamps nothing, off with it waits for the manager', () => {
    const restaurant = {
      taxRateBasisPoints: 800,
      pricesIncludeTax: true,
      timeZone: 'America/Tijuana',
      baseCurrency: 'MXN',
      locale: 'es-MX',
    };
    const invoicingLine = (env: Record<string, string>, invoicing: 'on' | 'off' | 'needs-key') =>
      startupSummary(loadConfig({ LOG_LEVEL: 'silent', ...env }), {
        address: null,
        hasAdmin: true,
        restaurant: { ...restaurant, invoicing },
      }).find((line) => line.startsWith('  invoicing:'));
    assert.equal(
      invoicingLine({ POS_PAC_KEY: 'sk_test_x', POS_PAC_URL: 'http://127.0.0.1:9/pac' }, 'on'),
      '  invoicing: on, CFDI stamped by the PAC at http://127.0.0.1:9/pac',
    );
    assert.match(invoicingLine({}, 'needs-key') ?? '', /switched on but POS_PAC_KEY .* is not set/);
    assert.equal(
      invoicingLine({}, 'off'),
      '  invoicing: off (the manager switches it on; it needs POS_PAC_KEY)',
    );
    assert.equal(
      invoicingLine({ POS_PAC_KEY: 'sk_test_x' }, 'off'),
      '  invoicing: off: the PAC key is set; the manager switches it on (Manager › E-invoicing)',
    );
  });

  it('says whether the card terminal is on and how its charges settle, never its token or secret', () => {
    const terminalLine = (env: Record<string, string>) =>
      startupSummary(loadConfig({ LOG_LEVEL: 'silent', ...env }), { address: null, hasAdmin: true }).find(
        (line) => line.startsWith('  terminal:'),
      );
    const token = 'APP_USR-0123456789';
    assert.equal(
      terminalLine({ POS_MP_ACCESS_TOKEN: token, POS_MP_WEBHOOK_SECRET: 's3cret' }),
      '  terminal:  Mercado Pago Point at https://api.mercadopago.com, notifications at /terminals/mercadopago/webhook',
    );
    assert.equal(
      terminalLine({ POS_MP_ACCESS_TOKEN: token }),
      '  terminal:  Mercado Pago Point at https://api.mercadopago.com, no POS_MP_WEBHOOK_SECRET: charges settle by reading them back',
    );
    assert.throws(() => loadConfig({ POS_MP_WEBHOOK_SECRET: 's3cret' }), /without POS_MP_ACCESS_TOKEN/);
  });

  it('lists the allowed host names and the trusted proxies', async (t) => {
    const server = await startServerProcess({
      DATABASE_URL: `sqlite:${join(temporaryFolder(t), 'pos.db')}`,
      POS_ALLOWED_HOSTS: 'pos.restaurant.lan,till.lan',
      POS_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8',
    });
    t.after(() => stop(server));
    const output = server.output();
    assert.match(output, /^ {2}hosts: {5}localhost, pos\.restaurant\.lan, till\.lan and IP addresses/m);
    assert.match(output, /^ {2}proxy: {5}X-Forwarded-For trusted from 127\.0\.0\.1, 10\.0\.0\.0\/8$/m);
  });
});

describe('Lightning node probe at start-up', () => {
  async function summaryWith(t: TestContext, simulator: PhoenixdSimulator, password: string) {
    const server = await startServerProcess({
      DATABASE_URL: `sqlite:${join(temporaryFolder(t), 'pos.db')}`,
      PHOENIXD_URL: simulator.url,
      PHOENIXD_PASSWORD: password,
    });
    t.after(() => stop(server));
    return /^ {2}lightning: (.*)$/m.exec(server.output())?.[1];
  }

  async function startSimulator(t: TestContext): Promise<PhoenixdSimulator> {
    const simulator = await PhoenixdSimulator.start();
    t.after(() => simulator.stop());
    return simulator;
  }

  it('says the node answers, with its id and channels', async (t) => {
    const simulator = await startSimulator(t);
    const line = await summaryWith(t, simulator, simulator.password);
    assert.match(
      line ?? '',
      new RegExp(`^phoenixd at ${simulator.url} answers \\(node [0-9a-f]{16}…, \\d+ channels?\\)`),
    );
    assert.match(line ?? '', /no PHOENIXD_WEBHOOK_SECRET/);
  });

  it('says the password was refused, and where the right one is', async (t) => {
    const simulator = await startSimulator(t);
    const line = await summaryWith(t, simulator, 'not-the-password');
    assert.equal(
      line,
      `phoenixd at ${simulator.url} refused the password: set PHOENIXD_PASSWORD to http-password from ~/.phoenix/phoenix.conf`,
    );
  });

  it('says the limited-access password cannot pay, and what to set instead', async (t) => {
    const simulator = await startSimulator(t);
    const line = await summaryWith(t, simulator, simulator.limitedPassword);
    assert.match(
      line ?? '',
      /answers \(node [0-9a-f]{16}…, 1 channel\) but refuses payments: PHOENIXD_PASSWORD is http-password-limited-access;/,
    );
    assert.deepEqual(simulator.node.outgoing, [], 'the check pays nothing');
  });

  it('says the node does not answer, and the server still starts', async (t) => {
    const simulator = await startSimulator(t);
    simulator.setMode({ kind: 'down' });
    const line = await summaryWith(t, simulator, simulator.password);
    assert.match(
      line ?? '',
      new RegExp(
        `^phoenixd at ${simulator.url} does not answer \\(.+\\); wallet routes answer 503 until it does$`,
      ),
    );
  });
});

describe('SQLite file permissions', () => {
  it('creates ./data 0700 and the database with its WAL files 0600', async (t) => {
    const folder = temporaryFolder(t);
    const server = await startServerProcess({ DATABASE_URL: '' }, { cwd: folder });
    t.after(() => stop(server));
    assert.match(server.output(), new RegExp(`database: {2}SQLite ${join(folder, 'data', 'pos.db')}\\n`));
    assert.equal(modeOf(join(folder, 'data')), 0o700);
    for (const file of ['pos.db', 'pos.db-wal', 'pos.db-shm']) {
      assert.equal(modeOf(join(folder, 'data', file)), 0o600, file);
    }
  });

  it('takes group and others off a database file that had them', async (t) => {
    const path = join(temporaryFolder(t), 'pos.db');
    writeFileSync(path, '');
    chmodSync(path, 0o644);
    const server = await startServerProcess({ DATABASE_URL: `sqlite:${path}` });
    t.after(() => stop(server));
    assert.equal(modeOf(path), 0o600);
    assert.equal(modeOf(`${path}-wal`), 0o600);
  });
});
