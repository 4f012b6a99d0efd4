import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { manualClock } from '../src/core/clock';
import { type Db, openDatabase } from '../src/core/db/database';
import { buildTestApp, describeEachDatabase, testConfig } from './helpers/app';
import { login } from './helpers/auth';
import type { DatabaseTarget } from './helpers/database';
import { insertUser } from './helpers/factories';

const TOO_MANY = { message: 'Too many requests' };

const attempt = (app: FastifyInstance, name: string, pin: string, remoteAddress = '203.0.113.7') =>
  app.inject({ method: 'POST', url: '/auth/login', payload: { name, pin }, remoteAddress });

/** 50 spellings of `waiter1` that the lookup normalises to the same name. */
function variantsOfWaiter1(): string[] {
  const cores = [
    'waiter1',
    'WAITER1',
    'Waiter1',
    'wAiTeR1',
    'ｗａｉｔｅｒ１',
    'ＷＡＩＴＥＲ１',
    'waiter１',
    'WaItEr1',
    'waiTER1',
    'Ｗaiter1',
  ];
  const wrappers: [string, string][] = [
    [' ', ''],
    ['', '\t'],
    ['\u2003', ''],
    ['\u00a0', '\n'],
    ['\u3000', '  '],
  ];
  const variants = cores.flatMap((core) => wrappers.map(([before, after]) => `${before}${core}${after}`));
  assert.equal(new Set(variants).size, 50);
  return variants;
}

/**
 * Two instances of the application on one database, as two servers behind a balancer would be: two
 * connections to one SQLite file, or two pools on one PostgreSQL schema.
 */
async function twoInstances(
  t: { after: (fn: () => Promise<void>) => void },
  target: DatabaseTarget,
): Promise<{ apps: FastifyInstance[]; db: Db }> {
  let url: string;
  let dropDatabase: () => Promise<void>;
  if (target.name === 'postgres') {
    ({ url, drop: dropDatabase } = await target.url());
  } else {
    const folder = mkdtempSync(join(tmpdir(), 'pos-throttle-'));
    url = `sqlite:${join(folder, 'pos.db')}`;
    dropDatabase = async () => rmSync(folder, { recursive: true, force: true });
  }
  const clock = manualClock(Date.UTC(2026, 10, 22, 18, 0, 0));
  const first = openDatabase(url);
  const handles = [first, openDatabase(url)];
  const apps: FastifyInstance[] = [];
  t.after(async () => {
    for (const app of apps) await app.close();
    for (const handle of handles) await handle.close();
    await dropDatabase();
  });
  for (const handle of handles) {
    apps.push(await buildApp(testConfig({ DATABASE_URL: url }), { database: handle, clock }));
  }
  return { apps, db: first.db };
}

describeEachDatabase('login throttle', (target) => {
  it('puts whitespace, case and Unicode variants of a name into one bucket', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const user = await insertUser(db, { name: 'waiter1', pin: '4321' });
    const statuses: number[] = [];
    for (const variant of variantsOfWaiter1())
      statuses.push((await attempt(app, variant, '0000')).statusCode);
    assert.deepEqual(statuses, [...Array(10).fill(401), ...Array(40).fill(429)]);

    const rightPin = await attempt(app, 'WAITER1 ', user.pin);
    assert.equal(rightPin.statusCode, 429, 'the right PIN waits too, or guessing would go on');
    assert.deepEqual(rightPin.json(), TOO_MANY);
    assert.equal(rightPin.headers['retry-after'], '60');
    const counters = await db
      .selectFrom('failure_counters')
      .selectAll()
      .where('scope', '=', 'login')
      .execute();
    assert.deepEqual(
      counters.map((row) => [row.bucket_key, Number(row.failures)]),
      [['203.0.113.7|waiter1', 10]],
    );
  });

  it('logs in with any spelling of the name that normalises to it', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const user = await insertUser(db, { name: 'Lucía', pin: '2468' });
    for (const spelling of ['lucía', ' LUCÍA\t', 'Luci\u0301a', 'ＬＵＣÍＡ']) {
      const response = await attempt(app, spelling, user.pin);
      assert.equal(response.statusCode, 200, spelling);
      assert.equal(response.json().user.name, 'Lucía');
    }
  });

  it('counts only failures: eleven successful logins in a minute all succeed, even after nine failures', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const user = await insertUser(db, { name: 'tablet', pin: '1234' });
    for (let failure = 0; failure < 9; failure++)
      assert.equal((await attempt(app, 'tablet', '0000')).statusCode, 401);
    for (let success = 0; success < 11; success++) {
      assert.equal((await attempt(app, 'tablet', user.pin)).statusCode, 200, `success ${success + 1}`);
    }
    assert.equal((await attempt(app, 'tablet', '0000')).statusCode, 401, 'the tenth failure');
    assert.equal((await attempt(app, 'tablet', '0000')).statusCode, 429);
  });

  it('opens the bucket again in the next window and sweeps the old counters', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    await insertUser(db, { name: 'marco', pin: '1357' });
    for (let failure = 0; failure < 10; failure++) await attempt(app, 'marco', '0000');
    assert.equal((await attempt(app, 'marco', '0000')).statusCode, 429);
    clock.advance(60_000);
    assert.equal((await attempt(app, 'marco', '0000')).statusCode, 401);
    // The per-account cap counts by the hour: its window is still open.
    const windows = await db
      .selectFrom('failure_counters')
      .select('window_start')
      .where('scope', '!=', 'login-account')
      .distinct()
      .execute();
    assert.deepEqual(
      windows.map((row) => Number(row.window_start)),
      [clock.now()],
    );
  });

  it('caps failures per address across names, more loosely than per name', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const user = await insertUser(db, { name: 'victim', pin: '9876' });
    const statuses: number[] = [];
    for (let name = 0; name < 31; name++)
      statuses.push((await attempt(app, `name ${name}`, '0000')).statusCode);
    assert.deepEqual(statuses, [...Array(30).fill(401), 429]);
    const throttled = await attempt(app, user.name, user.pin);
    assert.equal(throttled.statusCode, 429, 'this address is throttled for every name');
    assert.ok(Number(throttled.headers['retry-after']) > 0);
    assert.equal(
      (await attempt(app, user.name, user.pin, '198.51.100.4')).statusCode,
      200,
      'other addresses are not',
    );
  });

  it('counts a client that forges X-Forwarded-For by its own address unless it is the proxy', async (t) => {
    const { app, db } = await buildTestApp(t, target, { env: { POS_TRUST_PROXY: '10.9.9.9' } });
    const user = await insertUser(db, { name: 'victim', pin: '9876' });
    const forged = (name: string, forwardedFor: string) =>
      app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { name, pin: '0000' },
        remoteAddress: '203.0.113.7',
        headers: { 'x-forwarded-for': forwardedFor },
      });
    const statuses: number[] = [];
    for (let name = 0; name < 31; name++)
      statuses.push((await forged(`name ${name}`, `198.51.100.${name + 1}`)).statusCode);
    assert.deepEqual(statuses, [...Array(30).fill(401), 429]);
    const viaProxy = (forwardedFor: string) =>
      app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { name: user.name, pin: user.pin },
        remoteAddress: '10.9.9.9',
        headers: { 'x-forwarded-for': forwardedFor },
      });
    // From the proxy the header names the client: the forger is throttled, another guest is not.
    assert.equal((await viaProxy('203.0.113.7')).statusCode, 429);
    assert.equal((await viaProxy('198.51.100.200')).statusCode, 200);
  });

  it('caps failures per account whatever address a forged X-Forwarded-For claims', async (t) => {
    const { app, db } = await buildTestApp(t, target, { env: { POS_TRUST_PROXY: '1' } });
    const victim = await insertUser(db, { name: 'victim', pin: '9876' });
    const other = await insertUser(db, { name: 'bystander', pin: '1357' });
    const forged = (name: string, pin: string, index: number) =>
      app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { name, pin },
        remoteAddress: '203.0.113.7',
        headers: { 'x-forwarded-for': `198.18.${Math.floor(index / 250)}.${index % 250}` },
      });
    const statuses: number[] = [];
    for (let index = 0; index < 51; index++)
      statuses.push((await forged(victim.name, '0000', index)).statusCode);
    assert.deepEqual(statuses, [...Array(50).fill(401), 429]);
    assert.equal((await forged(victim.name, victim.pin, 900)).statusCode, 429, 'the right PIN waits too');
    assert.equal((await forged(other.name, other.pin, 901)).statusCode, 200, 'other accounts do not');
  });

  it('shares the counters between two instances on one database', async (t) => {
    const { apps, db } = await twoInstances(t, target);
    const [first, second] = apps as [FastifyInstance, FastifyInstance];
    await insertUser(db, { name: 'shared', pin: '5555' });
    for (let failure = 0; failure < 5; failure++) {
      assert.equal((await attempt(first, 'shared', '0000')).statusCode, 401);
      assert.equal((await attempt(second, 'shared', '0000')).statusCode, 401);
    }
    assert.equal((await attempt(first, 'shared', '0000')).statusCode, 429);
    assert.equal((await attempt(second, 'Shared', '0000')).statusCode, 429);
  });
});

describeEachDatabase('user names', (target) => {
  it('keeps names unique ignoring case, Unicode form and surrounding spaces', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const admin = await insertUser(db, { name: 'Admin', role: 'admin' });
    const cookies = await login(app, admin.name, admin.pin);
    const create = (name: string) =>
      app.inject({
        method: 'POST',
        url: '/users',
        headers: { cookie: cookies },
        payload: { name, pin: '1111' },
      });
    assert.equal((await create('Rosa')).statusCode, 201);
    for (const duplicate of [' rosa', 'ROSA', 'Ｒｏｓａ']) {
      const response = await create(duplicate);
      assert.equal(response.statusCode, 400, duplicate);
      assert.deepEqual(response.json(), { message: 'A user with this name already exists' });
    }
    const rows = await db
      .selectFrom('users')
      .select(['name', 'name_key'])
      .where('name_key', '=', 'rosa')
      .execute();
    assert.deepEqual(rows, [{ name: 'Rosa', name_key: 'rosa' }]);
  });
});
