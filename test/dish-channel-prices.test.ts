import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Db } from '../src/core/db/database';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { insertCategory } from './helpers/factories';
import { asUser } from './helpers/menu-factories';

function storedPrices(db: Db) {
  return db
    .selectFrom('dish_channel_prices')
    .select(['dish_id', 'channel', 'price_cents'])
    .orderBy('dish_id')
    .orderBy('channel')
    .execute()
    .then((rows) => rows.map((row) => [row.dish_id, row.channel, Number(row.price_cents)]));
}

describeEachDatabase('a dish’s price per delivery app', (target) => {
  async function setup(t: Parameters<typeof buildTestApp>[0]) {
    const testApp = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(testApp.app, testApp.db, 'manager');
    const category = await insertCategory(testApp.db, { type: 'dish' });
    const request = asUser(testApp.app, cookies);
    const dish = (extra: object = {}) => ({
      name: 'Tacos al pastor',
      price: 85,
      category_id: category.id,
      ...extra,
    });
    return { ...testApp, request, dish };
  }

  it('sets channel prices with the dish and shows only the ones set', async (t) => {
    const { db, request, dish } = await setup(t);
    const created = await request('POST', '/dishes', dish({ channel_prices: { ubereats: 99.5 } }));
    assert.equal(created.statusCode, 201, created.body);
    const { id } = created.json();
    assert.deepEqual(await storedPrices(db), [[id, 'ubereats', 9950]]);
    const view = (await request('GET', `/dishes/${id}`)).json();
    assert.equal(view.price, 85);
    assert.deepEqual(view.channel_prices, { ubereats: 99.5 });
    const [listed] = (await request('GET', '/dishes')).json();
    assert.deepEqual(listed.channel_prices, { ubereats: 99.5 });
    const plain = await request('POST', '/dishes', dish({ name: 'Agua' }));
    assert.deepEqual((await request('GET', `/dishes/${plain.json().id}`)).json().channel_prices, {});

    const board = (await request('GET', '/menu')).json();
    assert.equal(
      JSON.stringify(board).includes('channel_prices'),
      false,
      'the menu board stays lean: the order screens charge the dish’s own price',
    );
  });

  it('changes one channel’s price, keeps the channel left out and removes one sent as null', async (t) => {
    const { db, request, dish } = await setup(t);
    const { id } = (
      await request('POST', '/dishes', dish({ channel_prices: { ubereats: 99, rappi: 95 } }))
    ).json();
    const changed = await request('PUT', `/dishes/${id}`, dish({ channel_prices: { ubereats: 105 } }));
    assert.equal(changed.statusCode, 200, changed.body);
    assert.deepEqual((await request('GET', `/dishes/${id}`)).json().channel_prices, {
      ubereats: 105,
      rappi: 95,
    });
    const untouched = await request('PUT', `/dishes/${id}`, dish({ price: 90 }));
    assert.equal(untouched.statusCode, 200, untouched.body);
    assert.deepEqual(
      await storedPrices(db),
      [
        [id, 'rappi', 9500],
        [id, 'ubereats', 10_500],
      ],
      'a PUT without channel_prices keeps them',
    );

    const removed = await request('PUT', `/dishes/${id}`, dish({ channel_prices: { rappi: null } }));
    assert.equal(removed.statusCode, 200, removed.body);
    assert.deepEqual((await request('GET', `/dishes/${id}`)).json().channel_prices, { ubereats: 105 });
    assert.deepEqual(await storedPrices(db), [[id, 'ubereats', 10_500]]);

    // A client sends back what it read: the view's channel_prices are a valid body.
    const view = (await request('GET', `/dishes/${id}`)).json();
    const roundTrip = await request('PUT', `/dishes/${id}`, view);
    assert.equal(roundTrip.statusCode, 200, roundTrip.body);
    assert.deepEqual(await storedPrices(db), [[id, 'ubereats', 10_500]]);
  });

  it('refuses bad channel prices with the field named and changes nothing', async (t) => {
    const { db, request, dish } = await setup(t);
    const { id } = (await request('POST', '/dishes', dish({ channel_prices: { ubereats: 99 } }))).json();
    const dishesBefore = await db.selectFrom('dishes').selectAll().execute();
    const pricesBefore = await storedPrices(db);
    for (const channelPrices of [
      { ubereats: -1 },
      { ubereats: 1.005 },
      { rappi: '95' },
      { didi: 90 },
      { ubereats: 100_000_000 },
      [99],
      null,
    ]) {
      for (const [method, url] of [
        ['POST', '/dishes'],
        ['PUT', `/dishes/${id}`],
      ] as const) {
        const response = await request(method, url, dish({ name: 'Otro', channel_prices: channelPrices }));
        assert.equal(
          response.statusCode,
          400,
          `${method} ${JSON.stringify(channelPrices)}: ${response.body}`,
        );
        assert.match(response.json().details[0].field, /^channel_prices/);
      }
    }
    assert.deepEqual(await db.selectFrom('dishes').selectAll().execute(), dishesBefore);
    assert.deepEqual(await storedPrices(db), pricesBefore);
  });
});
