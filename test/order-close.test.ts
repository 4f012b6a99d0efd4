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
    // A restaurant that clears its tables by hand: the cashier's close is what these tests are about.
    const byHand = await order.admin('PUT', '/settings', { close_paid_orders: false });
    assert.equal(byHand.statusCode, 200, byHand.body);
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

  it('counts discounts as settled: a discounted bill paid as asked, and a full comp, leave nothing due', async (t) => {
    const { app, db, call, admin, orderId } = await seatedOrder(t);
    const discounted = await createBill(admin, orderId, {
      discount: { type: 'percent', value: 10, reason: 'Regular customer' },
    });
    const asked = (await call('GET', `/tickets/${discounted}`)).json().balance;
    assert.equal(asked, 27);
    assert.equal(
      (await call('POST', `/tickets/${discounted}/payments`, { method: 'card', amount: asked })).statusCode,
      201,
    );
    const view = (await call('GET', `/orders/${orderId}`)).json();
    assert.deepEqual([view.total, view.discount, view.paid, view.balance], [30, 3, 27, 0]);
    const closed = await call('POST', `/orders/${orderId}/close`);
    assert.deepEqual([closed.statusCode, closed.json().balance], [200, 0], closed.body);

    const comp = await billableOrder(app, db, [1500]);
    await createBill(admin, comp.orderId, {
      discount: { type: 'percent', value: 100, reason: 'On the house' },
    });
    assert.equal((await comp.call('GET', `/orders/${comp.orderId}`)).json().balance, 0);
    assert.equal((await comp.call('POST', `/orders/${comp.orderId}/close`)).statusCode, 200);

    // A cancelled discounted bill gives its discount back: the order owes its full total again.
    const again = await billableOrder(app, db, [2000]);
    const cancelled = await createBill(admin, again.orderId, {
      discount: { type: 'amount', value: 5, reason: 'Late dish' },
    });
    assert.equal((await again.call('GET', `/orders/${again.orderId}`)).json().balance, 15);
    assert.equal((await again.call('POST', `/tickets/${cancelled}/cancel`)).statusCode, 200);
    const owed = (await again.call('GET', `/orders/${again.orderId}`)).json();
    assert.deepEqual([owed.discount, owed.balance], [0, 20]);
    for (const status of ['preparing', 'ready', 'completed']) {
      assert.equal((await again.call('PUT', `/orders/${again.orderId}`, { status })).statusCode, 200);
    }

    const manager = callerFor(app, (await loggedInUser(app, db, 'admin')).cookies);
    const balances = (await manager('GET', '/reports/open-balances')).json();
    assert.deepEqual(
      balances.orders.map((row: { id: string; balance: number }) => [row.id, row.balance]),
      [[again.orderId, 20]],
      'paid discounted orders are not listed as owing',
    );
  });

  it('closes a paid order after a refund: money given back after the sale is not owed again', async (t) => {
    const { app, db, call, admin, orderId, tableId } = await seatedOrder(t);
    const ticketId = await createBill(call, orderId, {});
    const paid = await call('POST', `/tickets/${ticketId}/payments`, { method: 'card', amount: 30 });
    assert.equal(paid.statusCode, 201, paid.body);
    const refund = await admin('POST', `/payments/${paid.json().id}/refund`, {
      amount: 5,
      reason: 'Cold soup',
    });
    assert.equal(refund.statusCode, 201, refund.body);

    const view = (await call('GET', `/orders/${orderId}`)).json();
    assert.deepEqual([view.total, view.paid, view.balance], [30, 25, 0]);
    const tillList = (await call('GET', '/orders?limit=500&offset=0')).json();
    assert.equal(tillList.find((order: { id: string }) => order.id === orderId)?.balance, 0);

    const closed = await call('POST', `/orders/${orderId}/close`);
    assert.deepEqual([closed.statusCode, closed.json().balance], [200, 0], closed.body);
    assert.deepEqual(await storedTable(db, tableId), { status: 'available', order_id: null });
    const manager = callerFor(app, (await loggedInUser(app, db, 'admin')).cookies);
    assert.deepEqual((await manager('GET', '/reports/open-balances')).json().orders, []);
  });

  it('is open to roles that take orders, not to the kitchen', async (t) => {
    const { app, db, orderId } = await seatedOrder(t);
    const cook = callerFor(app, (await loggedInUser(app, db, 'kitchen')).cookies);
    const refused = await cook('POST', `/orders/${orderId}/close`);
    assert.deepEqual([refused.statusCode, refused.json()], [403, { message: 'Unauthorized API access' }]);
  });
});
