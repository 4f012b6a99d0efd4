import assert from 'node:assert/strict';
import { it } from 'node:test';
import { TOKEN_LIFETIME_SECONDS } from '../src/core/tokens';
import { buildTestApp, cookieHeader, describeEachDatabase } from './helpers/app';
import { login } from './helpers/auth';
import { insertUser } from './helpers/factories';

type SetCookie = {
  name: string;
  value: string;
  maxAge?: number;
  httpOnly?: boolean;
  sameSite?: string;
  path?: string;
};

const cookieNamed = (response: { cookies: unknown[] }, name: string) =>
  (response.cookies as SetCookie[]).find((cookie) => cookie.name === name);

describeEachDatabase('authentication', (target) => {
  it('logs in with name and PIN and sets HttpOnly, SameSite=Strict cookies with the spec lifetimes', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const user = await insertUser(db, { name: 'Lucía', pin: '2468', role: 'staff' });
    const response = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { name: 'Lucía', pin: '2468' },
    });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), {
      message: 'Login successful',
      user: { id: user.id, name: 'Lucía', role: 'staff', is_admin: false },
    });
    for (const [name, lifetime] of [
      ['accessToken', 60],
      ['refreshToken', 30 * 24 * 3600],
    ] as const) {
      const cookie = cookieNamed(response, name);
      assert.ok(cookie, `${name} is set`);
      assert.equal(cookie.httpOnly, true);
      assert.equal(cookie.sameSite, 'Strict');
      assert.equal(cookie.path, '/');
      assert.equal(cookie.maxAge, lifetime);
    }
    assert.equal(cookieNamed(response, 'accessToken')?.maxAge, TOKEN_LIFETIME_SECONDS.access);
    const sessions = await db.selectFrom('sessions').selectAll().execute();
    assert.equal(sessions.length, 1);
  });

  it('answers a wrong PIN and an unknown name identically, and opens no session', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    await insertUser(db, { name: 'Marco', pin: '1357' });
    const wrongPin = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { name: 'Marco', pin: '0000' },
    });
    const unknown = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { name: 'Nobody', pin: '0000' },
    });
    for (const response of [wrongPin, unknown]) {
      assert.equal(response.statusCode, 401);
      assert.deepEqual(response.json(), { message: 'Invalid credentials' });
      assert.equal(response.cookies.length, 0);
    }
    assert.equal((await db.selectFrom('sessions').selectAll().execute()).length, 0);
  });

  it('refuses malformed login bodies with Validation failed', async (t) => {
    const { app } = await buildTestApp(t, target);
    const response = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { name: 'Marco', pin: 12 },
    });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().message, 'Validation failed');
    assert.deepEqual(
      response.json().details.map((detail: { field: string }) => detail.field),
      ['pin'],
    );
  });

  it('rate limits repeated logins for one name with 429 and Retry-After', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    await insertUser(db, { name: 'Target', pin: '1111' });
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof app.inject>> | undefined;
    for (let attempt = 0; attempt < 11; attempt++) {
      last = await app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { name: 'Target', pin: '9999' },
      });
      statuses.push(last.statusCode);
    }
    assert.deepEqual(statuses, [...Array(10).fill(401), 429]);
    assert.deepEqual(last?.json(), { message: 'Too many requests' });
    assert.ok(Number(last?.headers['retry-after']) > 0);
    const otherName = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { name: 'Other', pin: '9999' },
    });
    assert.equal(otherName.statusCode, 401, 'another name is not locked out');
  });

  it('expires the access token after one minute and renews it with the refresh token', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const user = await insertUser(db);
    const cookies = await login(app, user.name, user.pin);
    assert.equal(
      (await app.inject({ method: 'GET', url: '/users/me', headers: { cookie: cookies } })).statusCode,
      200,
    );

    clock.advance(61_000);
    const expired = await app.inject({ method: 'GET', url: '/users/me', headers: { cookie: cookies } });
    assert.equal(expired.statusCode, 401);
    assert.deepEqual(expired.json(), { message: 'Unauthorized', reason: 'expired' });

    const refreshed = await app.inject({
      method: 'POST',
      url: '/auth/refresh',
      headers: { cookie: cookies },
    });
    assert.equal(refreshed.statusCode, 200);
    assert.deepEqual(refreshed.json(), { message: 'Token refreshed successfully' });
    const renewed = cookieHeader(refreshed);
    const me = await app.inject({ method: 'GET', url: '/users/me', headers: { cookie: renewed } });
    assert.equal(me.statusCode, 200);
    assert.equal(me.json().id, user.id);
  });

  it('rotates the refresh token, and reuse of a rotated one after the grace revokes the whole session', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const user = await insertUser(db);
    const first = await login(app, user.name, user.pin);
    const rotated = await app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie: first } });
    assert.equal(rotated.statusCode, 200);
    const second = cookieHeader(rotated);
    assert.notEqual(cookieNamed(rotated, 'refreshToken')?.value, /refreshToken=([^;]+)/.exec(first)?.[1]);

    assert.equal(
      (await app.inject({ method: 'GET', url: '/users/me', headers: { cookie: second } })).statusCode,
      200,
    );
    clock.advance(10_001);
    const replay = await app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie: first } });
    assert.equal(replay.statusCode, 401);
    assert.deepEqual(replay.json(), { message: 'Unauthorized', reason: 'revoked' });

    const afterTheft = await app.inject({
      method: 'POST',
      url: '/auth/refresh',
      headers: { cookie: second },
    });
    assert.equal(afterTheft.statusCode, 401, 'the legitimate holder is logged out too');
    const access = await app.inject({ method: 'GET', url: '/users/me', headers: { cookie: second } });
    assert.equal(access.statusCode, 401, 'the access token of a revoked session stops working at once');
    const session = await db.selectFrom('sessions').selectAll().executeTakeFirstOrThrow();
    assert.notEqual(session.revoked_at, null);
  });

  it('refuses a refresh token after its 30 days, and a forged or missing one', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const user = await insertUser(db);
    const cookies = await login(app, user.name, user.pin);
    const forged = cookies.replace(
      /refreshToken=([^;]+)/,
      (_match, token: string) => `refreshToken=${token.slice(0, -3)}abc`,
    );
    for (const cookie of [forged, '']) {
      const response = await app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie } });
      assert.equal(response.statusCode, 401);
    }
    clock.advance(30 * 24 * 3600 * 1000 + 1000);
    const expired = await app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie: cookies } });
    assert.equal(expired.statusCode, 401);
  });

  it('logs out one device without logging out another', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const user = await insertUser(db);
    const tablet = await login(app, user.name, user.pin);
    const till = await login(app, user.name, user.pin);
    assert.equal(
      (await app.inject({ method: 'GET', url: '/users/me', headers: { cookie: tablet } })).statusCode,
      200,
    );

    const logout = await app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie: tablet } });
    assert.equal(logout.statusCode, 200);
    assert.deepEqual(logout.json(), { message: 'Logout successful' });
    const cleared = (logout.cookies as SetCookie[])
      .filter((cookie) => cookie.value === '')
      .map((cookie) => cookie.name);
    assert.deepEqual(cleared.sort(), ['accessToken', 'refreshToken', 'walletAccessToken']);

    assert.equal(
      (await app.inject({ method: 'GET', url: '/users/me', headers: { cookie: tablet } })).statusCode,
      401,
    );
    assert.equal(
      (await app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie: tablet } })).statusCode,
      401,
    );
    assert.equal(
      (await app.inject({ method: 'GET', url: '/users/me', headers: { cookie: till } })).statusCode,
      200,
    );
  });

  it('logs out with only a valid refresh token', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const user = await insertUser(db);
    const cookies = await login(app, user.name, user.pin);
    const refreshOnly = cookies
      .split('; ')
      .filter((cookie) => cookie.startsWith('refreshToken='))
      .join('; ');
    assert.equal(
      (await app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie: refreshOnly } }))
        .statusCode,
      200,
    );
    assert.equal(
      (await app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie: cookies } })).statusCode,
      401,
    );
    assert.equal(
      (await app.inject({ method: 'GET', url: '/users/me', headers: { cookie: cookies } })).statusCode,
      401,
    );
  });

  it('answers /users/me with the current user', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const user = await insertUser(db, { role: 'admin' });
    const cookies = await login(app, user.name, user.pin);
    const me = await app.inject({ method: 'GET', url: '/users/me', headers: { cookie: cookies } });
    const { permissions, ...identity } = me.json();
    assert.deepEqual(identity, { id: user.id, name: user.name, role: 'admin', is_admin: true });
    assert.ok(permissions.includes('roles.manage') && permissions.includes('wallet.use'));
  });
});
