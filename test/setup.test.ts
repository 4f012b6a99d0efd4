import assert from 'node:assert/strict';
import { pbkdf2Sync } from 'node:crypto';
import { it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { openDatabase } from '../src/core/db/database';
import { verifyWalletPassword } from '../src/core/pin';
import { buildTestApp, describeEachDatabase, TEST_PIN_KEY, testConfig } from './helpers/app';
import { openTestDatabase } from './helpers/database';

describeEachDatabase('initial setup', (target) => {
  it('creates the first admin once, then refuses with 403', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    assert.deepEqual((await app.inject({ method: 'GET', url: '/initial-setup' })).json(), {
      initialized: false,
    });

    const created = await app.inject({
      method: 'POST',
      url: '/initial-setup',
      payload: { name: 'Owner', pin: '123456', wallet_password: 'correct horse battery' },
    });
    assert.equal(created.statusCode, 201);
    assert.equal(created.json().message, 'Initial setup completed');
    assert.deepEqual((await app.inject({ method: 'GET', url: '/initial-setup' })).json(), {
      initialized: true,
    });

    const again = await app.inject({
      method: 'POST',
      url: '/initial-setup',
      payload: { name: 'Intruder', pin: '0000' },
    });
    assert.equal(again.statusCode, 403);
    assert.deepEqual(again.json(), { message: 'Initial setup already completed' });

    const users = await db.selectFrom('users').selectAll().execute();
    assert.equal(users.length, 1);
    assert.equal(users[0]?.role, 'admin');
    assert.ok(
      await verifyWalletPassword(
        'correct horse battery',
        TEST_PIN_KEY,
        users[0]?.id ?? '',
        users[0]?.wallet_password_hash ?? '',
      ),
    );
  });

  it("prepares a Mexican restaurant's settings when the setup says Mexico, and leaves them otherwise", async (t) => {
    const mexican = await buildTestApp(t, target);
    const badCountry = await mexican.app.inject({
      method: 'POST',
      url: '/initial-setup',
      payload: { name: 'Owner', pin: '1234', country: 'Narnia' },
    });
    assert.equal(badCountry.statusCode, 400, badCountry.body);
    assert.equal((await mexican.db.selectFrom('users').selectAll().execute()).length, 0);

    const created = await mexican.app.inject({
      method: 'POST',
      url: '/initial-setup',
      payload: { name: 'Owner', pin: '1234', country: 'MX' },
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.deepEqual(pick(await settingsOf(mexican.app)), {
      tax_rate: 16,
      prices_include_tax: true,
      timezone: 'America/Mexico_City',
      base_currency: 'MXN',
      locale: 'es-MX',
    });

    const elsewhere = await buildTestApp(t, target, { env: { POS_TIMEZONE: 'Europe/Madrid' } });
    await elsewhere.app.inject({
      method: 'POST',
      url: '/initial-setup',
      payload: { name: 'Owner', pin: '1234', country: 'other' },
    });
    assert.deepEqual(pick(await settingsOf(elsewhere.app)), {
      tax_rate: 0,
      prices_include_tax: true,
      timezone: 'Europe/Madrid',
      base_currency: 'MXN',
      locale: 'es-MX',
    });
  });

  it('takes the country from POS_COUNTRY when the setup does not say, as an unattended start does', async (t) => {
    const unattended = await buildTestApp(t, target, {
      env: { POS_COUNTRY: 'MX', POS_ADMIN_NAME: 'Owner', POS_ADMIN_PIN: '1234' },
    });
    assert.equal((await settingsOf(unattended.app)).timezone, 'America/Mexico_City');
    assert.equal(unattended.app.restaurantAtStart.taxRateBasisPoints, 1600);
    assert.throws(() => testConfig({ POS_COUNTRY: 'mx' }), /POS_COUNTRY must be one of MX, other/);
  });

  it('stores the PIN as PBKDF2-HMAC-SHA256(pin, master key ‖ name, 10000, 32)', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    await app.inject({ method: 'POST', url: '/initial-setup', payload: { name: 'Owner', pin: '123456' } });
    const stored = await db.selectFrom('users').select('pin_hash').executeTakeFirstOrThrow();
    const expected = pbkdf2Sync('123456', `${TEST_PIN_KEY}Owner`, 10_000, 32, 'sha256').toString('hex');
    assert.equal(stored.pin_hash, expected);
  });

  it('creates exactly one admin when many setup calls race', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        app.inject({
          method: 'POST',
          url: '/initial-setup',
          payload: { name: `Admin ${index}`, pin: '1234' },
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    assert.deepEqual(statuses, [201, ...Array(9).fill(403)]);
    assert.equal((await db.selectFrom('users').selectAll().execute()).length, 1);
  });

  it('creates exactly one admin when two server instances race on one database', {
    skip: target.name === 'sqlite' && 'one in-memory SQLite database cannot be shared by two instances',
  }, async (t) => {
    const { database, url, dispose } = await openTestDatabase(target);
    t.after(dispose);
    const config = testConfig({ DATABASE_URL: url });
    const instances = [await buildApp(config), await buildApp(config)];
    t.after(() => Promise.all(instances.map((instance) => instance.close())));
    const responses = await Promise.all(
      instances.flatMap((instance, index) =>
        Array.from({ length: 5 }, (_, call) =>
          instance.inject({
            method: 'POST',
            url: '/initial-setup',
            payload: { name: `Admin ${index}-${call}`, pin: '1234' },
          }),
        ),
      ),
    );
    assert.equal(responses.filter((response) => response.statusCode === 201).length, 1);
    assert.equal((await database.db.selectFrom('users').selectAll().execute()).length, 1);
  });

  it('bootstraps the admin from POS_ADMIN_* when no user exists, and only then', async (t) => {
    const { database, url, dispose } = await openTestDatabase(target);
    t.after(dispose);
    const env = {
      DATABASE_URL: url,
      POS_ADMIN_NAME: 'Boss',
      POS_ADMIN_PIN: '8642',
      POS_ADMIN_WALLET_PASSWORD: 'sats are money',
    };
    const first = await buildApp(testConfig(env), { database });
    await first.close();
    const second = await buildApp(testConfig({ ...env, POS_ADMIN_NAME: 'Other' }), { database });
    t.after(() => second.close());
    const users = await database.db.selectFrom('users').select(['name', 'role']).execute();
    assert.deepEqual(users, [{ name: 'Boss', role: 'admin' }]);
    const login = await second.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { name: 'Boss', pin: '8642' },
    });
    assert.equal(login.statusCode, 200);
  });

  it('keeps generated secrets across restarts so sessions and PINs stay valid', {
    skip:
      target.name !== 'sqlite' &&
      'the restart keeps its secrets in a SQLite file; the engine does not matter',
  }, async (t) => {
    const path = `/tmp/pos-secrets-${process.pid}-${Date.now()}.db`;
    const config = testConfig({ DATABASE_URL: `sqlite:${path}`, POS_PIN_KEY: '', POS_JWT_SECRET: '' });
    const first = await buildApp(config);
    await first.inject({ method: 'POST', url: '/initial-setup', payload: { name: 'Owner', pin: '1234' } });
    const login = await first.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { name: 'Owner', pin: '1234' },
    });
    await first.close();

    const second = await buildApp(config);
    t.after(() => second.close());
    const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    assert.equal(
      (await second.inject({ method: 'GET', url: '/users/me', headers: { cookie } })).statusCode,
      200,
    );
    const relogin = await second.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { name: 'Owner', pin: '1234' },
    });
    assert.equal(relogin.statusCode, 200);
    const stored = openDatabase(`sqlite:${path}`);
    t.after(() => stored.close());
    const secrets = await stored.db.selectFrom('app_settings').select('name').execute();
    assert.deepEqual(secrets.map((row) => row.name).sort(), [
      'audit_head',
      'initial_setup',
      'jwt_secret',
      'pin_key',
      'pin_key_check',
    ]);
  });
});

async function settingsOf(app: FastifyInstance): Promise<Record<string, unknown>> {
  const login = await app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: { name: 'Owner', pin: '1234' },
  });
  const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  return (await app.inject({ method: 'GET', url: '/settings', headers: { cookie } })).json();
}

function pick(settings: Record<string, unknown>) {
  const { tax_rate, prices_include_tax, timezone, base_currency, locale } = settings;
  return { tax_rate, prices_include_tax, timezone, base_currency, locale };
}
