import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { billableOrder, createBill } from './helpers/checkout-factories';
import { databaseDigest } from './helpers/db-digest';
import { captureLogs } from './helpers/log-capture';
import { callerFor } from './helpers/orders-factories';
import { buildWalletTestApp } from './helpers/wallet-factories';
import { PriceSimulator } from './price-sim/simulator';

let sim: PriceSimulator;
before(async () => {
  sim = await PriceSimulator.start();
});
after(() => sim.stop());

describeEachDatabase('implausible exchange rates', (target) => {
  async function billAtSource(t: Parameters<typeof buildWalletTestApp>[0], env: Record<string, string> = {}) {
    const logs = captureLogs();
    const built = await buildWalletTestApp(t, target, {
      env: { POS_RATE_SOURCE: 'coingecko', POS_RATE_SOURCE_URL: sim.url, LOG_LEVEL: 'warn', ...env },
      logStream: logs.stream,
    });
    const bill = await billableOrder(built.app, built.db, [10000]);
    const ticketId = await createBill(bill.call, bill.orderId, {});
    return { ...built, ...bill, ticketId, logs };
  }

  for (const [label, price] of [
    ['absurdly high (a 100.00 bill at 1 sat)', 1e12],
    ['absurdly low (a 100.00 bill at millions of sat)', 1e-9],
    ['just under the MXN band', 9_999.99],
    ['just over the MXN band', 200_000_000.01],
  ] as const) {
    it(`refuses a price ${label} with 503, stores nothing and logs why`, async (t) => {
      sim.setPrice('MXN', price);
      const { db, call, ticketId, logs } = await billAtSource(t);
      const before = await databaseDigest(db);
      const invoice = await call('POST', `/tickets/${ticketId}/lightning`, {});
      assert.deepEqual([invoice.statusCode, invoice.json()], [503, { message: 'Exchange rate unavailable' }]);
      assert.equal(await databaseDigest(db), before);
      const rate = await call('GET', '/exchange-rate');
      assert.deepEqual([rate.statusCode, rate.json()], [503, { message: 'Exchange rate unavailable' }]);
      const refused = logs
        .text()
        .split('\n')
        .filter((line) => line.includes('exchange rate refused: implausible price of 1 BTC'));
      assert.ok(refused.length >= 1, logs.text());
      assert.match(refused[0] ?? '', /"currency":"MXN"/);
    });
  }

  it('prices with a plausible rate at the edges of the band, in MXN and USD', async (t) => {
    sim.setPrice('MXN', 10_000);
    const mxn = await billAtSource(t);
    const invoice = await mxn.call('POST', `/tickets/${mxn.ticketId}/lightning`, {});
    assert.equal(invoice.statusCode, 201, invoice.body);
    // 100.00 MXN at 10,000 MXN/BTC is 0.01 BTC.
    assert.deepEqual(
      [invoice.json().lightning.rate, invoice.json().lightning.amount_sat],
      [10_000, 1_000_000],
    );

    sim.setPrice('USD', 10_000_000);
    const usd = await billAtSource(t, { POS_BASE_CURRENCY: 'USD' });
    const rate = await usd.call('GET', '/exchange-rate');
    assert.deepEqual([rate.statusCode, rate.json().btc_price], [200, 10_000_000]);
    sim.setPrice('USD', 10_000_000.01);
    usd.clock.advance(61_000);
    // A refused price is a failed fetch: the last good rate still serves while it is fresh.
    const cashier = callerFor(usd.app, (await loggedInUser(usd.app, usd.db, 'staff')).cookies);
    assert.equal((await cashier('GET', '/exchange-rate')).json().btc_price, 10_000_000);
  });

  it('refuses an implausible fixed price too', async (t) => {
    const { call, ticketId } = await billAtSource(t, {
      POS_RATE_SOURCE: 'fixed:0.01',
      POS_RATE_SOURCE_URL: '',
    });
    const invoice = await call('POST', `/tickets/${ticketId}/lightning`, {});
    assert.deepEqual([invoice.statusCode, invoice.json()], [503, { message: 'Exchange rate unavailable' }]);
  });
});
