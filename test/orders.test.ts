import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { insertOrder, insertTable, insertUser } from './helpers/factories';
import { diningRoom, notYetSent, ordersSnapshot, storedOrder, storedTable } from './helpers/orders-factories';

const UNKNOWN_ID = '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e';

describeEachDatabase('orders', (target) => {
  it('opens an order on a table with the defaults and occupies the table', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, user, table } = await diningRoom(app, db);
    const response = await call('POST', '/orders', { table_id: table.id, total: 99.99 });
    assert.equal(response.statusCode, 201);
    const { id, message } = response.json();
    assert.equal(message, 'Order added successfully');
    const order = await storedOrder(db, id);
    assert.equal(order.user_id, user.id);
    assert.equal(order.waiter, user.name);
    assert.equal(order.status, 'pending');
    assert.equal(Number(order.total_cents), 0, 'a total sent by the client never overrides the dishes');
    assert.deepEqual(await storedTable(db, table.id), { status: 'occupied', order_id: id });
  });

  it('answers the order object with a 2-decimal total and an ISO UTC created_at', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, user, table } = await diningRoom(app, db);
    const { id } = (await call('POST', '/orders', { table_id: table.id, waiter: 'Ana' })).json();
    await db.updateTable('orders').set({ total_cents: 1999 }).where('id', '=', id).execute();
    const response = await call('GET', `/orders/${id}`);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), {
      id,
      user_id: user.id,
      table_id: table.id,
      waiter: 'Ana',
      status: 'pending',
      guests: null,
      total: 19.99,
      discount: 0,
      paid: 0,
      balance: 19.99,
      created_at: '2026-11-22T18:00:00.000Z',
      channel: 'dine_in',
    });
  });

  it('opens a take-away order without a table', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call } = await diningRoom(app, db);
    const response = await call('POST', '/orders', {});
    assert.equal(response.statusCode, 201);
    assert.equal((await storedOrder(db, response.json().id)).table_id, null);
  });

  it('opens an order for another live user, named after that user', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call } = await diningRoom(app, db);
    const other = await insertUser(db);
    const { id } = (await call('POST', '/orders', { user_id: other.id })).json();
    const order = await storedOrder(db, id);
    assert.equal(order.user_id, other.id);
    assert.equal(order.waiter, other.name);
  });

  it('refuses bad references and bad bodies and changes nothing', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call } = await diningRoom(app, db);
    const deletedTable = await insertTable(db);
    await db.updateTable('dining_tables').set({ is_deleted: 1 }).where('id', '=', deletedTable.id).execute();
    const before = await ordersSnapshot(db);
    const cases: [unknown, number, unknown][] = [
      [{ table_id: UNKNOWN_ID }, 400, { message: `Table with ID: ${UNKNOWN_ID} not found` }],
      [{ table_id: deletedTable.id }, 400, { message: `Table with ID: ${deletedTable.id} not found` }],
      [
        { table_id: UNKNOWN_ID, status: 'completed' },
        400,
        { message: `Table with ID: ${UNKNOWN_ID} not found` },
      ],
      [{ user_id: UNKNOWN_ID }, 400, { message: `User with ID: ${UNKNOWN_ID} not found` }],
    ];
    for (const [body, status, answer] of cases) {
      const response = await call('POST', '/orders', body);
      assert.equal(response.statusCode, status, JSON.stringify(body));
      assert.deepEqual(response.json(), answer);
    }
    for (const body of [
      { status: 'served' },
      { table_id: 'table-7' },
      { total: '5' },
      { total: 1.005 },
      { waiter: '' },
      { user_id: 42 },
    ]) {
      const response = await call('POST', '/orders', body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      assert.equal(response.json().message, 'Validation failed');
    }
    assert.deepEqual(await ordersSnapshot(db), before);
  });

  it('requires a login', async (t) => {
    const { app } = await buildTestApp(t, target);
    for (const [method, url] of [
      ['GET', '/orders'],
      ['POST', '/orders'],
      ['GET', `/orders/${UNKNOWN_ID}`],
      ['GET', '/orders/total-sales/2026-11-22'],
    ] as const) {
      const response = await app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
      assert.equal(response.statusCode, 401, url);
      assert.deepEqual(response.json(), { message: 'Unauthorized', reason: 'missing' });
    }
  });

  it('answers malformed ids with the bare 400 text and unknown ids with the bare 404 text', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await diningRoom(app, db);
    const routes: [string, string, unknown?][] = [
      ['GET', '/orders/:id'],
      ['GET', '/orders/:id/complete'],
      ['PUT', '/orders/:id', { status: 'preparing' }],
      ['DELETE', '/orders/:id'],
      ['PUT', '/orders/:id/calculate-total'],
      ['GET', '/orders/:id/dishes'],
      ['POST', '/orders/:id/dishes', [{ dish_id: dish.id }]],
      ['DELETE', '/orders/:id/dishes'],
      ['PUT', `/orders/:id/dishes/${UNKNOWN_ID}`, { notes: 'x' }],
      ['DELETE', `/orders/:id/dishes/${UNKNOWN_ID}`],
    ];
    for (const [method, path, body] of routes) {
      const malformed = await call(method as 'GET', path.replace(':id', 'not-a-uuid'), body);
      assert.equal(malformed.statusCode, 400, `${method} ${path}`);
      assert.equal(malformed.body, 'Missing or malformed ID');
      assert.match(malformed.headers['content-type'] as string, /^text\/plain/);
      if (path.includes('dishes/')) continue;
      const unknown = await call(method as 'GET', path.replace(':id', UNKNOWN_ID), body);
      assert.equal(unknown.statusCode, 404, `${method} ${path}`);
      assert.equal(unknown.body, 'Resource not found');
    }
  });

  it('refuses invalid status transitions and changes nothing', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, table } = await diningRoom(app, db);
    const pending = (await call('POST', '/orders', { table_id: table.id })).json().id;
    const completed = (await insertOrder(db, { status: 'completed' })).id;
    const cancelled = (await insertOrder(db, { status: 'cancelled' })).id;
    const before = await ordersSnapshot(db);
    const cases: [string, string, string][] = [
      [pending, 'ready', 'pending'],
      [pending, 'completed', 'pending'],
      [completed, 'cancelled', 'completed'],
      [completed, 'pending', 'completed'],
      [cancelled, 'preparing', 'cancelled'],
    ];
    for (const [id, to, from] of cases) {
      const response = await call('PUT', `/orders/${id}`, { status: to, waiter: 'Changed' });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), { message: `Invalid status transition from ${from} to ${to}` });
    }
    const unknown = await call('PUT', `/orders/${pending}`, { status: 'served' });
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.json().message, 'Validation failed');
    assert.deepEqual(await ordersSnapshot(db), before);
  });

  it('treats a PUT with the current status as a plain update', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, user, table } = await diningRoom(app, db);
    const { id } = (await call('POST', '/orders', { table_id: table.id })).json();
    const body = { user_id: user.id, table_id: table.id, waiter: 'Luis', status: 'pending', total: 1 };
    const response = await call('PUT', `/orders/${id}`, body);
    assert.equal(response.statusCode, 200);
    const order = await storedOrder(db, id);
    assert.equal(order.waiter, 'Luis');
    assert.equal(Number(order.total_cents), 0);
    assert.deepEqual(await storedTable(db, table.id), { status: 'occupied', order_id: id });
  });

  it('deletes an order logically, frees its table and hides it everywhere', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const { call, table } = await diningRoom(app, db);
    const { id } = (await call('POST', '/orders', { table_id: table.id })).json();
    const response = await call('DELETE', `/orders/${id}`);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { message: 'Order deleted successfully' });
    assert.equal((await storedOrder(db, id)).is_deleted, 1);
    assert.deepEqual(await storedTable(db, table.id), { status: 'available', order_id: null });
    for (const url of [`/orders/${id}`, `/orders/${id}/complete`, `/orders/${id}/dishes`]) {
      assert.equal((await call('GET', url)).statusCode, 404, url);
    }
    assert.equal((await call('DELETE', `/orders/${id}`)).statusCode, 404);
    assert.equal((await call('PUT', `/orders/${id}`, { status: 'preparing' })).statusCode, 404);
    assert.equal((await call('GET', '/orders')).statusCode, 204);
    assert.equal((await call('GET', `/orders/table/${table.id}`)).statusCode, 204);
    clock.advance(1000);
    assert.equal((await call('POST', '/orders', { table_id: table.id })).statusCode, 201);
  });

  it('answers an order with its dishes', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await diningRoom(app, db);
    const { id } = (await call('POST', '/orders', {})).json();
    const empty = await call('GET', `/orders/${id}/complete`);
    assert.equal(empty.statusCode, 200);
    assert.deepEqual(empty.json().dishes, []);
    const { ids } = (
      await call('POST', `/orders/${id}/dishes`, [{ dish_id: dish.id, notes: 'Spicy' }])
    ).json();
    const response = await call('GET', `/orders/${id}/complete`);
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.equal(body.order.id, id);
    assert.equal(body.order.total, 12.5);
    assert.deepEqual(body.dishes, [
      {
        id: ids[0],
        order_id: id,
        dish_id: dish.id,
        price_at_order: 12.5,
        notes: 'Spicy',
        ...notYetSent(dish.name),
      },
    ]);
  });

  it('recalculates and stores the total from the dishes', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await diningRoom(app, db);
    const { id } = (await call('POST', '/orders', {})).json();
    await call('POST', `/orders/${id}/dishes`, [
      { dish_id: dish.id },
      { dish_id: dish.id, price_at_order: 0.3 },
    ]);
    await db.updateTable('orders').set({ total_cents: 1 }).where('id', '=', id).execute();
    const response = await call('PUT', `/orders/${id}/calculate-total`);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { message: 'Total calculated successfully', total: 12.8 });
    assert.equal(Number((await storedOrder(db, id)).total_cents), 1280);
  });

  it('opens an order with its dishes in one go', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish, table } = await diningRoom(app, db);
    const response = await call('POST', '/orders/with-dishes', {
      order: { table_id: table.id, waiter: 'Ana' },
      dishes: [{ dish_id: dish.id }, { dish_id: dish.id, price_at_order: 3.33, notes: 'No ice' }],
    });
    assert.equal(response.statusCode, 201);
    const { id, message } = response.json();
    assert.equal(message, 'Order added successfully');
    assert.equal(Number((await storedOrder(db, id)).total_cents), 1583);
    const dishes = (await call('GET', `/orders/${id}/dishes`)).json();
    assert.deepEqual(
      dishes.map((row: { price_at_order: number; notes: string }) => [row.price_at_order, row.notes]).sort(),
      [
        [12.5, ''],
        [3.33, 'No ice'],
      ],
    );
    assert.deepEqual(await storedTable(db, table.id), { status: 'occupied', order_id: id });
  });

  it('creates nothing when one dish of a new order is refused', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish, table } = await diningRoom(app, db);
    const before = await ordersSnapshot(db);
    const unknownDish = await call('POST', '/orders/with-dishes', {
      order: { table_id: table.id },
      dishes: [{ dish_id: dish.id }, { dish_id: UNKNOWN_ID }],
    });
    assert.equal(unknownDish.statusCode, 400);
    assert.deepEqual(unknownDish.json(), { message: `Dish with ID: ${UNKNOWN_ID} not found` });
    const badPrice = await call('POST', '/orders/with-dishes', {
      order: { table_id: table.id },
      dishes: [{ dish_id: dish.id, price_at_order: 1.234 }],
    });
    assert.equal(badPrice.statusCode, 400);
    assert.equal(badPrice.json().details[0].field, 'dishes[0].price_at_order');
    const missingOrder = await call('POST', '/orders/with-dishes', { dishes: [] });
    assert.equal(missingOrder.statusCode, 400);
    assert.deepEqual(await ordersSnapshot(db), before);
  });
});
