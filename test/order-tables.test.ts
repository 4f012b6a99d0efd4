import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { insertTable } from './helpers/factories';
import { diningRoom, ordersSnapshot, storedOrder, storedTable } from './helpers/orders-factories';

const UNKNOWN_ID = '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e';

describeEachDatabase('orders and their tables', (target) => {
  it('does not occupy the table for an order created already final', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, table } = await diningRoom(app, db);
    const response = await call('POST', '/orders', { table_id: table.id, status: 'completed' });
    assert.equal(response.statusCode, 201);
    assert.deepEqual(await storedTable(db, table.id), { status: 'available', order_id: null });
  });

  it('refuses a second active order on a table and leaves the first in place', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, table } = await diningRoom(app, db);
    const first = (await call('POST', '/orders', { table_id: table.id })).json();
    const before = await ordersSnapshot(db);
    const second = await call('POST', '/orders', { table_id: table.id });
    assert.equal(second.statusCode, 400);
    assert.deepEqual(second.json(), { message: `Table with ID: ${table.id} already has an active order` });
    assert.deepEqual(await ordersSnapshot(db), before);
    assert.deepEqual(await storedTable(db, table.id), { status: 'occupied', order_id: first.id });
  });

  it('moves through the lifecycle and frees the table when the order completes', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, table } = await diningRoom(app, db);
    const { id } = (await call('POST', '/orders', { table_id: table.id })).json();
    for (const status of ['preparing', 'ready']) {
      const response = await call('PUT', `/orders/${id}`, { status });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), { message: 'Order updated successfully' });
      assert.deepEqual(await storedTable(db, table.id), { status: 'occupied', order_id: id });
    }
    assert.equal((await call('PUT', `/orders/${id}`, { status: 'completed' })).statusCode, 200);
    assert.equal((await storedOrder(db, id)).status, 'completed');
    assert.deepEqual(await storedTable(db, table.id), { status: 'available', order_id: null });
  });

  it('frees the table when the order is cancelled', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, table } = await diningRoom(app, db);
    const { id } = (await call('POST', '/orders', { table_id: table.id })).json();
    assert.equal((await call('PUT', `/orders/${id}`, { status: 'cancelled' })).statusCode, 200);
    assert.deepEqual(await storedTable(db, table.id), { status: 'available', order_id: null });
    assert.equal((await call('POST', '/orders', { table_id: table.id })).statusCode, 201);
  });

  it('moves an active order to another table, and to none', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, table } = await diningRoom(app, db);
    const other = await insertTable(db);
    const { id } = (await call('POST', '/orders', { table_id: table.id })).json();
    assert.equal((await call('PUT', `/orders/${id}`, { table_id: other.id })).statusCode, 200);
    assert.deepEqual(await storedTable(db, table.id), { status: 'available', order_id: null });
    assert.deepEqual(await storedTable(db, other.id), { status: 'occupied', order_id: id });
    assert.equal((await call('PUT', `/orders/${id}`, { table_id: null })).statusCode, 200);
    assert.deepEqual(await storedTable(db, other.id), { status: 'available', order_id: null });
    assert.equal((await storedOrder(db, id)).table_id, null);
  });

  it('refuses to move an order onto a busy, unknown or deleted table, or to an unknown user', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, table } = await diningRoom(app, db);
    const busy = await insertTable(db);
    const deleted = await insertTable(db);
    await db.updateTable('dining_tables').set({ is_deleted: 1 }).where('id', '=', deleted.id).execute();
    await call('POST', '/orders', { table_id: busy.id });
    const { id } = (await call('POST', '/orders', { table_id: table.id })).json();
    const before = await ordersSnapshot(db);
    const cases: [unknown, string][] = [
      [{ table_id: busy.id }, `Table with ID: ${busy.id} already has an active order`],
      [{ table_id: UNKNOWN_ID }, `Table with ID: ${UNKNOWN_ID} not found`],
      [{ table_id: deleted.id }, `Table with ID: ${deleted.id} not found`],
      [{ user_id: UNKNOWN_ID }, `User with ID: ${UNKNOWN_ID} not found`],
    ];
    for (const [body, message] of cases) {
      const response = await call('PUT', `/orders/${id}`, body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      assert.deepEqual(response.json(), { message });
    }
    assert.deepEqual(await ordersSnapshot(db), before);
  });
});
