import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { buildApp } from '../src/app';
import { openDatabase } from '../src/core/db/database';
import { buildTestApp, testConfig } from './helpers/app';
import type { DatabaseTarget } from './helpers/database';
import { databaseTargets } from './helpers/database';
import { captureLogs } from './helpers/log-capture';
import { diningRoom } from './helpers/orders-factories';
import { TcpProxy } from './helpers/tcp-proxy';

type TestContext = Parameters<typeof buildTestApp>[0];

/** A SQLite file of its own, as in production (WAL, a directory whose free space can be checked). */
function sqliteFileUrl() {
  const directory = mkdtempSync(join(tmpdir(), 'pos-db-failures-'));
  return {
    url: `sqlite:${join(directory, 'pos.db')}`,
    drop: async () => rmSync(directory, { recursive: true, force: true }),
  };
}

const sqliteFile: DatabaseTarget = {
  name: 'sqlite',
  url: async () => sqliteFileUrl(),
  testUrl: async () => ({ ...sqliteFileUrl(), isMigrated: false }),
};

const PROBE_INTERVAL_MS = 5000;

async function setUp(t: TestContext, target: DatabaseTarget) {
  const logs = captureLogs();
  const testApp = await buildTestApp(t, target, { env: { LOG_LEVEL: 'error' }, logStream: logs.stream });
  const health = async () => {
    const response = await testApp.app.inject({ url: '/health' });
    return { statusCode: response.statusCode, body: response.json() };
  };
  return { ...testApp, logs, health };
}

const setUpBody = { name: 'Owner', pin: '4321', wallet_password: 'a long wallet password' };

describe('database that cannot write [sqlite file]', () => {
  it('logs the real error when SQLite ends the transaction itself', async (t) => {
    const { app, db, logs } = await setUp(t, sqliteFile);
    const users = () => db.selectFrom('users').selectAll().execute();
    const before = await users();
    await sql`create trigger users_refused before insert on users
      begin select raise(rollback, 'the storage gave up'); end`.execute(db);
    const response = await app.inject({ method: 'POST', url: '/initial-setup', payload: setUpBody });
    assert.equal(response.statusCode, 500);
    assert.deepEqual(response.json(), { message: 'Internal server error' });
    assert.match(logs.text(), /the storage gave up/);
    assert.doesNotMatch(logs.text(), /cannot rollback/);
    assert.deepEqual(await users(), before);
  });

  it('answers a write to a full database with 507 Storage is full, logs why, and /health reports it', async (t) => {
    const { app, db, clock, logs, health } = await setUp(t, sqliteFile);
    const { call, dish } = await diningRoom(app, db);
    assert.deepEqual(await health(), { statusCode: 200, body: { status: 'ok', database: 'ok' } });

    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(db);
    await sql.raw(`pragma max_page_count = ${rows[0]?.page_count}`).execute(db);
    const dishes = Array.from({ length: 200 }, () => ({ dish_id: dish.id, notes: 'n'.repeat(500) }));
    const response = await call('POST', '/orders/with-dishes', { order: {}, dishes });
    assert.equal(response.statusCode, 507);
    assert.deepEqual(response.json(), { message: 'Storage is full' });
    assert.match(logs.text(), /database or disk is full/);
    assert.equal((await db.selectFrom('orders').selectAll().execute()).length, 0);

    clock.advance(PROBE_INTERVAL_MS);
    assert.deepEqual(await health(), { statusCode: 503, body: { status: 'unavailable', database: 'full' } });
  });

  it('reports a read-only database on /health, and the write fails with its real error', async (t) => {
    const { app, db, clock, logs, health } = await setUp(t, sqliteFile);
    assert.equal((await health()).statusCode, 200);
    await sql`pragma query_only = on`.execute(db);
    const response = await app.inject({ method: 'POST', url: '/initial-setup', payload: setUpBody });
    assert.equal(response.statusCode, 500);
    assert.match(logs.text(), /attempt to write a readonly database/);

    assert.equal((await health()).statusCode, 200, 'the last answer is kept for a few seconds');
    clock.advance(PROBE_INTERVAL_MS);
    assert.deepEqual(await health(), {
      statusCode: 503,
      body: { status: 'unavailable', database: 'read-only' },
    });
    await sql`pragma query_only = off`.execute(db);
    clock.advance(PROBE_INTERVAL_MS);
    assert.equal((await health()).statusCode, 200);
  });
});

const postgres = databaseTargets.find((target) => target.name === 'postgres');

describe('database that cannot write [postgres]', { skip: !postgres }, () => {
  it('reports a read-only database on /health, and the write fails with its real error', async (t) => {
    const { databaseUrl, health } = await setUp(t, postgres as DatabaseTarget);
    assert.equal((await health()).statusCode, 200);

    // A second instance on the same schema whose sessions are read-only, as on a hot standby.
    const readOnlyUrl = new URL(databaseUrl);
    const options = readOnlyUrl.searchParams.get('options') ?? '';
    readOnlyUrl.searchParams.set('options', `${options} -c default_transaction_read_only=on`);
    const logs = captureLogs();
    const database = openDatabase(readOnlyUrl.toString());
    const readOnly = await buildApp(
      testConfig({ DATABASE_URL: readOnlyUrl.toString(), LOG_LEVEL: 'error' }),
      {
        database,
        logStream: logs.stream,
      },
    );
    t.after(async () => {
      await readOnly.close();
      await database.close();
    });

    const response = await readOnly.inject({ method: 'POST', url: '/initial-setup', payload: setUpBody });
    assert.equal(response.statusCode, 500);
    assert.match(logs.text(), /read-only transaction/);
    const readOnlyHealth = await readOnly.inject({ url: '/health' });
    assert.equal(readOnlyHealth.statusCode, 503);
    assert.deepEqual(readOnlyHealth.json(), { status: 'unavailable', database: 'read-only' });
    assert.equal((await health()).statusCode, 200);
  });

  it('survives the server ending its idle connections, and answers the next request', async (t) => {
    const { app, db, health } = await setUp(t, postgres as DatabaseTarget);
    await app.inject({ method: 'POST', url: '/initial-setup', payload: setUpBody });
    // Every connection of the app (its pool and the event feed's) is idle now; end them all, as a
    // restart or an idle timeout of the server does. A pool with no 'error' listener would crash here.
    const admin = openDatabase(process.env.TEST_DATABASE_URL as string);
    t.after(() => admin.close());
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(db);
    const ended = await sql<{ pid: number }>`select pid from pg_stat_activity
      where datname = ${rows[0]?.name} and pid <> pg_backend_pid()`.execute(admin.db);
    for (const { pid } of ended.rows) await sql`select pg_terminate_backend(${pid})`.execute(admin.db);
    assert.ok(ended.rows.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal((await health()).statusCode, 200);
    const login = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { name: setUpBody.name, pin: setUpBody.pin },
    });
    assert.equal(login.statusCode, 200, login.body);
  });

  it('answers 503 Database unavailable at once while PostgreSQL is gone, and serves again by itself when it is back', async (t) => {
    const { databaseUrl, app } = await setUp(t, postgres as DatabaseTarget);
    await app.inject({ method: 'POST', url: '/initial-setup', payload: setUpBody });
    const direct = new URL(databaseUrl);
    const proxy = await TcpProxy.start({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(databaseUrl);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const logs = captureLogs();
    const database = openDatabase(proxied.toString());
    const server = await buildApp(testConfig({ DATABASE_URL: proxied.toString(), LOG_LEVEL: 'error' }), {
      database,
      logStream: logs.stream,
    });
    t.after(async () => {
      await proxy.cut();
      await server.close();
      await database.close();
    });
    const logIn = () =>
      server.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { name: setUpBody.name, pin: setUpBody.pin },
      });
    assert.equal((await logIn()).statusCode, 200);

    // The database server restarts: its connections end and new ones are refused for a while.
    await proxy.cut();
    const started = performance.now();
    const refused = await logIn();
    const tookMs = performance.now() - started;
    assert.deepEqual([refused.statusCode, refused.json()], [503, { message: 'Database unavailable' }]);
    assert.ok(tookMs < 5000, `answered in ${Math.round(tookMs)} ms, not after a hang`);
    const health = await server.inject({ url: '/health' });
    assert.deepEqual(
      [health.statusCode, health.json()],
      [503, { status: 'unavailable', database: 'unreachable' }],
    );
    assert.match(logs.text(), /ECONNREFUSED|Connection terminated/);

    await proxy.restore();
    assert.equal((await logIn()).statusCode, 200, 'reconnected without a restart of the app');
  });

  it('answers a write that finds the disk full (SQLSTATE 53100) with 507 Storage is full and logs why', async (t) => {
    const { app, db, logs } = await setUp(t, postgres as DatabaseTarget);
    // PostgreSQL's own error for a full disk, as the server raises it when a file cannot grow.
    await sql`create function refuse_for_full_disk() returns trigger language plpgsql as $$
      begin raise exception 'could not extend file: No space left on device' using errcode = 'disk_full'; end $$`.execute(
      db,
    );
    const users = () => db.selectFrom('users').selectAll().execute();
    const before = await users();
    await sql`create trigger users_disk_full before insert on users
      for each row execute function refuse_for_full_disk()`.execute(db);
    const response = await app.inject({ method: 'POST', url: '/initial-setup', payload: setUpBody });
    assert.equal(response.statusCode, 507);
    assert.deepEqual(response.json(), { message: 'Storage is full' });
    assert.match(logs.text(), /No space left on device/);
    assert.deepEqual(await users(), before);
  });
});
