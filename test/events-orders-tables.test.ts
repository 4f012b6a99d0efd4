import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { storedEvents } from './helpers/checkout-factories';
import { insertSpace, insertTable } from './helpers/factories';
import { type Caller, callerFor, diningRoom } from './helpers/orders-factories';

type Stored = Awaited<ReturnType<typeof storedEvents>>[number];

/** The events written since `seen` rows, as `[type, data]`. */
function newEvents(all: Stored[], seen: number): [string, unknown][] {
  return all.slice(seen).map((event) => [event.type, event.payload.data]);
}

async function view(call: Caller, url: string): Promise<unknown> {
  const response = await call('GET', url);
  assert.equal(response.statusCode, 200, response.body);
  return response.json();
}

describeEachDatabase('order and table events', (target) => {
  it('writes each order change with the record as its GET shows it, and the table it seats or frees', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish, table } = await diningRoom(app, db);
    let seen = (await storedEvents(db)).length;

    const created = await call('POST', '/orders/with-dishes', {
      order: { table_id: table.id },
      dishes: [{ dish_id: dish.id }],
    });
    assert.equal(created.statusCode, 201, created.body);
    const orderId = created.json().id as string;
    let events = await storedEvents(db);
    assert.deepEqual(newEvents(events, seen), [
      ['order.created', await view(call, `/orders/${orderId}`)],
      ['table.updated', await view(call, `/tables/${table.id}`)],
    ]);
    assert.deepEqual(
      events.slice(seen).map((event) => event.topic),
      ['orders', 'tables'],
    );
    seen = events.length;

    assert.equal((await call('POST', `/orders/${orderId}/dishes`, [{ dish_id: dish.id }])).statusCode, 201);
    events = await storedEvents(db);
    assert.deepEqual(newEvents(events, seen), [
      ['order.dishes_changed', await view(call, `/orders/${orderId}/complete`)],
    ]);
    seen = events.length;

    assert.equal((await call('PUT', `/orders/${orderId}`, { status: 'preparing' })).statusCode, 200);
    events = await storedEvents(db);
    assert.deepEqual(newEvents(events, seen), [['order.updated', await view(call, `/orders/${orderId}`)]]);
    seen = events.length;

    assert.equal((await call('PUT', `/orders/${orderId}`, { status: 'cancelled' })).statusCode, 200);
    events = await storedEvents(db);
    assert.deepEqual(newEvents(events, seen), [
      ['order.updated', await view(call, `/orders/${orderId}`)],
      ['table.updated', await view(call, `/tables/${table.id}`)],
    ]);
    seen = events.length;

    const shown = await view(call, `/orders/${orderId}`);
    assert.equal((await call('DELETE', `/orders/${orderId}`)).statusCode, 200);
    events = await storedEvents(db);
    assert.deepEqual(newEvents(events, seen), [['order.deleted', shown]]);
  });

  it('moving an order frees one table and seats the other; a total recalculation is an update', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish, table } = await diningRoom(app, db);
    const other = await insertTable(db);
    const created = await call('POST', '/orders/with-dishes', {
      order: { table_id: table.id },
      dishes: [{ dish_id: dish.id }],
    });
    const orderId = created.json().id as string;
    let seen = (await storedEvents(db)).length;

    assert.equal((await call('PUT', `/orders/${orderId}`, { table_id: other.id })).statusCode, 200);
    let events = await storedEvents(db);
    assert.deepEqual(newEvents(events, seen), [
      ['order.updated', await view(call, `/orders/${orderId}`)],
      ['table.updated', await view(call, `/tables/${table.id}`)],
      ['table.updated', await view(call, `/tables/${other.id}`)],
    ]);
    seen = events.length;

    assert.equal((await call('PUT', `/orders/${orderId}/calculate-total`)).statusCode, 200);
    events = await storedEvents(db);
    assert.deepEqual(newEvents(events, seen), [['order.updated', await view(call, `/orders/${orderId}`)]]);
  });

  it('writes table.created, table.updated and table.deleted as the table GET shows it', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call } = await diningRoom(app, db);
    const admin = callerFor(app, (await loggedInUser(app, db, 'admin')).cookies);
    const space = await insertSpace(db);
    let seen = (await storedEvents(db)).length;

    const created = await admin('POST', '/tables', { name: 'T4', space_id: space.id });
    assert.equal(created.statusCode, 201, created.body);
    const tableId = created.json().id as string;
    let events = await storedEvents(db);
    assert.deepEqual(newEvents(events, seen), [['table.created', await view(call, `/tables/${tableId}`)]]);
    seen = events.length;

    const updated = await admin('PUT', `/tables/${tableId}`, {
      name: 'T4b',
      space_id: space.id,
      status: 'reserved',
    });
    assert.equal(updated.statusCode, 200, updated.body);
    events = await storedEvents(db);
    assert.deepEqual(newEvents(events, seen), [['table.updated', await view(call, `/tables/${tableId}`)]]);
    seen = events.length;

    const shown = await view(call, `/tables/${tableId}`);
    assert.equal((await admin('DELETE', `/tables/${tableId}`)).statusCode, 200);
    events = await storedEvents(db);
    assert.deepEqual(newEvents(events, seen), [['table.deleted', shown]]);
  });

  it('a refused or rolled-back change writes no event', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish, table } = await diningRoom(app, db);
    const first = await call('POST', '/orders/with-dishes', {
      order: { table_id: table.id },
      dishes: [{ dish_id: dish.id }],
    });
    assert.equal(first.statusCode, 201);
    const before = await storedEvents(db);
    // The order row is written before the table refuses it: the whole transaction rolls back.
    const taken = await call('POST', '/orders/with-dishes', {
      order: { table_id: table.id },
      dishes: [{ dish_id: dish.id }],
    });
    assert.equal(taken.statusCode, 400, taken.body);
    const orderId = first.json().id as string;
    assert.equal((await call('PUT', `/orders/${orderId}`, { status: 'preparing' })).statusCode, 200);
    const afterUpdate = await storedEvents(db);
    assert.equal(afterUpdate.length, before.length + 1);
    // Asking for what the order already is succeeds and changes nothing, so it tells no screen.
    const shown = await view(call, `/orders/${orderId}`);
    const again = await call('PUT', `/orders/${orderId}`, { status: 'preparing' });
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(await view(call, `/orders/${orderId}`), shown);
    assert.equal((await call('PUT', `/orders/${orderId}`, { status: 'nonsense' })).statusCode, 400);
    assert.equal(
      (await call('POST', `/orders/${orderId}/dishes`, [{ dish_id: crypto.randomUUID() }])).statusCode,
      400,
    );
    assert.deepEqual(await storedEvents(db), afterUpdate);
  });
});
