import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, cookieHeader, describeEachDatabase } from './helpers/app';
import { login } from './helpers/auth';
import { insertUser } from './helpers/factories';

type Cookie = { name: string; value: string };

const refresh = (app: FastifyInstance, cookie: string) =>
  app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie } });

const tokenValues = (response: { cookies: unknown[] }) =>
  Object.fromEntries((response.cookies as Cookie[]).map((cookie) => [cookie.name, cookie.value]));

const unauthorized = (reason: string) => ({ message: 'Unauthorized', reason });

describeEachDatabase('refresh grace', (target) => {
  it('answers two parallel refreshes with the same cookie with the same successor, and keeps the session', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const user = await insertUser(db);
    const cookies = await login(app, user.name, user.pin);
    const [first, second] = await Promise.all([refresh(app, cookies), refresh(app, cookies)]);
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(second.statusCode, 200, second.body);
    assert.deepEqual(tokenValues(first), tokenValues(second));
    assert.deepEqual(Object.keys(tokenValues(first)).sort(), ['accessToken', 'refreshToken']);

    const session = await db.selectFrom('sessions').selectAll().executeTakeFirstOrThrow();
    assert.equal(session.revoked_at, null);
    const successor = cookieHeader(first);
    assert.equal((await app.inject({ url: '/users/me', headers: { cookie: successor } })).statusCode, 200);
    assert.equal((await refresh(app, successor)).statusCode, 200);
  });

  it('answers parallel refreshes over a listening server with identical cookies', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const user = await insertUser(db);
    const cookies = await login(app, user.name, user.pin);
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const responses = await Promise.all(
      Array.from({ length: 4 }, () =>
        fetch(`${address}/auth/refresh`, { method: 'POST', headers: { cookie: cookies } }),
      ),
    );
    assert.deepEqual(
      responses.map((response) => response.status),
      [200, 200, 200, 200],
    );
    const setCookies = responses.map((response) => response.headers.getSetCookie().sort());
    for (const other of setCookies.slice(1)) assert.deepEqual(other, setCookies[0]);
    const session = await db.selectFrom('sessions').selectAll().executeTakeFirstOrThrow();
    assert.equal(session.revoked_at, null);
  });

  it('hands out the same successor within 10 s of the rotation, and revokes the session after', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const user = await insertUser(db);
    const cookies = await login(app, user.name, user.pin);
    const rotated = await refresh(app, cookies);
    clock.advance(10_000);
    const retry = await refresh(app, cookies);
    assert.equal(retry.statusCode, 200);
    assert.deepEqual(tokenValues(retry), tokenValues(rotated));

    clock.advance(1);
    const reuse = await refresh(app, cookies);
    assert.equal(reuse.statusCode, 401);
    assert.deepEqual(reuse.json(), unauthorized('revoked'));
    const session = await db.selectFrom('sessions').selectAll().executeTakeFirstOrThrow();
    assert.notEqual(session.revoked_at, null);
    const successor = await refresh(app, cookieHeader(rotated));
    assert.deepEqual(successor.json(), unauthorized('revoked'), 'the successor dies with the session');
  });

  it('revokes the session when a token two rotations old comes back, even within 10 s', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const user = await insertUser(db);
    const original = await login(app, user.name, user.pin);
    const second = cookieHeader(await refresh(app, original));
    assert.equal((await refresh(app, second)).statusCode, 200);
    const stale = await refresh(app, original);
    assert.deepEqual(stale.json(), unauthorized('revoked'));
  });
});

describeEachDatabase('401 reasons', (target) => {
  it('says missing, expired, invalid or revoked on protected routes', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const user = await insertUser(db);
    const cookies = await login(app, user.name, user.pin);
    const me = (cookie: string) => app.inject({ url: '/users/me', headers: { cookie } });

    assert.deepEqual((await me('')).json(), unauthorized('missing'));
    assert.deepEqual((await me('accessToken=x.y.z')).json(), unauthorized('invalid'));
    const other = await login(app, user.name, user.pin);
    await app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie: other } });
    assert.deepEqual((await me(other)).json(), unauthorized('revoked'));
    clock.advance(61_000);
    assert.deepEqual((await me(cookies)).json(), unauthorized('expired'));
  });

  it('says missing, expired, invalid or revoked on refresh', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const user = await insertUser(db);
    const cookies = await login(app, user.name, user.pin);
    assert.deepEqual((await refresh(app, '')).json(), unauthorized('missing'));
    const accessAsRefresh = cookies
      .replace(/refreshToken=[^;]+/, '')
      .replace('accessToken=', 'refreshToken=');
    assert.deepEqual((await refresh(app, accessAsRefresh)).json(), unauthorized('invalid'));

    const loggedOut = await login(app, user.name, user.pin);
    await app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie: loggedOut } });
    assert.deepEqual((await refresh(app, loggedOut)).json(), unauthorized('revoked'));

    clock.advance(30 * 24 * 3600 * 1000 + 1000);
    const expired = await refresh(app, cookies);
    assert.equal(expired.statusCode, 401);
    assert.deepEqual(expired.json(), unauthorized('expired'));
  });

  it('leaves wrong credentials without a reason', async (t) => {
    const { app } = await buildTestApp(t, target);
    const response = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { name: 'x', pin: '0000' },
    });
    assert.deepEqual(response.json(), { message: 'Invalid credentials' });
  });
});
