import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { billableOrder, createBill, storedEvents } from './helpers/checkout-factories';
import { databaseDigest } from './helpers/db-digest';
import { insertTable } from './helpers/factories';
import { callerFor, storedOrder, storedTable } from './helpers/orders-factories';

describeEachDatabase('closing a paid order', (target) => {
  async function seatedOrder(t: Parameters<typeof buildTestApp>[0]) {
    const built = await buildTestApp(t, target);
    const order = await billableOrder(built.app, built.db, [1000, 2000]);
    const table = await insertTable(built.db);
    const seated = await order.call('PUT', `/orders/${order.orderId}`, { table_id: table.id });
    assert.equal(seated.statusCode, 200, seated.body);
    return { ...built, ...order, tableId: table.id };
  }

  it('completes an order its payments cover, in one step from any active status, and frees its table', async (t) => {
    const { db, call, orderId, tableId } = await seatedOrder(t);
    const ticketId = await createBill(call, orderId, {});
    const paid = await call('POST', `/tickets/${ticketId}/payments`, { method: 'card', amount: 30 });
    assert.equal(paid.statusCode, 201, paid.body);
    const eventsBefore = (await storedEvents(db)).length;

    const closed = await call('POST', `/orders/${orderId}/close`);
    assert.equal(closed.statusCode, 200, closed.body);
    assert.equal(closed.json().status, 'completed');
    assert.equal(closed.json().balance, 0);
    assert.equal((await storedOrder(db, orderId)).status, 'completed');
    assert.deepEqual(await storedTable(db, tableId), { status: 'available', order_id: null });
    const events = (await storedEvents(db)).slice(eventsBefore);
    assert.deepEqual(
      events.map((event) => [event.type, event.payload.data.id]),
      [
        ['order.updated', orderId],
        ['table.updated', tableId],
      ],
    );
    assert.equal(events[0]?.payload.data.status, 'completed');
  });

  it('refuses a balance due, an order no longer active and an unknown order, changing nothing', async (t) => {
    const { db, call, orderId } = await seatedOrder(t);
    const ticketId = await createBill(call, orderId, {});
    await call('POST', `/tickets/${ticketId}/payments`, { method: 'card', amount: 29.99 });

    const before = await databaseDigest(db);
    const due = await call('POST', `/orders/${orderId}/close`);
    assert.deepEqual(
      [due.statusCode, due.json()],
      [400, { message: 'Cannot close an order with a balance due' }],
    );
    const unknown = await call('POST', '/orders/0b7e3c1e-1111-4a2b-9c3d-123456789abc/close');
    assert.equal(unknown.statusCode, 404);
    assert.deepEqual(await databaseDigest(db), before);

    await call('POST', `/tickets/${ticketId}/payments`, { method: 'card', amount: 0.01 });
    assert.equal((await call('POST', `/orders/${orderId}/close`)).statusCode, 200);
    const again = await call('POST', `/orders/${orderId}/close`);
    assert.deepEqual([again.statusCode, again.json()], [400, { message: 'Cannot close a completed order' }]);
  });

  it('is open to roles that take orders, not to the kitchen', async (t) => {
    const { app, db, orderId } = await seatedOrder(t);
    const cook = callerFor(app, (await loggedInUser(app, db, 'kitchen')).cookies);
    const refused = await cook('POST', `/orders/${orderId}/close`);
    assert.deepEqual([refused.statusCode, refused.json()], [403, { message: 'Unauthorized API access' }]);
  });
});
