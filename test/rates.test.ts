import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { manualClock } from '../src/core/clock';
import type { Db } from '../src/core/db/database';
import { coinbaseSource, parseCoinbasePrice } from '../src/rates/coinbase';
import { coinGeckoKeyHeader, coinGeckoSource, parseCoinGeckoPrice } from '../src/rates/coingecko';
import { ExchangeRates, MAX_RATE_AGE_MS, RATE_CACHE_MS } from '../src/rates/exchange-rate';
import { rateSourceFromConfig } from '../src/rates/rate-sources';
import { buildTestApp } from './helpers/app';
import { login } from './helpers/auth';
import { databaseTargets } from './helpers/database';
import { insertUser } from './helpers/factories';
import { PriceSimulator } from './price-sim/simulator';

// No table is read or written here: the rate lives in memory, so SQLite alone carries the app.
const sqlite = databaseTargets[0];
if (!sqlite) throw new Error('no SQLite target');

let sim: PriceSimulator;
before(async () => {
  sim = await PriceSimulator.start();
});
after(() => sim.stop());
beforeEach(() => {
  sim.mode = 'ok';
  sim.requests = 0;
  sim.prices.clear();
  sim.setPrice('MXN', 1_700_000.5);
  sim.setPrice('USD', 95_000.25);
});

const sources = [
  { name: 'coingecko', make: () => coinGeckoSource(sim.url) },
  { name: 'coinbase', make: () => coinbaseSource(sim.url) },
] as const;

for (const { name, make } of sources) {
  describe(`${name} source`, () => {
    it('reads the price of 1 BTC in MXN and in USD', async () => {
      assert.equal(await make().fetchBtcPrice('MXN'), 1_700_000.5);
      assert.equal(await make().fetchBtcPrice('USD'), 95_000.25);
      assert.equal(sim.requests, 2);
    });

    for (const [label, value] of [
      ['negative', -5],
      ['zero', 0],
      ['not a number', 'lots'],
      ['null', null],
      ['an object', { value: 1 }],
    ] as const) {
      it(`refuses a price that is ${label}`, async () => {
        sim.setPrice('USD', value);
        await assert.rejects(make().fetchBtcPrice('USD'));
      });
    }

    if (name === 'coingecko') {
      it('refuses a number in a string (CoinGecko writes a JSON number)', async () => {
        sim.setPrice('USD', '95000');
        await assert.rejects(make().fetchBtcPrice('USD'));
      });
    }

    it('refuses a missing price, an error status and a body that is not JSON', async () => {
      sim.removePrice('USD');
      await assert.rejects(make().fetchBtcPrice('USD'));
      sim.setPrice('USD', 95_000);
      sim.mode = 'error';
      await assert.rejects(make().fetchBtcPrice('USD'));
      sim.mode = 'garbage';
      await assert.rejects(make().fetchBtcPrice('USD'));
      assert.equal(sim.requests, 3);
    });
  });
}

describe('provider JSON parsing', () => {
  it('CoinGecko: the lower-case code under "bitcoin", a finite positive number', () => {
    assert.equal(parseCoinGeckoPrice({ bitcoin: { mxn: 1234567.89 } }, 'MXN'), 1234567.89);
    for (const body of [
      {},
      { bitcoin: {} },
      { bitcoin: { MXN: 1 } },
      { bitcoin: { usd: 1 } },
      { bitcoin: { mxn: Number.POSITIVE_INFINITY } },
      { bitcoin: [1] },
      null,
      'x',
    ]) {
      assert.throws(() => parseCoinGeckoPrice(body, 'MXN'), `${JSON.stringify(body)}`);
    }
  });

  it('Coinbase: a decimal string for exactly the pair asked', () => {
    const data = (amount: unknown, base = 'BTC', currency = 'MXN') => ({ data: { amount, base, currency } });
    assert.equal(parseCoinbasePrice(data('1234567.89'), 'MXN'), 1234567.89);
    for (const body of [
      data('1234567.89', 'ETH'),
      data('1234567.89', 'BTC', 'USD'),
      data('-1'),
      data('0'),
      data('0.00'),
      data('1e6'),
      data(' 12'),
      data('Infinity'),
      data(''),
      data(1234567.89),
      { amount: '1' },
      {},
    ]) {
      assert.throws(() => parseCoinbasePrice(body, 'MXN'), `${JSON.stringify(body)}`);
    }
  });
});

describe('ExchangeRates', () => {
  it('callers arriving while a fetch is under way share it', async () => {
    const rates = new ExchangeRates(coinGeckoSource(sim.url), manualClock());
    const answers = await Promise.all(Array.from({ length: 5 }, () => rates.current('MXN')));
    assert.equal(sim.requests, 1);
    for (const answer of answers) assert.equal(answer.btcPrice, 1_700_000.5);
  });

  it('a failed shared fetch fails every caller, and the next call asks again', async () => {
    sim.mode = 'error';
    const rates = new ExchangeRates(coinbaseSource(sim.url), manualClock());
    const results = await Promise.allSettled([rates.current('MXN'), rates.current('MXN')]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['rejected', 'rejected'],
    );
    assert.equal(sim.requests, 1);
    sim.mode = 'ok';
    assert.equal((await rates.current('MXN')).btcPrice, 1_700_000.5);
    assert.equal(sim.requests, 2);
  });

  it('a BTC base is 1 without asking any source', async () => {
    const rates = new ExchangeRates(coinGeckoSource(sim.url), manualClock());
    assert.equal((await rates.current('BTC')).btcPrice, 1);
    assert.equal(sim.requests, 0);
  });

  it('builds each configured source', async () => {
    assert.equal(rateSourceFromConfig(undefined), undefined);
    assert.equal(await rateSourceFromConfig('fixed:1500000.25')?.fetchBtcPrice('MXN'), 1_500_000.25);
    assert.equal(await rateSourceFromConfig('coingecko', { url: sim.url })?.fetchBtcPrice('USD'), 95_000.25);
    assert.equal(await rateSourceFromConfig('coinbase', { url: sim.url })?.fetchBtcPrice('USD'), 95_000.25);
  });
});

describe('CoinGecko API key (POS_RATE_SOURCE_KEY)', () => {
  it('sends the demo key on api.coingecko.com and the pro key on pro-api.coingecko.com', () => {
    assert.equal(coinGeckoKeyHeader('https://api.coingecko.com'), 'x-cg-demo-api-key');
    assert.equal(coinGeckoKeyHeader('https://pro-api.coingecko.com'), 'x-cg-pro-api-key');
  });

  it('the server sends its key, so a keyed price source answers where the keyless limit refuses', async (t) => {
    const keyed = await PriceSimulator.start({ demoKeys: ['CG-demo-key'], keylessPerMinute: 0 });
    t.after(() => keyed.stop());
    const keyless = await buildTestApp(t, sqlite, {
      env: { POS_RATE_SOURCE: 'coingecko', POS_RATE_SOURCE_URL: keyed.url },
    });
    assert.equal((await (await exchangeRateGetter(keyless.app, keyless.db))()).statusCode, 503);

    const { app, db } = await buildTestApp(t, sqlite, {
      env: {
        POS_RATE_SOURCE: 'coingecko',
        POS_RATE_SOURCE_URL: keyed.url,
        POS_RATE_SOURCE_KEY: 'CG-demo-key',
      },
    });
    const answer = await (await exchangeRateGetter(app, db))();
    assert.equal(answer.statusCode, 200, answer.body);
    assert.equal(keyed.lastDemoKey, 'CG-demo-key');
  });

  it('a wrong key is an error of the source, not a price', async (t) => {
    const keyed = await PriceSimulator.start({ demoKeys: ['CG-demo-key'] });
    t.after(() => keyed.stop());
    await assert.rejects(coinGeckoSource(keyed.url, 'CG-other').fetchBtcPrice('MXN'), /answered 401/);
  });
});

/**
 * GET /exchange-rate as a signed-in staff member; each call logs in afresh, as access tokens last
 * 60 s and these tests move the clock past that.
 */
async function exchangeRateGetter(app: FastifyInstance, db: Db) {
  const user = await insertUser(db, { role: 'staff' });
  return async () => {
    const cookie = await login(app, user.name, user.pin);
    return app.inject({ method: 'GET', url: '/exchange-rate', headers: { cookie } });
  };
}

describe('GET /exchange-rate', () => {
  for (const source of ['coingecko', 'coinbase']) {
    it(`${source}: fetched once, cached for 60 s, fetched again after`, async (t) => {
      const { app, db, clock } = await buildTestApp(t, sqlite, {
        env: { POS_RATE_SOURCE: source, POS_RATE_SOURCE_URL: sim.url },
      });
      const get = await exchangeRateGetter(app, db);

      const first = await get();
      assert.equal(first.statusCode, 200, first.body);
      const fetchedAt = clock.now();
      assert.deepEqual(first.json(), {
        currency: 'MXN',
        btc_price: 1_700_000.5,
        source,
        fetched_at: fetchedAt,
      });
      assert.equal(sim.requests, 1);

      sim.setPrice('MXN', 1_800_000);
      clock.advance(RATE_CACHE_MS - 1);
      assert.equal((await get()).json().btc_price, 1_700_000.5);
      assert.equal(sim.requests, 1);

      clock.advance(1);
      const refreshed = (await get()).json();
      assert.equal(refreshed.btc_price, 1_800_000);
      assert.equal(refreshed.fetched_at, fetchedAt + RATE_CACHE_MS);
      assert.equal(sim.requests, 2);
    });
  }

  it('the source down: the last good rate serves up to 10 minutes, then 503', async (t) => {
    const { app, db, clock } = await buildTestApp(t, sqlite, {
      env: { POS_RATE_SOURCE: 'coingecko', POS_RATE_SOURCE_URL: sim.url },
    });
    const get = await exchangeRateGetter(app, db);
    const fetchedAt = clock.now();
    assert.equal((await get()).statusCode, 200);

    sim.mode = 'garbage';
    clock.advance(RATE_CACHE_MS);
    const stale = await get();
    assert.equal(stale.statusCode, 200);
    assert.deepEqual(stale.json(), {
      currency: 'MXN',
      btc_price: 1_700_000.5,
      source: 'coingecko',
      fetched_at: fetchedAt,
    });

    sim.mode = 'error';
    clock.set(fetchedAt + MAX_RATE_AGE_MS);
    assert.equal((await get()).statusCode, 200);
    clock.advance(1);
    const gone = await get();
    assert.equal(gone.statusCode, 503);
    assert.deepEqual(gone.json(), { message: 'Exchange rate unavailable' });
    assert.equal(sim.requests, 4);

    sim.mode = 'ok';
    assert.equal((await get()).statusCode, 200);
  });

  it('a source that never answered: 503', async (t) => {
    sim.mode = 'error';
    const { app, db } = await buildTestApp(t, sqlite, {
      env: { POS_RATE_SOURCE: 'coinbase', POS_RATE_SOURCE_URL: sim.url },
    });
    const response = await (await exchangeRateGetter(app, db))();
    assert.equal(response.statusCode, 503);
    assert.deepEqual(response.json(), { message: 'Exchange rate unavailable' });
  });

  it('no source configured: 503; a fixed source: its price', async (t) => {
    const none = await buildTestApp(t, sqlite);
    const unavailable = await (await exchangeRateGetter(none.app, none.db))();
    assert.equal(unavailable.statusCode, 503);

    const fixed = await buildTestApp(t, sqlite, { env: { POS_RATE_SOURCE: 'fixed:1500000.25' } });
    const response = await (await exchangeRateGetter(fixed.app, fixed.db))();
    assert.deepEqual(response.json(), {
      currency: 'MXN',
      btc_price: 1_500_000.25,
      source: 'fixed:1500000.25',
      fetched_at: fixed.clock.now(),
    });
  });

  it('USD and BTC bases', async (t) => {
    const usd = await buildTestApp(t, sqlite, {
      env: { POS_BASE_CURRENCY: 'USD', POS_RATE_SOURCE: 'coinbase', POS_RATE_SOURCE_URL: sim.url },
    });
    const usdRate = await (await exchangeRateGetter(usd.app, usd.db))();
    assert.equal(usdRate.json().currency, 'USD');
    assert.equal(usdRate.json().btc_price, 95_000.25);

    const btc = await buildTestApp(t, sqlite, {
      env: { POS_BASE_CURRENCY: 'BTC', POS_RATE_SOURCE: 'coingecko', POS_RATE_SOURCE_URL: sim.url },
    });
    const btcRate = await (await exchangeRateGetter(btc.app, btc.db))();
    assert.deepEqual(btcRate.json(), {
      currency: 'BTC',
      btc_price: 1,
      source: 'identity',
      fetched_at: btc.clock.now(),
    });
    assert.equal(sim.requests, 1);
  });

  it('needs a signed-in user', async (t) => {
    const { app } = await buildTestApp(t, sqlite, { env: { POS_RATE_SOURCE: 'fixed:1500000' } });
    const response = await app.inject({ method: 'GET', url: '/exchange-rate' });
    assert.equal(response.statusCode, 401);
  });
});
