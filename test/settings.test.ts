import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { billableOrder, createBill } from './helpers/checkout-factories';
import { databaseDigest } from './helpers/db-digest';
import { callerFor } from './helpers/orders-factories';

const ENV = {
  POS_TIMEZONE: 'America/Mexico_City',
  POS_BASE_CURRENCY: 'USD',
  POS_RATE_SOURCE: 'fixed:95000.5',
};

describeEachDatabase('business settings', (target) => {
  it('starts from the configured zone and currency, and any user reads them', async (t) => {
    const { app, db } = await buildTestApp(t, target, { env: ENV });
    const kitchen = callerFor(app, (await loggedInUser(app, db, 'kitchen')).cookies);
    const response = await kitchen('GET', '/settings');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), {
      business_name: '',
      address: '',
      tax_id: '',
      phone: '',
      receipt_footer: '',
      tax_rate: 0,
      prices_include_tax: true,
      timezone: 'America/Mexico_City',
      base_currency: 'USD',
      require_shift_for_cash: false,
      webhooks_block_private_targets: false,
      blind_shift_close: false,
      close_paid_orders: true,
      locale: 'en-US',
      tip_suggestions: [10, 15, 20],
      max_tip_percent: 100,
    });
    const mexican = await buildTestApp(t, target, { env: { ...ENV, POS_BASE_CURRENCY: 'MXN' } });
    const waiter = callerFor(mexican.app, (await loggedInUser(mexican.app, mexican.db, 'staff')).cookies);
    assert.equal(
      (await waiter('GET', '/settings')).json().locale,
      'es-MX',
      'a peso set-up prints in Spanish',
    );
  });

  it('changes only the fields sent, for settings.write holders only', async (t) => {
    const { app, db } = await buildTestApp(t, target, { env: ENV });
    const admin = callerFor(app, (await loggedInUser(app, db, 'admin')).cookies);
    const staff = callerFor(app, (await loggedInUser(app, db, 'staff')).cookies);
    const before = await databaseDigest(db);
    const refused = await staff('PUT', '/settings', { business_name: 'Mine now' });
    assert.deepEqual([refused.statusCode, refused.json()], [403, { message: 'Unauthorized API access' }]);
    for (const body of [
      {},
      { timezone: 'Mars/Olympus' },
      { tax_rate: 16.001 },
      { tax_rate: 101 },
      { base_currency: 'EUR' },
      { business_name: 'x', colour: 'red' },
      { webhooks_block_private_targets: 'yes' },
      { locale: 'es-ES' },
      { tip_suggestions: [0] },
      { tip_suggestions: [10, 10] },
      { tip_suggestions: [5, 10, 15, 20, 25, 30] },
      { max_tip_percent: -1 },
      { max_tip_percent: 12.5 },
    ]) {
      const response = await admin('PUT', '/settings', body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
    }
    assert.equal(await databaseDigest(db), before, 'refused requests change nothing');

    const changed = await admin('PUT', '/settings', {
      business_name: 'La Esquina',
      tax_rate: 16,
      prices_include_tax: false,
      receipt_footer: '¡Gracias!',
      require_shift_for_cash: true,
      locale: 'es-MX',
      tip_suggestions: [12, 18],
      max_tip_percent: 30,
    });
    assert.equal(changed.statusCode, 200, changed.body);
    const expected = {
      business_name: 'La Esquina',
      address: '',
      tax_id: '',
      phone: '',
      receipt_footer: '¡Gracias!',
      tax_rate: 16,
      prices_include_tax: false,
      timezone: 'America/Mexico_City',
      base_currency: 'USD',
      require_shift_for_cash: true,
      webhooks_block_private_targets: false,
      blind_shift_close: false,
      close_paid_orders: true,
      locale: 'es-MX',
      tip_suggestions: [12, 18],
      max_tip_percent: 30,
    };
    assert.deepEqual(changed.json(), expected);
    assert.deepEqual((await staff('GET', '/settings')).json(), expected);
    const row = await db.selectFrom('business_settings').selectAll().executeTakeFirstOrThrow();
    assert.deepEqual(
      [row.tax_rate_bp, row.prices_include_tax, row.require_shift_for_cash].map(Number),
      [1600, 0, 1],
    );
  });

  it('refuses a new base currency while a bill is pending; the base currency and rate follow it', async (t) => {
    const { app, db } = await buildTestApp(t, target, { env: ENV });
    const { orderId, admin } = await billableOrder(app, db);
    const currencyId = async (code: string) =>
      (await db.selectFrom('currencies').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
    const baseCurrency = async () => (await app.inject({ method: 'GET', url: '/base-currency' })).json();
    assert.deepEqual(await baseCurrency(), { currency_id: await currencyId('USD') });
    assert.deepEqual(
      (({ currency, btc_price }) => ({ currency, btc_price }))((await admin('GET', '/exchange-rate')).json()),
      { currency: 'USD', btc_price: 95000.5 },
    );

    const billId = await createBill(admin, orderId, {});
    const before = await databaseDigest(db);
    const refused = await admin('PUT', '/settings', { base_currency: 'BTC', business_name: 'Renamed' });
    assert.deepEqual(
      [refused.statusCode, refused.json()],
      [409, { message: 'The base currency cannot change while a bill is pending' }],
    );
    assert.equal(await databaseDigest(db), before);
    assert.equal(
      (await admin('PUT', '/settings', { base_currency: 'USD' })).statusCode,
      200,
      'unchanged: fine',
    );

    assert.equal((await admin('POST', `/tickets/${billId}/cancel`, {})).statusCode, 200);
    const changed = await admin('PUT', '/settings', { base_currency: 'BTC' });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.deepEqual(await baseCurrency(), { currency_id: await currencyId('BTC') });
    const rate = (await admin('GET', '/exchange-rate')).json();
    assert.deepEqual([rate.currency, rate.btc_price], ['BTC', 1]);
  });

  it('counts days in the time zone of the settings', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target, { env: { POS_TIMEZONE: 'UTC' } });
    // 03:00 UTC on the 23rd is still the evening of the 22nd in Mexico City.
    clock.set(Date.UTC(2026, 10, 23, 3, 0, 0));
    const admin = callerFor(app, (await loggedInUser(app, db, 'admin')).cookies);
    assert.equal((await admin('POST', '/orders', {})).statusCode, 201);
    const onDay = async (day: string) =>
      (await admin('GET', `/orders/date-range?start_date=${day}&end_date=${day}`)).json();
    assert.equal((await onDay('2026-11-23')).length, 1);
    assert.equal((await admin('PUT', '/settings', { timezone: 'America/Mexico_City' })).statusCode, 200);
    assert.equal((await onDay('2026-11-22')).length, 1);
    assert.equal(
      (await admin('GET', '/orders/date-range?start_date=2026-11-23&end_date=2026-11-23')).statusCode,
      204,
    );
  });
});
