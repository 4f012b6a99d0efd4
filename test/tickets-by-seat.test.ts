import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { createBill } from './helpers/checkout-factories';
import { databaseDigest } from './helpers/db-digest';
import { insertDish } from './helpers/factories';
import { type Caller, callerFor } from './helpers/orders-factories';

/** An order whose plates go to seats 2, 1, none, 2 and 1, at these prices in cents. */
async function seatedOrder(app: FastifyInstance, db: Parameters<typeof insertDish>[0]) {
  const { cookies } = await loggedInUser(app, db, 'staff');
  const call = callerFor(app, cookies);
  const dish = await insertDish(db);
  const plates: [number | null, number][] = [
    [2, 1000],
    [1, 2000],
    [null, 500],
    [2, 3000],
    [1, 250],
  ];
  const created = await call('POST', '/orders/with-dishes', {
    order: {},
    dishes: plates.map(([seat, cents]) => ({ dish_id: dish.id, price_at_order: cents / 100, seat })),
  });
  assert.equal(created.statusCode, 201, created.body);
  const orderId = created.json().id as string;
  const rows = await db
    .selectFrom('order_dishes')
    .select(['id', 'price_at_order_cents'])
    .where('order_id', '=', orderId)
    .execute();
  const idOf = (cents: number) =>
    rows.find((row) => Number(row.price_at_order_cents) === cents)?.id as string;
  return { call, cookies, orderId, idOf };
}

async function billsOf(call: Caller, ids: string[]) {
  const views = await Promise.all(ids.map((id) => call('GET', `/tickets/${id}`)));
  return views.map((view) => {
    const { subtotal, discount, total, order_dish_ids } = view.json();
    return { subtotal, discount, total, dishes: [...order_dish_ids].sort() };
  });
}

describeEachDatabase('bills by seat', (target) => {
  it('makes one bill per seat and one for the plates without a seat, seats in order', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId, idOf } = await seatedOrder(app, db);
    const response = await call('POST', `/orders/${orderId}/tickets`, { by_seat: true });
    assert.equal(response.statusCode, 201, response.body);
    const { id, ids, message } = response.json();
    assert.equal(message, 'Ticket created successfully');
    assert.equal(ids.length, 3);
    assert.equal(id, ids[0]);
    assert.deepEqual(await billsOf(call, ids), [
      { subtotal: 22.5, discount: 0, total: 22.5, dishes: [idOf(2000), idOf(250)].sort() },
      { subtotal: 40, discount: 0, total: 40, dishes: [idOf(1000), idOf(3000)].sort() },
      { subtotal: 5, discount: 0, total: 5, dishes: [idOf(500)] },
    ]);
    const order = await db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    assert.equal(Number(order.billed_cents), 6750);
    const listed = (await call('GET', `/orders/${orderId}/tickets`)).json();
    assert.deepEqual(
      listed.map((bill: { id: string }) => bill.id),
      ids,
      'the bills list in seat order',
    );
    const created = await db
      .selectFrom('events')
      .select('type')
      .where('type', '=', 'ticket.created')
      .execute();
    assert.equal(created.length, 3);

    const before = await databaseDigest(db);
    const again = await call('POST', `/orders/${orderId}/tickets`, { by_seat: true });
    assert.equal(again.statusCode, 400);
    assert.deepEqual(again.json(), { message: 'Nothing left to bill' });
    assert.equal(await databaseDigest(db), before);
  });

  it('bills by seat only the plates not yet on a bill, a percent discount on each bill', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId, idOf } = await seatedOrder(app, db);
    await createBill(call, orderId, { order_dish_ids: [idOf(2000), idOf(250)] });
    const { cookies } = await loggedInUser(app, db, 'admin');
    const admin = callerFor(app, cookies);
    const discount = { type: 'percent', value: 10, reason: 'Regular guests' };
    const response = await admin('POST', `/orders/${orderId}/tickets`, { by_seat: true, discount });
    assert.equal(response.statusCode, 201, response.body);
    assert.deepEqual(await billsOf(call, response.json().ids), [
      { subtotal: 40, discount: 4, total: 36, dishes: [idOf(1000), idOf(3000)].sort() },
      { subtotal: 5, discount: 0.5, total: 4.5, dishes: [idOf(500)] },
    ]);
  });

  it('refuses by_seat with dishes, an amount, an amount discount, or after a split by amount', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId, idOf } = await seatedOrder(app, db);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const admin = callerFor(app, cookies);
    const cases: [unknown, string][] = [
      [{ by_seat: true, order_dish_ids: [idOf(500)] }, 'Send by_seat without order_dish_ids or amount'],
      [{ by_seat: true, amount: 5 }, 'Send by_seat without order_dish_ids or amount'],
      [
        { by_seat: true, discount: { type: 'amount', value: 1, reason: 'Late' } },
        'Bills by seat take a percent discount only',
      ],
    ];
    const before = await databaseDigest(db);
    for (const [body, message] of cases) {
      const response = await admin('POST', `/orders/${orderId}/tickets`, body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      assert.deepEqual(response.json(), { message });
    }
    assert.equal(await databaseDigest(db), before);
    await createBill(call, orderId, { amount: 10 });
    const afterAmount = await call('POST', `/orders/${orderId}/tickets`, { by_seat: true });
    assert.equal(afterAmount.statusCode, 400);
    assert.deepEqual(afterAmount.json(), {
      message: 'After a split by amount the rest cannot be billed by seat',
    });
  });

  it('never bills a plate twice when two cashiers bill by seat at once', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies, orderId } = await seatedOrder(app, db);
    const { cookies: second } = await loggedInUser(app, db, 'staff');
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const responses = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const response = await fetch(`http://127.0.0.1:${port}/orders/${orderId}/tickets`, {
          method: 'POST',
          headers: { cookie: i % 2 ? cookies : second, 'content-type': 'application/json' },
          body: JSON.stringify({ by_seat: true }),
        });
        return {
          status: response.status,
          body: (await response.json()) as { ids?: string[]; message?: string },
        };
      }),
    );
    const made = responses.filter((response) => response.status === 201);
    assert.equal(made.length, 1, JSON.stringify(responses));
    for (const response of responses.filter((response) => response.status !== 201)) {
      assert.deepEqual(response, { status: 400, body: { message: 'Nothing left to bill' } });
    }
    const stored = await db.selectFrom('tickets').select('id').where('order_id', '=', orderId).execute();
    assert.deepEqual(stored.map((row) => row.id).sort(), [...(made[0]?.body.ids ?? [])].sort());
    const links = await db.selectFrom('ticket_dishes').select('order_dish_id').execute();
    assert.equal(new Set(links.map((row) => row.order_dish_id)).size, 5);
    assert.equal(links.length, 5);
  });
});
