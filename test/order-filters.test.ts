import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { insertOrder, insertTable, insertUser } from './helpers/factories';
import { diningRoom } from './helpers/orders-factories';

const HOUR = 3_600_000;
const ids = (response: { statusCode: number; json(): unknown }) =>
  response.statusCode === 204 ? [] : (response.json() as { id: string }[]).map((order) => order.id);

describeEachDatabase('order lists and sales', (target) => {
  it('answers 204 with a zero count when there are no orders', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call } = await diningRoom(app, db);
    const response = await call('GET', '/orders');
    assert.equal(response.statusCode, 204);
    assert.equal(response.body, '');
    assert.equal(response.headers['x-total-count'], '0');
  });

  it('lists orders newest first in pages with the full count in X-Total-Count', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call } = await diningRoom(app, db);
    const start = Date.UTC(2026, 10, 22, 12);
    const created = [];
    for (let i = 0; i < 5; i++) created.push((await insertOrder(db, { createdAt: start + i * HOUR })).id);
    const newestFirst = [...created].reverse();
    const all = await call('GET', '/orders');
    assert.equal(all.statusCode, 200);
    assert.deepEqual(ids(all), newestFirst);
    const page = await call('GET', '/orders?limit=2&offset=1');
    assert.deepEqual(ids(page), newestFirst.slice(1, 3));
    assert.equal(page.headers['x-total-count'], '5');
    // The last page, partly or exactly filled, still reports every match.
    for (const [query, expected] of [
      ['limit=2&offset=4', newestFirst.slice(4)],
      ['limit=3&offset=3', newestFirst.slice(3)],
      ['limit=5', newestFirst],
      ['limit=6', newestFirst],
    ] as const) {
      const lastPage = await call('GET', `/orders?${query}`);
      assert.deepEqual(ids(lastPage), expected, query);
      assert.equal(lastPage.headers['x-total-count'], '5', query);
    }
    const beyond = await call('GET', '/orders?offset=10');
    assert.equal(beyond.statusCode, 204);
    assert.equal(beyond.headers['x-total-count'], '5');
  });

  it('refuses page sizes and filters outside their bounds', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call } = await diningRoom(app, db);
    for (const query of [
      'limit=0',
      'limit=1001',
      'offset=-1',
      'limit=ten',
      'status=served',
      'user_id=7',
      'date=2026-02-30',
      'date=22-11-2026',
      'from=yesterday',
    ]) {
      const response = await call('GET', `/orders?${query}`);
      assert.equal(response.statusCode, 400, query);
      assert.equal(response.json().message, 'Validation failed', query);
    }
    const reversed = await call('GET', '/orders?from=2000&to=1000');
    assert.equal(reversed.statusCode, 400);
    assert.deepEqual(reversed.json(), { message: 'from must not be after to' });
  });

  it('filters by user, table, status, instants and local day', async (t) => {
    const { app, db } = await buildTestApp(t, target, { env: { POS_TIMEZONE: 'America/Mexico_City' } });
    const { call } = await diningRoom(app, db);
    const ana = await insertUser(db);
    const table = await insertTable(db);
    const noon = Date.UTC(2026, 10, 22, 18);
    const mine = await insertOrder(db, { userId: ana.id, createdAt: noon });
    const atTable = await insertOrder(db, { tableId: table.id, status: 'ready', createdAt: noon + HOUR });
    // 05:30 UTC on the 23rd is 23:30 on the 22nd in Mexico City.
    const lateNight = await insertOrder(db, {
      status: 'completed',
      createdAt: Date.UTC(2026, 10, 23, 5, 30),
    });
    const nextDay = await insertOrder(db, { status: 'completed', createdAt: Date.UTC(2026, 10, 23, 6, 30) });

    assert.deepEqual(ids(await call('GET', `/orders?user_id=${ana.id}`)), [mine.id]);
    assert.deepEqual(ids(await call('GET', `/orders?table_id=${table.id}`)), [atTable.id]);
    assert.deepEqual(ids(await call('GET', '/orders?status=completed')), [nextDay.id, lateNight.id]);
    assert.deepEqual(ids(await call('GET', `/orders?from=${noon}&to=${noon + HOUR}`)), [atTable.id, mine.id]);
    assert.deepEqual(ids(await call('GET', `/orders?from=${noon + 1}&to=${noon + HOUR - 1}`)), []);
    assert.deepEqual(ids(await call('GET', '/orders?date=2026-11-22')), [lateNight.id, atTable.id, mine.id]);
    assert.deepEqual(ids(await call('GET', `/orders?date=2026-11-22&from=${noon + 1}`)), [
      lateNight.id,
      atTable.id,
    ]);
    const combined = await call('GET', '/orders?date=2026-11-23&status=completed');
    assert.deepEqual(ids(combined), [nextDay.id]);
    assert.equal(combined.headers['x-total-count'], '1');
  });

  it('filters by channel: one delivery app, every delivery app, or the dining room', async (t) => {
    const { app, db } = await buildTestApp(t, target, { env: { POS_TIMEZONE: 'America/Mexico_City' } });
    const { call } = await diningRoom(app, db);
    const noon = Date.UTC(2026, 10, 22, 18);
    const dineIn = await insertOrder(db, { createdAt: noon });
    const uber = await insertOrder(db, { createdAt: noon + HOUR });
    const rappi = await insertOrder(db, { createdAt: noon + 2 * HOUR });
    const yesterdayRappi = await insertOrder(db, { createdAt: noon - 24 * HOUR });
    for (const [order, channel, code] of [
      [uber, 'ubereats', 'A7F3C'],
      [rappi, 'rappi', '991122'],
      [yesterdayRappi, 'rappi', '881100'],
    ] as const) {
      await db
        .updateTable('orders')
        .set({
          channel,
          channel_order_id: `${channel}-${code}`,
          channel_code: code,
          channel_state: 'accepted',
        })
        .where('id', '=', order.id)
        .execute();
    }

    assert.deepEqual(ids(await call('GET', '/orders?channel=ubereats')), [uber.id]);
    assert.deepEqual(ids(await call('GET', '/orders?channel=rappi')), [rappi.id, yesterdayRappi.id]);
    assert.deepEqual(ids(await call('GET', '/orders?channel=dine_in')), [dineIn.id]);
    const delivery = await call('GET', '/orders?channel=delivery&date=2026-11-22');
    assert.deepEqual(ids(delivery), [rappi.id, uber.id]);
    assert.equal(delivery.headers['x-total-count'], '2');
    const [shown] = delivery.json() as { channel: string; channel_code: string }[];
    assert.equal(shown?.channel, 'rappi');
    assert.equal(shown?.channel_code, '991122');
    const unknown = await call('GET', '/orders?channel=didi');
    assert.equal(unknown.statusCode, 400);
  });

  it('answers the filter routes with pages, 204 when nothing matches', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call } = await diningRoom(app, db);
    const user = await insertUser(db);
    const table = await insertTable(db);
    const start = Date.UTC(2026, 10, 22, 12);
    const first = await insertOrder(db, { userId: user.id, createdAt: start });
    const second = await insertOrder(db, { userId: user.id, tableId: table.id, createdAt: start + HOUR });
    await insertOrder(db, { status: 'cancelled', createdAt: start + 2 * HOUR });

    const byUser = await call('GET', `/orders/user/${user.id}?limit=1`);
    assert.equal(byUser.statusCode, 200);
    assert.deepEqual(ids(byUser), [second.id]);
    assert.equal(byUser.headers['x-total-count'], '2');
    assert.deepEqual(ids(await call('GET', `/orders/user/${user.id}?offset=1`)), [first.id]);
    assert.deepEqual(ids(await call('GET', `/orders/table/${table.id}`)), [second.id]);
    assert.deepEqual(ids(await call('GET', '/orders/status/pending')), [second.id, first.id]);
    assert.equal((await call('GET', '/orders/status/ready')).statusCode, 204);
    assert.equal((await call('GET', `/orders/table/${(await insertTable(db)).id}`)).statusCode, 204);
    assert.equal((await call('GET', '/orders/user/3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e')).statusCode, 204);
  });

  it('refuses malformed filter values', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call } = await diningRoom(app, db);
    const cases: [string, string][] = [
      ['/orders/user/not-a-uuid', 'Missing or malformed ID'],
      ['/orders/table/7', 'Missing or malformed ID'],
      ['/orders/status/served', 'Missing or malformed status'],
      ['/orders/total-sales/2026-13-01', 'Missing or malformed date'],
      ['/orders/total-sales/today', 'Missing or malformed date'],
    ];
    for (const [url, text] of cases) {
      const response = await call('GET', url);
      assert.equal(response.statusCode, 400, url);
      assert.equal(response.body, text, url);
    }
    const badLimit = await call('GET', '/orders/status/pending?limit=5000');
    assert.equal(badLimit.statusCode, 400);
    assert.equal(badLimit.json().message, 'Validation failed');
  });

  it('lists the orders between two local days, both inclusive', async (t) => {
    const { app, db } = await buildTestApp(t, target, { env: { POS_TIMEZONE: 'America/Mexico_City' } });
    const { call } = await diningRoom(app, db);
    const beforeRange = await insertOrder(db, { createdAt: Date.UTC(2026, 10, 20, 5, 59) });
    const firstDay = await insertOrder(db, { createdAt: Date.UTC(2026, 10, 20, 6, 0) });
    const lastDayLate = await insertOrder(db, { createdAt: Date.UTC(2026, 10, 23, 5, 59) });
    await insertOrder(db, { createdAt: Date.UTC(2026, 10, 23, 6, 0) });
    const response = await call('GET', '/orders/date-range?start_date=2026-11-20&end_date=2026-11-22');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(ids(response), [lastDayLate.id, firstDay.id]);
    assert.equal(response.headers['x-total-count'], '2');
    const dayBefore = await call('GET', '/orders/date-range?start_date=2026-11-19&end_date=2026-11-19');
    assert.deepEqual(ids(dayBefore), [beforeRange.id]);
    assert.equal(
      (await call('GET', '/orders/date-range?start_date=2026-01-01&end_date=2026-01-02')).statusCode,
      204,
    );
  });

  it('refuses a date range that is reversed, missing or not a calendar date', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call } = await diningRoom(app, db);
    const reversed = await call('GET', '/orders/date-range?start_date=2026-11-23&end_date=2026-11-22');
    assert.equal(reversed.statusCode, 400);
    assert.deepEqual(reversed.json(), { message: 'start_date must not be after end_date' });
    for (const query of ['start_date=2026-11-22', 'start_date=2026-02-29&end_date=2026-03-01', '']) {
      const response = await call('GET', `/orders/date-range?${query}`);
      assert.equal(response.statusCode, 400, query);
      assert.equal(response.json().message, 'Validation failed');
    }
  });

  it('sums the completed orders of a local day, not deleted or unfinished ones', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call } = await diningRoom(app, db);
    const day = Date.UTC(2026, 10, 22, 12);
    await insertOrder(db, { status: 'completed', totalCents: 1010, createdAt: day });
    await insertOrder(db, { status: 'completed', totalCents: 2020, createdAt: day + HOUR });
    await insertOrder(db, { status: 'ready', totalCents: 5000, createdAt: day });
    await insertOrder(db, { status: 'cancelled', totalCents: 5000, createdAt: day });
    await insertOrder(db, { status: 'completed', totalCents: 5000, createdAt: day + 24 * HOUR });
    const deleted = await insertOrder(db, { status: 'completed', totalCents: 5000, createdAt: day });
    await call('DELETE', `/orders/${deleted.id}`);
    const response = await call('GET', '/orders/total-sales/2026-11-22');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { date: '2026-11-22', total_sales: 30.3, orders_count: 2 });
  });

  it('answers zeros for a day without sales', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call } = await diningRoom(app, db);
    const response = await call('GET', '/orders/total-sales/2026-01-01');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { date: '2026-01-01', total_sales: 0, orders_count: 0 });
  });

  it("books a sale at 23:30 in Mexico City on that local day's total", async (t) => {
    const { app, db, clock } = await buildTestApp(t, target, {
      env: { POS_TIMEZONE: 'America/Mexico_City' },
    });
    clock.set(Date.UTC(2026, 10, 23, 5, 30));
    const { call, dish } = await diningRoom(app, db);
    const { id } = (
      await call('POST', '/orders/with-dishes', { order: {}, dishes: [{ dish_id: dish.id }] })
    ).json();
    for (const status of ['preparing', 'ready', 'completed']) await call('PUT', `/orders/${id}`, { status });
    assert.deepEqual((await call('GET', '/orders/total-sales/2026-11-22')).json(), {
      date: '2026-11-22',
      total_sales: 12.5,
      orders_count: 1,
    });
    assert.deepEqual((await call('GET', '/orders/total-sales/2026-11-23')).json(), {
      date: '2026-11-23',
      total_sales: 0,
      orders_count: 0,
    });
  });
});
