import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import {
  diningRoom,
  ordersSnapshot,
  storedOrder,
  storedOrderDishes,
  storedTable,
} from './helpers/orders-factories';

/** A real listening server, so parallel requests reach the database as separate connections would. */
async function httpClient(app: FastifyInstance, cookies: string) {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return async (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { cookie: cookies, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { id?: string; message?: string } };
  };
}

describeEachDatabase('orders under concurrency', (target) => {
  it('keeps the total equal to the sum of the dishes under 50 parallel additions', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, cookies, dish } = await diningRoom(app, db);
    const { id } = (await call('POST', '/orders', {})).json();
    const send = await httpClient(app, cookies);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        send('POST', `/orders/${id}/dishes`, [{ dish_id: dish.id, price_at_order: (i + 1) / 100 }]),
      ),
    );
    assert.deepEqual(
      responses.map((response) => response.status),
      Array(50).fill(201),
    );
    const dishes = await storedOrderDishes(db, id);
    assert.equal(dishes.length, 50);
    const sum = dishes.reduce((total, row) => total + Number(row.price_at_order_cents), 0);
    assert.equal(sum, (50 * 51) / 2);
    assert.equal(Number((await storedOrder(db, id)).total_cents), sum);
  });

  it('gives a free table to exactly one of two parallel new orders', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies, table } = await diningRoom(app, db);
    const send = await httpClient(app, cookies);
    const responses = await Promise.all([
      send('POST', '/orders', { table_id: table.id }),
      send('POST', '/orders/with-dishes', { order: { table_id: table.id }, dishes: [] }),
    ]);
    assert.deepEqual(responses.map((response) => response.status).sort(), [201, 400]);
    const loser = responses.find((response) => response.status === 400);
    assert.deepEqual(loser?.body, { message: `Table with ID: ${table.id} already has an active order` });
    const winner = responses.find((response) => response.status === 201);
    const active = await db.selectFrom('orders').select('id').where('table_id', '=', table.id).execute();
    assert.deepEqual(active, [{ id: winner?.body.id }]);
    assert.deepEqual(await storedTable(db, table.id), { status: 'occupied', order_id: winner?.body.id });
  });

  it('creates one order for parallel requests with the same Idempotency-Key', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies, dish } = await diningRoom(app, db);
    const send = await httpClient(app, cookies);
    const body = { order: { waiter: 'Ana' }, dishes: [{ dish_id: dish.id }] };
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        send('POST', '/orders/with-dishes', body, { 'idempotency-key': 'rush-1' }),
      ),
    );
    assert.deepEqual(
      responses.map((response) => response.status),
      Array(10).fill(201),
    );
    const orderIds = new Set(responses.map((response) => response.body.id));
    assert.equal(orderIds.size, 1);
    const orders = await db.selectFrom('orders').select('id').execute();
    assert.deepEqual(orders, [{ id: [...orderIds][0] }]);
    assert.equal((await db.selectFrom('order_dishes').selectAll().execute()).length, 1);
  });
});

describeEachDatabase('Idempotency-Key', (target) => {
  it('answers a retry with the first answer and creates nothing', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, table } = await diningRoom(app, db);
    const key = { 'idempotency-key': 'tablet-7-0001' };
    const first = await call('POST', '/orders', { table_id: table.id }, key);
    assert.equal(first.statusCode, 201);
    const before = await ordersSnapshot(db);
    const retry = await call('POST', '/orders', { table_id: table.id }, key);
    assert.equal(retry.statusCode, 201);
    assert.deepEqual(retry.json(), first.json());
    assert.deepEqual(await ordersSnapshot(db), before);
  });

  it('refuses the same key with another body and changes nothing', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, table } = await diningRoom(app, db);
    const key = { 'idempotency-key': 'tablet-7-0002' };
    await call('POST', '/orders', { table_id: table.id }, key);
    const before = await ordersSnapshot(db);
    const reused = await call('POST', '/orders', { waiter: 'Someone else' }, key);
    assert.equal(reused.statusCode, 400);
    assert.deepEqual(reused.json(), { message: 'Idempotency-Key was already used with a different request' });
    assert.deepEqual(await ordersSnapshot(db), before);
  });

  it('replays added dishes once and tells apart the same key on another order', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await diningRoom(app, db);
    const { id } = (await call('POST', '/orders', {})).json();
    const other = (await call('POST', '/orders', {})).json().id;
    const key = { 'idempotency-key': 'add-1' };
    const first = await call('POST', `/orders/${id}/dishes`, [{ dish_id: dish.id }], key);
    const retry = await call('POST', `/orders/${id}/dishes`, [{ dish_id: dish.id }], key);
    assert.equal(retry.statusCode, 201);
    assert.deepEqual(retry.json(), first.json());
    assert.equal((await storedOrderDishes(db, id)).length, 1);
    assert.equal(Number((await storedOrder(db, id)).total_cents), 1250);
    const elsewhere = await call('POST', `/orders/${other}/dishes`, [{ dish_id: dish.id }], key);
    assert.equal(elsewhere.statusCode, 400);
    assert.equal((await storedOrderDishes(db, other)).length, 0);
  });

  it('scopes keys per user and per route', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call } = await diningRoom(app, db);
    const { cookies: otherCookies } = await loggedInUser(app, db, 'staff');
    const key = { 'idempotency-key': 'shared-key' };
    const mine = await call('POST', '/orders', {}, key);
    const theirs = await app.inject({
      method: 'POST',
      url: '/orders',
      headers: { cookie: otherCookies, ...key },
      payload: {},
    });
    const withDishes = await call('POST', '/orders/with-dishes', { order: {}, dishes: [] }, key);
    assert.deepEqual([mine.statusCode, theirs.statusCode, withDishes.statusCode], [201, 201, 201]);
    assert.equal(new Set([mine.json().id, theirs.json().id, withDishes.json().id]).size, 3);
  });

  it('forgets a key whose request failed, so the corrected retry goes through', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, table } = await diningRoom(app, db);
    await call('POST', '/orders', { table_id: table.id });
    const key = { 'idempotency-key': 'busy-table' };
    const refused = await call('POST', '/orders', { table_id: table.id }, key);
    assert.equal(refused.statusCode, 400);
    assert.deepEqual(await db.selectFrom('idempotency_keys').selectAll().execute(), []);
    await db.updateTable('orders').set({ status: 'cancelled' }).execute();
    assert.equal((await call('POST', '/orders', { table_id: table.id }, key)).statusCode, 201);
  });

  it('refuses an empty or oversized key', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call } = await diningRoom(app, db);
    for (const value of ['', 'k'.repeat(256)]) {
      const response = await call('POST', '/orders', {}, { 'idempotency-key': value });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().message, 'Validation failed');
    }
    assert.deepEqual(await db.selectFrom('orders').selectAll().execute(), []);
  });

  it('documents the header in OpenAPI', async (t) => {
    const { app } = await buildTestApp(t, target);
    const document = (await app.inject({ method: 'GET', url: '/swagger/json' })).json();
    for (const path of ['/orders', '/orders/with-dishes', '/orders/{id}/dishes']) {
      const names = document.paths[path].post.parameters.map((parameter: { name: string }) => parameter.name);
      assert.ok(names.includes('idempotency-key'), path);
    }
  });
});
