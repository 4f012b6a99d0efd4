import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { billableOrder, createBill, storedEvents } from './helpers/checkout-factories';
import { databaseDigest } from './helpers/db-digest';
import { callerFor, storedOrder } from './helpers/orders-factories';

const UNKNOWN_ID = '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e';

describeEachDatabase('tickets', (target) => {
  it('bills the whole order with every dish and shows the bill', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId, dishIds } = await billableOrder(app, db);
    const response = await call('POST', `/orders/${orderId}/tickets`, {});
    assert.equal(response.statusCode, 201);
    const { id, message } = response.json();
    assert.equal(message, 'Ticket created successfully');
    const view = await call('GET', `/tickets/${id}`);
    assert.equal(view.statusCode, 200);
    assert.deepEqual(view.json(), {
      id,
      order_id: orderId,
      status: 1,
      subtotal: 60,
      discount: 0,
      total: 60,
      paid: 0,
      tips: 0,
      balance: 60,
      order_dish_ids: view.json().order_dish_ids,
      created_at: '2026-11-22T18:00:00.000Z',
      paid_at: null,
    });
    assert.deepEqual([...view.json().order_dish_ids].sort(), [...dishIds].sort());
    assert.equal(Number((await storedOrder(db, orderId)).billed_cents), 6000);
  });

  it('splits by dishes and by amount, then bills the rest, then has nothing left', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId, dishIds } = await billableOrder(app, db);
    const byDish = await createBill(call, orderId, { order_dish_ids: [dishIds[1]] });
    const byAmount = await createBill(call, orderId, { amount: 12.5 });
    const rest = await createBill(call, orderId, {});
    const views = await Promise.all([byDish, byAmount, rest].map((id) => call('GET', `/tickets/${id}`)));
    assert.deepEqual(
      views.map((view) => [view.json().subtotal, view.json().order_dish_ids.length]),
      [
        [20, 1],
        [12.5, 0],
        [27.5, 0],
      ],
      'after a split by amount the rest is money only',
    );
    const before = await databaseDigest(db);
    const none = await call('POST', `/orders/${orderId}/tickets`, { amount: 0.01 });
    assert.equal(none.statusCode, 400);
    assert.deepEqual(none.json(), { message: 'Nothing left to bill' });
    assert.deepEqual((await call('POST', `/orders/${orderId}/tickets`, {})).json(), {
      message: 'Nothing left to bill',
    });
    assert.equal(await databaseDigest(db), before);

    const list = await call('GET', `/orders/${orderId}/tickets`);
    assert.equal(list.statusCode, 200);
    assert.deepEqual(
      list
        .json()
        .map((ticket: { id: string }) => ticket.id)
        .sort(),
      [byDish, byAmount, rest].sort(),
    );
  });

  it('refuses a dish already billed, a dish of another order, more than the unbilled balance', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId, dishIds } = await billableOrder(app, db);
    const other = await billableOrder(app, db, [500]);
    await createBill(call, orderId, { order_dish_ids: [dishIds[0]] });
    await createBill(call, orderId, { amount: 40 });
    const before = await databaseDigest(db);
    const cases: [unknown, string][] = [
      [{ order_dish_ids: [dishIds[0]] }, `Order dish with ID: ${dishIds[0]} is already on a bill`],
      [
        { order_dish_ids: [other.dishIds[0]] },
        `Order dish with ID: ${other.dishIds[0]} is not on this order`,
      ],
      [{ order_dish_ids: [dishIds[2]] }, 'Amount exceeds the unbilled balance'],
      [{ amount: 10.01 }, 'Amount exceeds the unbilled balance'],
      [{ amount: 5, order_dish_ids: [dishIds[1]] }, 'Send either order_dish_ids or amount, not both'],
    ];
    for (const [body, message] of cases) {
      const response = await call('POST', `/orders/${orderId}/tickets`, body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      assert.deepEqual(response.json(), { message });
    }
    for (const body of [{ amount: 0 }, { amount: 1.001 }, { amount: -1 }, { order_dish_ids: [] }]) {
      const response = await call('POST', `/orders/${orderId}/tickets`, body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      assert.equal(response.json().message, 'Validation failed');
    }
    assert.equal(await databaseDigest(db), before);
  });

  it('refuses to bill a cancelled order, an order without dishes, an unknown order', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId } = await billableOrder(app, db);
    const empty = (await call('POST', '/orders', {})).json().id;
    assert.equal((await call('PUT', `/orders/${orderId}`, { status: 'cancelled' })).statusCode, 200);
    const before = await databaseDigest(db);
    const cancelled = await call('POST', `/orders/${orderId}/tickets`, {});
    assert.equal(cancelled.statusCode, 400);
    assert.deepEqual(cancelled.json(), { message: 'Cannot bill a cancelled order' });
    const noDishes = await call('POST', `/orders/${empty}/tickets`, {});
    assert.equal(noDishes.statusCode, 400);
    assert.deepEqual(noDishes.json(), { message: 'Cannot bill an order without dishes' });
    assert.equal((await call('POST', `/orders/${UNKNOWN_ID}/tickets`, {})).statusCode, 404);
    assert.equal(await databaseDigest(db), before);
  });

  it('lets only an administrator discount, by percent or amount', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, admin, orderId, dishIds } = await billableOrder(app, db);
    const discount = { type: 'percent', value: 12.5, reason: 'Regular customer' };
    const before = await databaseDigest(db);
    const refused = await call('POST', `/orders/${orderId}/tickets`, { discount });
    assert.equal(refused.statusCode, 403);
    assert.deepEqual(refused.json(), { message: 'Unauthorized API access' });
    const tooMuch = await admin('POST', `/orders/${orderId}/tickets`, {
      order_dish_ids: [dishIds[0]],
      discount: { type: 'amount', value: 10.01, reason: 'x' },
    });
    assert.deepEqual(tooMuch.json(), { message: 'Discount exceeds the subtotal' });
    const overHundred = await admin('POST', `/orders/${orderId}/tickets`, {
      discount: { type: 'percent', value: 101, reason: 'x' },
    });
    assert.deepEqual(overHundred.json(), { message: 'A percent discount is at most 100' });
    assert.equal(await databaseDigest(db), before);

    const percent = await createBill(admin, orderId, { order_dish_ids: [dishIds[2]], discount });
    assert.deepEqual(
      (({ subtotal, discount, total, balance }) => ({ subtotal, discount, total, balance }))(
        (await call('GET', `/tickets/${percent}`)).json(),
      ),
      { subtotal: 30, discount: 3.75, total: 26.25, balance: 26.25 },
    );
    const comped = await createBill(admin, orderId, {
      order_dish_ids: [dishIds[0]],
      discount: { type: 'amount', value: 10, reason: 'Birthday' },
    });
    const compedView = (await call('GET', `/tickets/${comped}`)).json();
    assert.equal(compedView.status, 2, 'a bill discounted to nothing is paid at once');
    assert.equal(compedView.paid_at, '2026-11-22T18:00:00.000Z');
    assert.deepEqual(
      (await storedEvents(db)).filter((event) => event.payload.data.id === comped).map((event) => event.type),
      ['ticket.created', 'ticket.paid'],
    );
  });

  it('cancels a bill with nothing paid, so its dishes and amount can be billed again', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId, dishIds } = await billableOrder(app, db);
    const byDish = await createBill(call, orderId, { order_dish_ids: [dishIds[0]] });
    const rest = await createBill(call, orderId, {});
    assert.deepEqual(
      [...(await call('GET', `/tickets/${rest}`)).json().order_dish_ids].sort(),
      [dishIds[1], dishIds[2]].sort(),
      'the rest covers the dishes not yet on a bill',
    );
    const cancel = await call('POST', `/tickets/${byDish}/cancel`);
    assert.equal(cancel.statusCode, 200);
    assert.deepEqual(cancel.json(), { message: 'Ticket canceled successfully' });
    const view = (await call('GET', `/tickets/${byDish}`)).json();
    assert.equal(view.status, 3);
    assert.deepEqual(view.order_dish_ids, [dishIds[0]], 'a cancelled bill still shows what it covered');
    assert.equal(Number((await storedOrder(db, orderId)).billed_cents), 5000);
    const again = await createBill(call, orderId, { order_dish_ids: [dishIds[0]] });
    assert.equal((await call('GET', `/tickets/${again}`)).json().subtotal, 10);

    const before = await databaseDigest(db);
    const twice = await call('POST', `/tickets/${byDish}/cancel`);
    assert.equal(twice.statusCode, 400);
    assert.deepEqual(twice.json(), { message: 'Ticket is already canceled' });
    assert.equal((await call('POST', `/tickets/${UNKNOWN_ID}/cancel`)).statusCode, 404);
    assert.equal(await databaseDigest(db), before);
  });

  it('refuses to cancel a bill with payments', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId } = await billableOrder(app, db);
    const id = await createBill(call, orderId, {});
    await call('POST', `/tickets/${id}/payments`, { method: 'card', amount: 5 });
    const before = await databaseDigest(db);
    const response = await call('POST', `/tickets/${id}/cancel`);
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), { message: 'Ticket has payments: refund them first' });
    assert.equal(await databaseDigest(db), before);
  });

  it('freezes a billed dish: no removal, no new price; notes and unbilled dishes still change', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId, dishIds } = await billableOrder(app, db);
    await createBill(call, orderId, { order_dish_ids: [dishIds[0]] });
    const before = await databaseDigest(db);
    const attempts = [
      call('DELETE', `/orders/${orderId}/dishes/${dishIds[0]}`),
      call('PUT', `/orders/${orderId}/dishes/${dishIds[0]}`, { price_at_order: 9 }),
      call('DELETE', `/orders/${orderId}/dishes`),
    ];
    for (const response of await Promise.all(attempts)) {
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), { message: 'Dish is on a bill' });
    }
    assert.equal(await databaseDigest(db), before);
    const notes = await call('PUT', `/orders/${orderId}/dishes/${dishIds[0]}`, {
      price_at_order: 10,
      notes: 'Spicy',
    });
    assert.equal(notes.statusCode, 200, 'the same price is not a reprice');
    assert.equal((await call('DELETE', `/orders/${orderId}/dishes/${dishIds[1]}`)).statusCode, 200);
  });

  it('keeps the order total above its bills when unbilled dishes change', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId, dishIds } = await billableOrder(app, db);
    await createBill(call, orderId, { amount: 45 });
    const before = await databaseDigest(db);
    const response = await call('DELETE', `/orders/${orderId}/dishes/${dishIds[2]}`);
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), {
      message: 'The order total would fall below its bills: cancel a bill first',
    });
    assert.equal(await databaseDigest(db), before);
    assert.equal((await call('DELETE', `/orders/${orderId}/dishes/${dishIds[0]}`)).statusCode, 200);
  });

  it('refuses to cancel or delete an order with paid bills; pending bills go with the order', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId, dishIds } = await billableOrder(app, db);
    const paid = await createBill(call, orderId, { order_dish_ids: [dishIds[0]] });
    await call('POST', `/tickets/${paid}/payments`, { method: 'card', amount: 10 });
    const before = await databaseDigest(db);
    for (const response of [
      await call('PUT', `/orders/${orderId}`, { status: 'cancelled' }),
      await call('DELETE', `/orders/${orderId}`),
    ]) {
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), { message: 'Order has paid bills: refund and cancel them first' });
    }
    assert.equal(await databaseDigest(db), before);

    const other = await billableOrder(app, db);
    const pending = await createBill(other.call, other.orderId, { amount: 5 });
    assert.equal((await other.call('DELETE', `/orders/${other.orderId}`)).statusCode, 200);
    assert.equal((await other.call('GET', `/tickets/${pending}`)).json().status, 3);
    assert.equal(Number((await storedOrder(db, other.orderId)).billed_cents), 0);
  });

  it('shows paid and balance on every order view', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId } = await billableOrder(app, db);
    const id = await createBill(call, orderId, { amount: 25 });
    await call('POST', `/tickets/${id}/payments`, { method: 'cash', amount: 25, tip: 3 });
    const order = (await call('GET', `/orders/${orderId}`)).json();
    assert.deepEqual([order.total, order.paid, order.balance], [60, 25, 35]);
    const listed = (await call('GET', '/orders')).json().find((row: { id: string }) => row.id === orderId);
    assert.deepEqual([listed.paid, listed.balance], [25, 35]);
    const complete = (await call('GET', `/orders/${orderId}/complete`)).json();
    assert.deepEqual([complete.order.paid, complete.order.balance], [25, 35]);
  });

  it('lists bills with filters, newest first, and X-Total-Count', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const { call, orderId } = await billableOrder(app, db);
    const other = await billableOrder(app, db, [900]);
    const first = await createBill(call, orderId, { amount: 10 });
    clock.advance(1000);
    const second = await createBill(call, orderId, { amount: 10 });
    clock.advance(1000);
    const third = await createBill(call, other.orderId, {});
    await call('POST', `/tickets/${first}/cancel`);
    const start = Date.UTC(2026, 10, 22, 18, 0, 0);

    const all = await call('GET', '/tickets?limit=2');
    assert.equal(all.statusCode, 200);
    assert.equal(all.headers['x-total-count'], '3');
    assert.deepEqual(
      all.json().map((ticket: { id: string }) => ticket.id),
      [third, second],
    );
    const pending = await call('GET', `/tickets?status=1&order_id=${orderId}`);
    assert.deepEqual(
      pending.json().map((ticket: { id: string }) => ticket.id),
      [second],
    );
    const window = await call('GET', `/tickets?from=${start + 1000}&to=${start + 1000}`);
    assert.deepEqual(
      window.json().map((ticket: { id: string }) => ticket.id),
      [second],
    );
    const none = await call('GET', '/tickets?status=2');
    assert.equal(none.statusCode, 204);
    assert.equal(none.headers['x-total-count'], '0');
    assert.equal((await call('GET', `/tickets?from=${start + 1}&to=${start}`)).statusCode, 400);
    assert.equal((await call('GET', '/tickets?status=4')).statusCode, 400);
    const empty = (await call('POST', '/orders', {})).json().id;
    assert.equal((await call('GET', `/orders/${empty}/tickets`)).statusCode, 204);
    assert.equal((await call('GET', `/orders/${UNKNOWN_ID}/tickets`)).statusCode, 404);
  });

  it('answers a retried bill with the first answer and bills once', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId } = await billableOrder(app, db);
    const key = { 'idempotency-key': 'bill-1' };
    const first = await call('POST', `/orders/${orderId}/tickets`, { amount: 20 }, key);
    const retry = await call('POST', `/orders/${orderId}/tickets`, { amount: 20 }, key);
    assert.equal(retry.statusCode, 201);
    assert.deepEqual(retry.json(), first.json());
    assert.equal((await db.selectFrom('tickets').selectAll().execute()).length, 1);
  });
});

describeEachDatabase('who reads bills and payments', (target) => {
  it('takes a payments or reports permission: the kitchen reads no bill, payment or receipt', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, admin, orderId } = await billableOrder(app, db, [1000]);
    const ticketId = await createBill(call, orderId, {});
    const paid = await call('POST', `/tickets/${ticketId}/payments`, { method: 'card', amount: 10 });
    assert.equal(paid.statusCode, 201, paid.body);
    const role = await admin('POST', '/roles', { name: 'bookkeeper', permissions: ['reports.read'] });
    assert.equal(role.statusCode, 201, role.body);
    const cook = callerFor(app, (await loggedInUser(app, db, 'kitchen')).cookies);
    const bookkeeper = callerFor(app, (await loggedInUser(app, db, 'bookkeeper')).cookies);
    const waiter = callerFor(app, (await loggedInUser(app, db, 'waiter')).cookies);
    for (const url of [
      '/tickets',
      `/tickets/${ticketId}`,
      `/tickets/${ticketId}/payments`,
      `/payments/${paid.json().id}`,
      `/tickets/${ticketId}/receipt`,
      `/orders/${orderId}/tickets`,
    ]) {
      const refused = await cook('GET', url);
      assert.deepEqual(
        [refused.statusCode, refused.json()],
        [403, { message: 'Unauthorized API access' }],
        url,
      );
      assert.equal((await bookkeeper('GET', url)).statusCode, 200, `reports.read: ${url}`);
      assert.equal((await waiter('GET', url)).statusCode, 200, `payments.take: ${url}`);
    }
  });
});
