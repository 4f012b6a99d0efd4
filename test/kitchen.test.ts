import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { insertDeliveryOrder } from './helpers/channel-factories';
import { billableOrder, createBill, storedEvents } from './helpers/checkout-factories';
import { insertDish } from './helpers/factories';
import { ordersSnapshot, storedOrder, storedOrderDishes } from './helpers/orders-factories';

describeEachDatabase('kitchen flow', (target) => {
  it('answers a send retried with the same Idempotency-Key with what the first try sent, and sends once', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId } = await billableOrder(app, db, [1000, 2000]);
    const key = { 'idempotency-key': 'send-table-4' };
    const first = await call('POST', `/orders/${orderId}/send`, {}, key);
    const retry = await call('POST', `/orders/${orderId}/send`, {}, key);
    assert.deepEqual([first.statusCode, first.json()], [200, { message: 'Dishes sent to kitchen', sent: 2 }]);
    assert.deepEqual([retry.statusCode, retry.json()], [200, first.json()]);
    assert.deepEqual(
      (await storedOrderDishes(db, orderId)).map((row) => row.status),
      ['sent', 'sent'],
    );
    // Another key is another tap: nothing is left to send.
    const again = await call('POST', `/orders/${orderId}/send`, {}, { 'idempotency-key': 'send-again' });
    assert.equal(again.json().sent, 0);
  });

  it('sends the pending dishes, moves one to ready and shows it in the views and queue', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId, dishIds } = await billableOrder(app, db, [1000, 2000]);
    const sent = await call('POST', `/orders/${orderId}/send`);
    assert.equal(sent.statusCode, 200);
    assert.deepEqual(sent.json(), { message: 'Dishes sent to kitchen', sent: 2 });
    assert.deepEqual((await call('POST', `/orders/${orderId}/send`)).json().sent, 0);
    const stored = await storedOrderDishes(db, orderId);
    assert.deepEqual(
      stored.map((row) => row.status),
      ['sent', 'sent'],
    );
    const [first] = dishIds as [string];
    for (const status of ['preparing', 'ready']) {
      const moved = await call('PUT', `/orders/${orderId}/dishes/${first}/status`, { status });
      assert.equal(moved.statusCode, 200, moved.body);
    }
    const queue = (await call('GET', '/kitchen/queue?station=kitchen')).json();
    assert.deepEqual(
      queue.map((item: { id: string; status: string }) => [item.id, item.status]).sort(),
      [
        [first, 'ready'],
        [dishIds[1], 'sent'],
      ].sort(),
    );
    assert.equal(queue[0].order_id, orderId);
    // The plate's menu dish, for the screen's 86 button: by id, as two dishes may share a name.
    assert.deepEqual(
      queue.map((item: { id: string; dish_id: string }) => [item.id, item.dish_id]).sort(),
      stored.map((row) => [row.id, row.dish_id]).sort(),
    );
    assert.equal((await call('GET', '/kitchen/queue?station=bar')).json().length, 0);
    const view = (await call('GET', `/orders/${orderId}/dishes`))
      .json()
      .find((dish: { id: string }) => dish.id === first);
    assert.equal(view.status, 'ready');
    assert.equal(view.station, 'kitchen');
    assert.equal(typeof view.dish_name, 'string');
    assert.notEqual(view.ready_at, null);
    const events = (await storedEvents(db)).filter((event) => event.type === 'dish.status_changed');
    assert.deepEqual(events.at(-1)?.payload.data, view);
  });

  it("shows a delivery order's platform, code and customer, its plates by when the courier comes", async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const { call, admin, orderId } = await billableOrder(app, db, [1000]);
    assert.equal((await call('POST', `/orders/${orderId}/send`)).statusCode, 200);
    const tacos = await insertDish(db, { name: 'Tacos al pastor' });
    const sentAt = clock.now();
    clock.advance(10_000);
    // Taken in later but due sooner: the Rappi courier comes ten minutes before Uber's.
    const uber = await insertDeliveryOrder(db, clock.now(), {
      channel: 'ubereats',
      code: 'A7F3C',
      customer: 'Lucía',
      pickupAt: sentAt + 30 * 60_000,
      lines: [{ dishId: tacos.id, name: 'Tacos al pastor', quantity: 2 }],
    });
    clock.advance(10_000);
    const rappi = await insertDeliveryOrder(db, clock.now(), {
      channel: 'rappi',
      code: '991122',
      customer: 'Jorge',
      pickupAt: sentAt + 20 * 60_000,
      lines: [{ dishId: tacos.id, name: 'Tacos al pastor' }],
    });
    for (const id of [uber, rappi]) {
      const accepted = await admin('POST', `/orders/${id}/accept`);
      assert.equal(accepted.statusCode, 200, accepted.body);
    }

    const queue = (await call('GET', '/kitchen/queue')).json() as Record<string, unknown>[];
    assert.deepEqual(
      queue.map((item) => [item.order_id, item.channel, item.channel_code, item.customer_first_name]),
      [
        [orderId, 'dine_in', null, null],
        [rappi, 'rappi', '991122', 'Jorge'],
        [uber, 'ubereats', 'A7F3C', 'Lucía'],
        [uber, 'ubereats', 'A7F3C', 'Lucía'],
      ],
    );
    assert.equal(queue[0]?.pickup_at, null);
    assert.equal(queue[1]?.pickup_at, new Date(sentAt + 20 * 60_000).toISOString());
    assert.equal(queue[1]?.table_name, null);
  });

  it('refuses a move out of order with the 400 and changes nothing', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId, dishIds } = await billableOrder(app, db, [1000]);
    const before = await ordersSnapshot(db);
    const eventsBefore = await storedEvents(db);
    const refused = await call('PUT', `/orders/${orderId}/dishes/${dishIds[0]}/status`, { status: 'ready' });
    assert.equal(refused.statusCode, 400);
    assert.deepEqual(refused.json(), { message: 'Invalid dish status transition from pending to ready' });
    assert.deepEqual(await ordersSnapshot(db), before);
    assert.deepEqual(await storedEvents(db), eventsBefore);
  });

  it('voids with a reason and takes the price off the total; a billed dish is frozen', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId, dishIds } = await billableOrder(app, db, [1000, 2000, 3000]);
    const [a, b, c] = dishIds as [string, string, string];
    const noReason = await call('PUT', `/orders/${orderId}/dishes/${a}/status`, { status: 'voided' });
    assert.equal(noReason.statusCode, 400);
    const voided = await call('PUT', `/orders/${orderId}/dishes/${a}/status`, {
      status: 'voided',
      reason: 'Sent back',
    });
    assert.equal(voided.statusCode, 200, voided.body);
    assert.equal(Number((await storedOrder(db, orderId)).total_cents), 5000);
    assert.equal((await call('GET', `/orders/${orderId}`)).json().total, 50);
    await createBill(call, orderId, { order_dish_ids: [b] });
    const billed = await call('PUT', `/orders/${orderId}/dishes/${b}/status`, {
      status: 'voided',
      reason: 'x',
    });
    assert.equal(billed.statusCode, 400);
    assert.deepEqual(billed.json(), { message: 'Dish is on a bill' });
    const voidedAgain = await call('PUT', `/orders/${orderId}/dishes/${a}/status`, { status: 'sent' });
    assert.deepEqual(voidedAgain.json(), { message: 'Invalid dish status transition from voided to sent' });
    // A bill split by amount covers money, not dishes: voiding may not drop the total below it.
    await createBill(call, orderId, { amount: 30 });
    const below = await call('PUT', `/orders/${orderId}/dishes/${c}/status`, {
      status: 'voided',
      reason: 'x',
    });
    assert.equal(below.statusCode, 400);
    assert.equal(Number((await storedOrder(db, orderId)).total_cents), 5000);
  });

  it('two screens advancing one dish at once: one wins, the other gets the 400', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies, orderId, dishIds } = await billableOrder(app, db, [1000]);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const put = () =>
      fetch(`http://127.0.0.1:${port}/orders/${orderId}/dishes/${dishIds[0]}/status`, {
        method: 'PUT',
        headers: { cookie: cookies, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'sent' }),
      }).then(async (response) => ({ status: response.status, body: await response.json() }));
    const results = await Promise.all([put(), put()]);
    assert.deepEqual(results.map((result) => result.status).sort(), [200, 400]);
    assert.deepEqual(results.find((result) => result.status === 400)?.body, {
      message: 'Invalid dish status transition from sent to sent',
    });
    const events = (await storedEvents(db)).filter((event) => event.type === 'dish.status_changed');
    assert.equal(events.length, 1);
  });
});
