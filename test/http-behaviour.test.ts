import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser, login } from './helpers/auth';
import { insertUser } from './helpers/factories';
import { captureLogs } from './helpers/log-capture';

describeEachDatabase('HTTP behaviour', (target) => {
  it('refuses a cookie-carrying write from a foreign Origin, and allows its own and configured origins', async (t) => {
    const { app, db } = await buildTestApp(t, target, { env: { POS_CORS_ORIGINS: 'https://till.example' } });
    const { cookies } = await loggedInUser(app, db, 'admin');
    const create = (origin: string | undefined, name: string) =>
      app.inject({
        method: 'POST',
        url: '/users',
        headers: { cookie: cookies, ...(origin && { origin }) },
        payload: { name, pin: '1234' },
      });

    const foreign = await create('https://evil.example', 'Mallory');
    assert.equal(foreign.statusCode, 403);
    assert.deepEqual(foreign.json(), { message: 'Origin not allowed' });
    assert.equal(
      await db.selectFrom('users').select('id').where('name', '=', 'Mallory').executeTakeFirst(),
      undefined,
    );

    assert.equal((await create('http://localhost:80', 'Same origin')).statusCode, 201);
    assert.equal((await create('https://till.example', 'Configured')).statusCode, 201);
    assert.equal((await create(undefined, 'Native app')).statusCode, 201);
  });

  it('logs a refused write origin once, naming POS_CORS_ORIGINS', async (t) => {
    const logs = captureLogs();
    const { app, db } = await buildTestApp(t, target, { env: { LOG_LEVEL: 'warn' }, logStream: logs.stream });
    const { cookies } = await loggedInUser(app, db, 'admin');
    const write = (origin: string) =>
      app.inject({
        method: 'POST',
        url: '/spaces',
        headers: { cookie: cookies, origin },
        payload: { name: 'Bar' },
      });

    for (const origin of [
      'http://pos-client.lan:8080',
      'http://pos-client.lan:8080',
      'https://other.example',
    ]) {
      assert.equal((await write(origin)).statusCode, 403);
    }
    const refusals = logs
      .text()
      .split('\n')
      .filter((line) => line.includes('POS_CORS_ORIGINS'))
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      refusals.map((line) => line.origin),
      ['http://pos-client.lan:8080', 'https://other.example'],
    );
    assert.match(refusals[0].msg, /http:\/\/pos-client\.lan:8080.*POS_CORS_ORIGINS/);
  });

  it('answers CORS preflights with credentials only for configured origins', async (t) => {
    const { app } = await buildTestApp(t, target, { env: { POS_CORS_ORIGINS: 'https://till.example' } });
    const preflight = (origin: string) =>
      app.inject({
        method: 'OPTIONS',
        url: '/orders',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
    const allowed = await preflight('https://till.example');
    assert.equal(allowed.headers['access-control-allow-origin'], 'https://till.example');
    assert.equal(allowed.headers['access-control-allow-credentials'], 'true');
    const refused = await preflight('https://evil.example');
    assert.equal(refused.headers['access-control-allow-origin'], undefined);
  });

  it('logs a 421 once per host name, naming POS_ALLOWED_HOSTS', async (t) => {
    const logs = captureLogs();
    const { app } = await buildTestApp(t, target, { env: { LOG_LEVEL: 'info' }, logStream: logs.stream });
    for (const host of ['pos.restaurant.lan', 'POS.restaurant.lan', 'pos.restaurant.lan', 'other.lan:443']) {
      const response = await app.inject({ method: 'GET', url: '/health/live', headers: { host } });
      assert.equal(response.statusCode, 421, host);
    }
    const warnings = logs
      .text()
      .split('\n')
      .filter((line) => line.includes('POS_ALLOWED_HOSTS'))
      .map((line) => JSON.parse(line).msg);
    assert.deepEqual(warnings, [
      '421 for requests addressed to "pos.restaurant.lan": if this server is reached by that name, add it to POS_ALLOWED_HOSTS',
      '421 for requests addressed to "other.lan": if this server is reached by that name, add it to POS_ALLOWED_HOSTS',
    ]);
  });

  it('checks the host a trusted proxy forwards, for the 421 and for the origin of a write', async (t) => {
    const { app, db } = await buildTestApp(t, target, {
      env: { POS_ALLOWED_HOSTS: 'pos.example', POS_TRUST_PROXY: '127.0.0.1' },
    });
    const { cookies } = await loggedInUser(app, db, 'admin');
    const forwarded = (forwardedHost: string, origin?: string) =>
      app.inject({
        method: 'PUT',
        url: '/settings',
        remoteAddress: '127.0.0.1',
        headers: {
          host: 'localhost:3000',
          'x-forwarded-host': forwardedHost,
          cookie: cookies,
          ...(origin && { origin }),
        },
        payload: { business_name: 'Rebound' },
      });
    const rebound = await forwarded('evil.example', 'http://evil.example');
    assert.deepEqual([rebound.statusCode, rebound.json()], [421, { message: 'Unknown host' }]);
    assert.equal((await forwarded('evil.example')).statusCode, 421);
    assert.equal((await forwarded('pos.example', 'http://pos.example')).statusCode, 200);
  });

  it('refuses requests addressed to a host name it does not know (DNS rebinding), before anything else', async (t) => {
    const { app, db } = await buildTestApp(t, target, {
      env: { POS_ALLOWED_HOSTS: 'pos.example, Till.Lan' },
    });
    const { cookies } = await loggedInUser(app, db, 'admin');
    const get = (host: string) =>
      app.inject({ method: 'GET', url: '/users/me', headers: { host, cookie: cookies } });

    for (const host of ['evil.example', 'evil.example:9154', 'localhost.evil.example', 'pos.example.evil']) {
      const response = await get(host);
      assert.equal(response.statusCode, 421, host);
      assert.deepEqual(response.json(), { message: 'Unknown host' });
    }
    const write = await app.inject({
      method: 'POST',
      url: '/users',
      headers: { host: 'evil.example', origin: 'http://evil.example', cookie: cookies },
      payload: { name: 'Rebound', pin: '1234' },
    });
    assert.equal(write.statusCode, 421);
    assert.deepEqual(write.json(), { message: 'Unknown host' });
    assert.equal(
      await db.selectFrom('users').select('id').where('name', '=', 'Rebound').executeTakeFirst(),
      undefined,
    );
    const unknownRoute = await app.inject({
      method: 'GET',
      url: '/nowhere',
      headers: { host: 'evil.example' },
    });
    assert.equal(unknownRoute.statusCode, 421);

    for (const host of [
      '127.0.0.1:9154',
      '192.168.1.20',
      '[::1]',
      '[::1]:9154',
      'localhost',
      'LOCALHOST:3000',
      'pos.example',
      'till.lan:8080',
    ]) {
      assert.equal((await get(host)).statusCode, 200, host);
    }
  });

  it('lets listed origins use every method and the headers clients send', async (t) => {
    const { app, db } = await buildTestApp(t, target, { env: { POS_CORS_ORIGINS: 'https://till.example' } });
    const { cookies } = await loggedInUser(app, db, 'admin');
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/users/00000000-0000-4000-8000-000000000000',
      headers: {
        origin: 'https://till.example',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type,idempotency-key,last-event-id',
      },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], 'https://till.example');
    assert.equal(preflight.headers['access-control-allow-credentials'], 'true');
    const methods = String(preflight.headers['access-control-allow-methods']).split(/,\s*/);
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'])
      assert.ok(methods.includes(method), method);
    const headers = String(preflight.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/);
    for (const header of ['content-type', 'idempotency-key', 'last-event-id']) {
      assert.ok(headers.includes(header), header);
    }

    const user = await insertUser(db, { pin: '2468' });
    const fromTill = { origin: 'https://till.example', cookie: cookies };
    const put = await app.inject({
      method: 'PUT',
      url: `/users/${user.id}`,
      headers: fromTill,
      payload: { name: user.name, role: 'admin' },
    });
    assert.equal(put.statusCode, 200, put.body);
    assert.equal(put.headers['access-control-allow-origin'], 'https://till.example');
    assert.equal(put.headers['access-control-allow-credentials'], 'true');
    const deleted = await app.inject({ method: 'DELETE', url: `/users/${user.id}`, headers: fromTill });
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.equal(deleted.headers['access-control-allow-origin'], 'https://till.example');
    const stored = await db
      .selectFrom('users')
      .select(['role', 'is_deleted'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(stored, { role: 'admin', is_deleted: 1 });
  });

  it('sends security headers', async (t) => {
    const { app } = await buildTestApp(t, target);
    const response = await app.inject({ method: 'GET', url: '/' });
    assert.equal(response.headers['x-content-type-options'], 'nosniff');
    assert.equal(response.headers['x-frame-options'], 'SAMEORIGIN');
    assert.match(response.headers['content-security-policy'] as string, /default-src 'self'/);
  });

  it('answers malformed JSON, oversized bodies and wrong content types with 4xx', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const post = (payload: string, contentType: string) =>
      app.inject({
        method: 'POST',
        url: '/users',
        headers: { cookie: cookies, 'content-type': contentType },
        payload,
      });
    const malformed = await post('{"name": "x",', 'application/json');
    assert.equal(malformed.statusCode, 400);
    assert.equal(typeof malformed.json().message, 'string');
    assert.equal(
      (await post(JSON.stringify({ name: 'x'.repeat(300_000), pin: '1234' }), 'application/json')).statusCode,
      413,
    );
    assert.equal((await post('name=x&pin=1234', 'application/x-www-form-urlencoded')).statusCode, 415);
  });

  it('hides the cause of an unexpected failure and logs it', async (t) => {
    const logs = captureLogs();
    const { app } = await buildTestApp(t, target, { env: { LOG_LEVEL: 'info' }, logStream: logs.stream });
    app.get('/boom', { config: { public: true } }, async () => {
      throw new Error('select secret_column from hidden_table');
    });
    const response = await app.inject({ method: 'GET', url: '/boom' });
    assert.equal(response.statusCode, 500);
    assert.deepEqual(response.json(), { message: 'Internal server error' });
    assert.match(logs.text(), /hidden_table/);
  });

  it('keeps PINs, passwords and tokens out of the log', async (t) => {
    const logs = captureLogs();
    const { app, db } = await buildTestApp(t, target, {
      env: { LOG_LEVEL: 'trace' },
      logStream: logs.stream,
    });
    const user = await insertUser(db, { pin: '97531' });
    const cookies = await login(app, user.name, user.pin);
    await app.inject({ method: 'POST', url: '/auth/login', payload: { name: user.name, pin: '86420' } });
    await app.inject({ method: 'GET', url: '/users/me', headers: { cookie: cookies } });
    app.log.info({ body: { pin: '11223', password: 'hunter22' } }, 'a careless line');
    const log = logs.text();
    assert.ok(log.length > 0);
    for (const secret of ['97531', '86420', '11223', 'hunter22', cookies.slice(12, 60)]) {
      assert.ok(!log.includes(secret), `log must not contain ${secret}`);
    }
  });
});
