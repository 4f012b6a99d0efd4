import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { insertDish, insertOrder } from './helpers/factories';
import {
  diningRoom,
  notYetSent,
  ordersSnapshot,
  storedOrder,
  storedOrderDishes,
} from './helpers/orders-factories';

const UNKNOWN_ID = '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e';

describeEachDatabase('order dishes', (target) => {
  it('adds dishes at the price sent or the current menu price and updates the total', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await diningRoom(app, db);
    const { id } = (await call('POST', '/orders', {})).json();
    const response = await call('POST', `/orders/${id}/dishes`, [
      { dish_id: dish.id, notes: 'Well done' },
      { dish_id: dish.id, price_at_order: 0 },
      { dish_id: dish.id, price_at_order: 7.05 },
    ]);
    assert.equal(response.statusCode, 201);
    const body = response.json();
    assert.equal(body.message, 'Dishes added successfully');
    assert.equal(body.ids.length, 3);
    const stored = await storedOrderDishes(db, id);
    assert.deepEqual(
      body.ids.map((rowId: string) => {
        const row = stored.find((candidate) => candidate.id === rowId);
        return [Number(row?.price_at_order_cents), row?.notes];
      }),
      [
        [1250, 'Well done'],
        [0, ''],
        [705, ''],
      ],
    );
    assert.equal(Number((await storedOrder(db, id)).total_cents), 1955);
  });

  it('lists the plates of one request in the order they were entered, though they share their time', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await diningRoom(app, db);
    const { id } = (await call('POST', '/orders', {})).json();
    // Ten notes in an order that neither the names nor random ids would give by chance.
    const notes = ['j', 'c', 'h', 'a', 'f', 'b', 'i', 'd', 'g', 'e'];
    const added = await call(
      'POST',
      `/orders/${id}/dishes`,
      notes.map((note) => ({ dish_id: dish.id, notes: note })),
    );
    assert.equal(added.statusCode, 201, added.body);
    const listed = (await call('GET', `/orders/${id}/dishes`)).json() as { id: string; notes: string }[];
    assert.deepEqual(
      listed.map((plate) => plate.notes),
      notes,
    );
    assert.deepEqual(
      listed.map((plate) => plate.id),
      added.json().ids,
    );
  });

  it('adds 0.10 thirty times to exactly 3.00', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await diningRoom(app, db);
    const { id } = (await call('POST', '/orders', {})).json();
    for (let i = 0; i < 30; i++) {
      assert.equal(
        (await call('POST', `/orders/${id}/dishes`, [{ dish_id: dish.id, price_at_order: 0.1 }])).statusCode,
        201,
      );
    }
    assert.equal((await call('GET', `/orders/${id}`)).json().total, 3);
    assert.equal(Number((await storedOrder(db, id)).total_cents), 300);
  });

  it('lists the dishes of an order, 204 when it has none', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await diningRoom(app, db);
    const { id } = (await call('POST', '/orders', {})).json();
    const empty = await call('GET', `/orders/${id}/dishes`);
    assert.equal(empty.statusCode, 204);
    assert.equal(empty.body, '');
    const { ids } = (
      await call('POST', `/orders/${id}/dishes`, [{ dish_id: dish.id, price_at_order: 2 }])
    ).json();
    const response = await call('GET', `/orders/${id}/dishes`);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), [
      {
        id: ids[0],
        order_id: id,
        dish_id: dish.id,
        price_at_order: 2,
        notes: '',
        ...notYetSent(dish.name),
      },
    ]);
  });

  it('refuses unknown dishes, bad prices and empty lists and changes nothing', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await diningRoom(app, db);
    const deletedDish = await insertDish(db);
    await db.updateTable('dishes').set({ is_deleted: 1 }).where('id', '=', deletedDish.id).execute();
    const { id } = (await call('POST', '/orders', {})).json();
    await call('POST', `/orders/${id}/dishes`, [{ dish_id: dish.id }]);
    const before = await ordersSnapshot(db);
    for (const dishId of [UNKNOWN_ID, deletedDish.id]) {
      const response = await call('POST', `/orders/${id}/dishes`, [
        { dish_id: dish.id },
        { dish_id: dishId },
      ]);
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), { message: `Dish with ID: ${dishId} not found` });
    }
    for (const body of [
      [],
      [{ dish_id: dish.id, price_at_order: 1.999 }],
      [{ dish_id: dish.id, price_at_order: -1 }],
      [{ dish_id: dish.id, price_at_order: '2.00' }],
      [{ dish_id: 'soup' }],
      { dish_id: dish.id },
    ]) {
      const response = await call('POST', `/orders/${id}/dishes`, body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      assert.equal(response.json().message, 'Validation failed');
    }
    assert.deepEqual(await ordersSnapshot(db), before);
  });

  it('refuses to change the dishes of a completed or cancelled order', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await diningRoom(app, db);
    for (const status of ['completed', 'cancelled'] as const) {
      const { id } = (await call('POST', '/orders', {})).json();
      const { ids } = (await call('POST', `/orders/${id}/dishes`, [{ dish_id: dish.id }])).json();
      await db.updateTable('orders').set({ status }).where('id', '=', id).execute();
      const before = await ordersSnapshot(db);
      const attempts = [
        await call('POST', `/orders/${id}/dishes`, [{ dish_id: dish.id }]),
        await call('PUT', `/orders/${id}/dishes/${ids[0]}`, { notes: 'late' }),
        await call('DELETE', `/orders/${id}/dishes/${ids[0]}`),
        await call('DELETE', `/orders/${id}/dishes`),
      ];
      for (const response of attempts) {
        assert.equal(response.statusCode, 400);
        assert.deepEqual(response.json(), { message: `Cannot change the dishes of a ${status} order` });
      }
      assert.deepEqual(await ordersSnapshot(db), before);
    }
  });

  it('updates the price and notes of one dish and the total with it', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await diningRoom(app, db);
    const { id } = (await call('POST', '/orders', {})).json();
    const { ids } = (
      await call('POST', `/orders/${id}/dishes`, [{ dish_id: dish.id }, { dish_id: dish.id }])
    ).json();
    const response = await call('PUT', `/orders/${id}/dishes/${ids[0]}`, {
      price_at_order: 10.01,
      notes: 'Half',
    });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { message: 'Dish updated successfully' });
    const row = (await storedOrderDishes(db, id)).find((candidate) => candidate.id === ids[0]);
    assert.equal(Number(row?.price_at_order_cents), 1001);
    assert.equal(row?.notes, 'Half');
    assert.equal(Number((await storedOrder(db, id)).total_cents), 2251);
    assert.equal(
      (await call('PUT', `/orders/${id}/dishes/${ids[1]}`, { notes: 'Only notes' })).statusCode,
      200,
    );
    assert.equal(Number((await storedOrder(db, id)).total_cents), 2251);
  });

  it('refuses dish updates that are empty, malformed or aimed at another order', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await diningRoom(app, db);
    const { id } = (await call('POST', '/orders', {})).json();
    const other = (await call('POST', '/orders', {})).json().id;
    const { ids } = (await call('POST', `/orders/${other}/dishes`, [{ dish_id: dish.id }])).json();
    const before = await ordersSnapshot(db);
    const empty = await call('PUT', `/orders/${other}/dishes/${ids[0]}`, {});
    assert.equal(empty.statusCode, 400);
    assert.equal(empty.json().message, 'Validation failed');
    const badPrice = await call('PUT', `/orders/${other}/dishes/${ids[0]}`, { price_at_order: 0.001 });
    assert.equal(badPrice.statusCode, 400);
    for (const url of [`/orders/${id}/dishes/${ids[0]}`, `/orders/${other}/dishes/${UNKNOWN_ID}`]) {
      const update = await call('PUT', url, { notes: 'x' });
      assert.equal(update.statusCode, 404, url);
      assert.equal(update.body, 'Resource not found');
      const removal = await call('DELETE', url);
      assert.equal(removal.statusCode, 404, url);
      assert.equal(removal.body, 'Resource not found');
    }
    for (const method of ['PUT', 'DELETE'] as const) {
      const malformed = await call(method, `/orders/${other}/dishes/42`, { notes: 'x' });
      assert.equal(malformed.statusCode, 400);
      assert.equal(malformed.body, 'Missing or malformed ID');
    }
    assert.deepEqual(await ordersSnapshot(db), before);
  });

  it('removes one dish and lowers the total', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await diningRoom(app, db);
    const { id } = (await call('POST', '/orders', {})).json();
    const { ids } = (
      await call('POST', `/orders/${id}/dishes`, [
        { dish_id: dish.id },
        { dish_id: dish.id, price_at_order: 1 },
      ])
    ).json();
    const response = await call('DELETE', `/orders/${id}/dishes/${ids[0]}`);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { message: 'Dish removed successfully' });
    assert.deepEqual(
      (await storedOrderDishes(db, id)).map((row) => row.id),
      [ids[1]],
    );
    assert.equal(Number((await storedOrder(db, id)).total_cents), 100);
    assert.equal((await call('DELETE', `/orders/${id}/dishes/${ids[0]}`)).statusCode, 404);
  });

  it('removes every dish and brings the total to zero', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await diningRoom(app, db);
    const { id } = (await call('POST', '/orders', {})).json();
    await call('POST', `/orders/${id}/dishes`, [{ dish_id: dish.id }, { dish_id: dish.id }]);
    const response = await call('DELETE', `/orders/${id}/dishes`);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { message: 'All dishes removed successfully' });
    assert.deepEqual(await storedOrderDishes(db, id), []);
    assert.equal(Number((await storedOrder(db, id)).total_cents), 0);
  });

  it('changes the dishes of an order in preparation or ready to serve', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await diningRoom(app, db);
    for (const status of ['preparing', 'ready'] as const) {
      const order = await insertOrder(db, { status });
      assert.equal(
        (await call('POST', `/orders/${order.id}/dishes`, [{ dish_id: dish.id }])).statusCode,
        201,
      );
    }
  });

  it('stores a large price exactly', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await diningRoom(app, db);
    const { id } = (await call('POST', '/orders', {})).json();
    const response = await call('POST', `/orders/${id}/dishes`, [
      { dish_id: dish.id, price_at_order: 99_999_999.99 },
    ]);
    assert.equal(response.statusCode, 201);
    assert.equal((await call('GET', `/orders/${id}`)).json().total, 99_999_999.99);
  });
});
