import assert from 'node:assert/strict';
import { it } from 'node:test';
import { verifyWalletPassword } from '../src/core/pin';
import { buildTestApp, cookieHeader, describeEachDatabase, TEST_PIN_KEY } from './helpers/app';
import { loggedInUser, login } from './helpers/auth';
import { insertUser } from './helpers/factories';
import {
  buildWalletTestApp,
  setWalletPassword,
  unlockedAdmin,
  WALLET_PASSWORD,
} from './helpers/wallet-factories';

const WALLET_REQUIRED = { message: 'Wallet authentication required' };

describeEachDatabase('wallet access', (target) => {
  it('grants a five-minute HttpOnly wallet cookie for the right password', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { user, cookies } = await loggedInUser(app, db, 'admin');
    await setWalletPassword(db, user.id);
    const response = await app.inject({
      method: 'POST',
      url: '/wallet/auth',
      headers: { cookie: cookies },
      payload: { password: WALLET_PASSWORD },
    });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { message: 'Wallet access granted' });
    const cookie = response.cookies.find((c) => c.name === 'walletAccessToken');
    assert.ok(cookie);
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Strict');
    assert.equal(cookie.maxAge, 300);
  });

  it('refuses a wrong wallet password, and an admin who has none', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { user, cookies } = await loggedInUser(app, db, 'admin');
    const withoutPassword = await app.inject({
      method: 'POST',
      url: '/wallet/auth',
      headers: { cookie: cookies },
      payload: { password: WALLET_PASSWORD },
    });
    assert.equal(withoutPassword.statusCode, 401);
    assert.deepEqual(withoutPassword.json(), { message: 'Invalid credentials' });

    await setWalletPassword(db, user.id);
    const wrong = await app.inject({
      method: 'POST',
      url: '/wallet/auth',
      headers: { cookie: cookies },
      payload: { password: 'not the password' },
    });
    assert.equal(wrong.statusCode, 401);
    assert.deepEqual(wrong.json(), { message: 'Invalid credentials' });
    assert.equal(wrong.cookies.length, 0);
  });

  it('throttles repeated wallet password guesses', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { user, cookies } = await loggedInUser(app, db, 'admin');
    await setWalletPassword(db, user.id);
    const guess = () =>
      app.inject({
        method: 'POST',
        url: '/wallet/auth',
        headers: { cookie: cookies },
        payload: { password: 'guess' },
      });
    for (let attempt = 0; attempt < 10; attempt++) assert.equal((await guess()).statusCode, 401);
    const throttled = await guess();
    assert.equal(throttled.statusCode, 429);
    assert.deepEqual(throttled.json(), { message: 'Too many requests' });
    assert.ok(throttled.headers['retry-after']);
  });

  it('keeps wallet sign-in and logout to administrators', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'staff');
    for (const url of ['/wallet/auth', '/wallet/logout']) {
      const response = await app.inject({
        method: 'POST',
        url,
        headers: { cookie: cookies },
        payload: { password: WALLET_PASSWORD },
      });
      assert.equal(response.statusCode, 403, url);
    }
    const anonymous = await app.inject({ method: 'POST', url: '/wallet/logout' });
    assert.equal(anonymous.statusCode, 401);
  });

  it('revokes the wallet token on wallet logout, so a copy of it is refused', async (t) => {
    const { app, db } = await buildWalletTestApp(t, target);
    const { walletCookies } = await unlockedAdmin(app, db);
    assert.equal(
      (await app.inject({ url: '/wallet/getbalance', headers: { cookie: walletCookies } })).statusCode,
      200,
    );
    const logout = await app.inject({
      method: 'POST',
      url: '/wallet/logout',
      headers: { cookie: walletCookies },
    });
    assert.equal(logout.statusCode, 200);
    const copy = await app.inject({ url: '/wallet/getbalance', headers: { cookie: walletCookies } });
    assert.equal(copy.statusCode, 401);
    assert.deepEqual(copy.json(), WALLET_REQUIRED);
    assert.equal((await db.selectFrom('revoked_wallet_tokens').selectAll().execute()).length, 1);
  });

  it('clears the wallet cookie on wallet logout', async (t) => {
    const { app, db } = await buildWalletTestApp(t, target);
    const { walletCookies } = await unlockedAdmin(app, db);
    const response = await app.inject({
      method: 'POST',
      url: '/wallet/logout',
      headers: { cookie: walletCookies },
    });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { status: 'ok' });
    const afterLogout = cookieHeader(response);
    const cleared = response.cookies.find((c) => c.name === 'walletAccessToken');
    assert.equal(cleared?.value, '');
    assert.equal(afterLogout.includes('walletAccessToken'), false);
  });

  it('answers 403 to staff and 401 to an admin without a wallet token', async (t) => {
    const { app, db } = await buildWalletTestApp(t, target);
    const staff = await loggedInUser(app, db, 'staff');
    const staffAnswer = await app.inject({ url: '/wallet/getbalance', headers: { cookie: staff.cookies } });
    assert.equal(staffAnswer.statusCode, 403);
    assert.deepEqual(staffAnswer.json(), { message: 'Unauthorized API access' });

    const admin = await loggedInUser(app, db, 'admin');
    for (const url of [
      '/wallet/getbalance',
      '/wallet/getinfo',
      '/wallet/payments/incoming',
      '/wallet/payments/outgoing',
    ]) {
      const response = await app.inject({ url, headers: { cookie: admin.cookies } });
      assert.equal(response.statusCode, 401, url);
      assert.deepEqual(response.json(), WALLET_REQUIRED);
    }
    const pay = await app.inject({
      method: 'POST',
      url: '/wallet/bumpfee',
      headers: { cookie: admin.cookies, 'content-type': 'application/json' },
      payload: '5',
    });
    assert.equal(pay.statusCode, 401);
  });

  it('lets any logged-in user create an invoice without a wallet token', async (t) => {
    const { app, db, simulator } = await buildWalletTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'staff');
    const response = await app.inject({
      method: 'POST',
      url: '/wallet/createinvoice',
      headers: { cookie: cookies },
      payload: { description: 'Table 2', amountSat: 4200 },
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().amountSat, 4200);
    assert.equal(simulator.node.incoming.size, 1);
    const anonymous = await app.inject({
      method: 'POST',
      url: '/wallet/createinvoice',
      payload: { description: 'Table 2', amountSat: 4200 },
    });
    assert.equal(anonymous.statusCode, 401);
  });

  it('expires the wallet token after five minutes', async (t) => {
    const { app, db, clock } = await buildWalletTestApp(t, target);
    const { walletCookies } = await unlockedAdmin(app, db);
    const walletToken = walletCookies.split('; ').find((c) => c.startsWith('walletAccessToken='));
    // The one-minute access token lapses meanwhile; refreshing keeps the same login session.
    const freshSession = async (cookies: string) =>
      cookieHeader(await app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie: cookies } }));

    clock.advance(4 * 60 * 1000);
    const session = await freshSession(walletCookies);
    const stillValid = await app.inject({
      url: '/wallet/getbalance',
      headers: { cookie: `${session}; ${walletToken}` },
    });
    assert.equal(stillValid.statusCode, 200, stillValid.body);

    clock.advance(60 * 1000 + 1);
    const laterSession = await freshSession(session);
    const expired = await app.inject({
      url: '/wallet/getbalance',
      headers: { cookie: `${laterSession}; ${walletToken}` },
    });
    assert.equal(expired.statusCode, 401);
    assert.deepEqual(expired.json(), WALLET_REQUIRED);
  });

  it('refuses a wallet token from another login session or another admin', async (t) => {
    const { app, db } = await buildWalletTestApp(t, target);
    const { user, walletCookies } = await unlockedAdmin(app, db);
    const walletToken = walletCookies.split('; ').find((c) => c.startsWith('walletAccessToken='));
    const secondSession = await login(app, user.name, user.pin);
    const otherSession = await app.inject({
      url: '/wallet/getbalance',
      headers: { cookie: `${secondSession}; ${walletToken}` },
    });
    assert.equal(otherSession.statusCode, 401);

    const otherAdmin = await loggedInUser(app, db, 'admin');
    const stolen = await app.inject({
      url: '/wallet/getbalance',
      headers: { cookie: `${otherAdmin.cookies}; ${walletToken}` },
    });
    assert.equal(stolen.statusCode, 401);
    assert.deepEqual(stolen.json(), WALLET_REQUIRED);
  });

  it('answers 503 when no node is configured while the rest of the API works', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { walletCookies, cookies } = await unlockedAdmin(app, db);
    for (const request of [
      { url: '/wallet/getbalance', headers: { cookie: walletCookies } },
      {
        method: 'POST' as const,
        url: '/wallet/createinvoice',
        headers: { cookie: cookies },
        payload: { description: 'x', amountSat: 1 },
      },
    ]) {
      const response = await app.inject(request);
      assert.equal(response.statusCode, 503);
      assert.deepEqual(response.json(), { message: 'Lightning node is not configured' });
    }
    assert.equal((await app.inject({ url: '/users/me', headers: { cookie: cookies } })).statusCode, 200);
  });
});

describeEachDatabase('wallet password', (target) => {
  const change = (cookies: string, payload: object) => ({
    method: 'PUT' as const,
    url: '/users/me/wallet-password',
    headers: { cookie: cookies },
    payload,
  });

  it('sets a first wallet password only with the PIN, then changes it only with the current one', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { user, cookies } = await loggedInUser(app, db, 'admin');
    const withoutPin = await app.inject(change(cookies, { new_password: 'first password' }));
    assert.equal(withoutPin.statusCode, 400);
    assert.deepEqual(withoutPin.json(), { message: 'Your PIN is required to set a first wallet password' });
    const wrongPin = await app.inject(change(cookies, { pin: '0000', new_password: 'first password' }));
    assert.equal(wrongPin.statusCode, 401);
    assert.deepEqual(wrongPin.json(), { message: 'Invalid credentials' });
    const unset = await db
      .selectFrom('users')
      .select('wallet_password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    assert.equal(unset.wallet_password_hash, null);

    const first = await app.inject(change(cookies, { pin: user.pin, new_password: 'first password' }));
    assert.equal(first.statusCode, 200, first.body);
    assert.deepEqual(first.json(), { message: 'Wallet password updated' });

    const stored = async () =>
      (
        await db
          .selectFrom('users')
          .select('wallet_password_hash')
          .where('id', '=', user.id)
          .executeTakeFirstOrThrow()
      ).wallet_password_hash ?? '';
    assert.ok(await verifyWalletPassword('first password', TEST_PIN_KEY, user.id, await stored()));

    const withoutCurrent = await app.inject(
      change(cookies, { pin: user.pin, new_password: 'second password' }),
    );
    assert.equal(
      withoutCurrent.statusCode,
      400,
      'the PIN does not replace the current password once one is set',
    );
    const wrongCurrent = await app.inject(
      change(cookies, { current_password: 'guess', new_password: 'second password' }),
    );
    assert.equal(wrongCurrent.statusCode, 401);
    assert.ok(await verifyWalletPassword('first password', TEST_PIN_KEY, user.id, await stored()));

    const changed = await app.inject(
      change(cookies, { current_password: 'first password', new_password: 'second password' }),
    );
    assert.equal(changed.statusCode, 200);
    assert.ok(await verifyWalletPassword('second password', TEST_PIN_KEY, user.id, await stored()));
  });

  it('shares one failure budget between wrong proofs here and wrong passwords at /wallet/auth', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { user, cookies } = await loggedInUser(app, db, 'admin');
    const walletAuth = () =>
      app.inject({
        method: 'POST',
        url: '/wallet/auth',
        headers: { cookie: cookies },
        payload: { password: 'guess' },
      });
    for (let guess = 0; guess < 5; guess++) {
      assert.equal(
        (await app.inject(change(cookies, { pin: '0000', new_password: 'new password' }))).statusCode,
        401,
      );
      assert.equal((await walletAuth()).statusCode, 401);
    }
    const throttled = await app.inject(change(cookies, { pin: user.pin, new_password: 'new password' }));
    assert.equal(throttled.statusCode, 429);
    assert.deepEqual(throttled.json(), { message: 'Too many requests' });
    assert.ok(Number(throttled.headers['retry-after']) > 0);
    assert.equal((await walletAuth()).statusCode, 429);
  });

  it('refuses short passwords and staff callers', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const admin = await loggedInUser(app, db, 'admin');
    const short = await app.inject(change(admin.cookies, { new_password: 'short' }));
    assert.equal(short.statusCode, 400);
    assert.equal(short.json().message, 'Validation failed');
    const staff = await insertUser(db, { role: 'staff' });
    const staffCookies = await login(app, staff.name, staff.pin);
    assert.equal((await app.inject(change(staffCookies, { new_password: 'long enough' }))).statusCode, 403);
  });
});
