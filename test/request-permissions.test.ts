import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../src/core/db/database';
import { recordEvent } from '../src/events/record-event';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { databaseDigest } from './helpers/db-digest';
import { insertDish } from './helpers/factories';
import { type Caller, callerFor } from './helpers/orders-factories';
import { listeningTestApp, openStream } from './helpers/sse-client';

const REFUSED = { message: 'Unauthorized API access' };

async function as(app: FastifyInstance, db: Db, role: string): Promise<Caller> {
  return callerFor(app, (await loggedInUser(app, db, role)).cookies);
}

/** A role made by the administrator, for the permissions no seeded role holds apart. */
async function customRole(admin: Caller, name: string, permissions: string[]): Promise<void> {
  const created = await admin('POST', '/roles', { name, permissions });
  assert.equal(created.statusCode, 201, created.body);
}

/** Asserts the 403 of the guard and that the request stored nothing. */
async function assertRefused(db: Db, request: () => Promise<{ statusCode: number; json: () => unknown }>) {
  const before = await databaseDigest(db);
  const response = await request();
  assert.equal(response.statusCode, 403);
  assert.deepEqual(response.json(), REFUSED);
  assert.equal(await databaseDigest(db), before);
}

async function priceOverrides(admin: Caller) {
  const response = await admin('GET', '/audit?action=dish.price_overridden');
  if (response.statusCode === 204) return [];
  assert.equal(response.statusCode, 200, response.body);
  return (response.json() as { actor_name: string; before: unknown; after: unknown }[]).map(
    ({ actor_name, before, after }) => ({ actor_name, before, after }),
  );
}

describeEachDatabase('permissions that depend on the request', (target) => {
  it('refuses a waiter a price other than the menu’s on with-dishes, add and update, and takes the menu’s', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const waiter = await as(app, db, 'waiter');
    const admin = await as(app, db, 'admin');
    const dish = await insertDish(db, { priceCents: 1250 });

    await assertRefused(db, () =>
      waiter('POST', '/orders/with-dishes', {
        order: {},
        dishes: [{ dish_id: dish.id, price_at_order: 0.01 }],
      }),
    );
    // The menu's price, sent or not, is no override.
    const created = await waiter('POST', '/orders/with-dishes', {
      order: {},
      dishes: [{ dish_id: dish.id, price_at_order: 12.5 }, { dish_id: dish.id }],
    });
    assert.equal(created.statusCode, 201, created.body);
    const orderId = created.json().id as string;
    await assertRefused(db, () =>
      waiter('POST', `/orders/${orderId}/dishes`, [{ dish_id: dish.id, price_at_order: 1 }]),
    );
    const [first] = (await waiter('GET', `/orders/${orderId}/dishes`)).json() as { id: string }[];
    const dishUrl = `/orders/${orderId}/dishes/${first?.id}`;
    await assertRefused(db, () => waiter('PUT', dishUrl, { price_at_order: 5 }));
    // Re-sending the dish as it is, or changing only its notes, is no override either.
    assert.equal(
      (await waiter('PUT', dishUrl, { price_at_order: 12.5, notes: 'No onions' })).statusCode,
      200,
    );
    assert.equal((await waiter('GET', `/orders/${orderId}`)).json().total, 25);
    assert.deepEqual(await priceOverrides(admin), []);
  });

  it('lets a manager override prices, and writes each override to the audit log', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const manager = await as(app, db, 'manager');
    const admin = await as(app, db, 'admin');
    const dish = await insertDish(db, { priceCents: 1250 });
    const created = await manager('POST', '/orders/with-dishes', {
      order: {},
      dishes: [{ dish_id: dish.id, price_at_order: 10 }],
    });
    assert.equal(created.statusCode, 201, created.body);
    const orderId = created.json().id as string;
    const added = await manager('POST', `/orders/${orderId}/dishes`, [
      { dish_id: dish.id, price_at_order: 0 },
    ]);
    assert.equal(added.statusCode, 201, added.body);
    const [addedId] = added.json().ids as string[];
    const orderDishes = (await manager('GET', `/orders/${orderId}/dishes`)).json() as { id: string }[];
    const firstId = orderDishes.find((row) => row.id !== addedId)?.id;
    const updated = await manager('PUT', `/orders/${orderId}/dishes/${addedId}`, { price_at_order: 6 });
    assert.equal(updated.statusCode, 200, updated.body);
    assert.equal((await manager('GET', `/orders/${orderId}`)).json().total, 16);

    const entries = await priceOverrides(admin);
    const dishEntry = (id: string | undefined, price: number | null) => ({
      id,
      dish_id: dish.id,
      menu_price: 12.5,
      price_at_order: price,
    });
    // Newest first.
    assert.deepEqual(
      entries.map((entry) => entry.actor_name),
      Array(3).fill(entries[0]?.actor_name),
    );
    assert.deepEqual(
      entries.map(({ before, after }) => ({ before, after })),
      [
        { before: { dishes: [dishEntry(addedId, 0)] }, after: { dishes: [dishEntry(addedId, 6)] } },
        { before: null, after: { dishes: [dishEntry(addedId, 0)] } },
        { before: null, after: { dishes: [dishEntry(firstId, 10)] } },
      ],
    );
  });

  it('guards printers with printers.manage, not settings.write', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const admin = await as(app, db, 'admin');
    await customRole(admin, 'printer-tech', ['printers.manage']);
    await customRole(admin, 'office', ['settings.write']);
    const tech = await as(app, db, 'printer-tech');
    const office = await as(app, db, 'office');
    const printer = { name: 'Bar', host: '192.168.1.60', role: 'receipt' };

    const created = await tech('POST', '/printers', printer);
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().id as string;
    assert.equal((await tech('GET', '/printers')).statusCode, 200);
    assert.equal((await tech('PUT', `/printers/${id}`, { ...printer, name: 'Bar 2' })).statusCode, 200);
    assert.equal((await tech('GET', `/printers/${id}/jobs`)).statusCode, 204);
    await assertRefused(db, () => tech('PUT', '/settings', { business_name: 'Mine' }));

    for (const [method, url, body] of [
      ['GET', '/printers'],
      ['GET', `/printers/${id}`],
      ['POST', '/printers', { ...printer, name: 'Kitchen' }],
      ['PUT', `/printers/${id}`, printer],
      ['DELETE', `/printers/${id}`],
      ['GET', `/printers/${id}/jobs`],
    ] as const) {
      await assertRefused(db, () => office(method, url, body));
    }
    assert.equal((await office('PUT', '/settings', { business_name: 'La Esquina' })).statusCode, 200);
    assert.equal((await tech('DELETE', `/printers/${id}`)).statusCode, 200);
  });

  it('asks tickets.cancel too when cancelling an order cancels its pending bills', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const admin = await as(app, db, 'admin');
    await customRole(admin, 'closer', ['orders.write', 'orders.cancel', 'tickets.write']);
    const closer = await as(app, db, 'closer');
    const dish = await insertDish(db);
    const openOrder = async () => {
      const created = await admin('POST', '/orders/with-dishes', {
        order: {},
        dishes: [{ dish_id: dish.id }],
      });
      return created.json().id as string;
    };
    const billed = await openOrder();
    assert.equal((await admin('POST', `/orders/${billed}/tickets`, {})).statusCode, 201);
    await assertRefused(db, () => closer('PUT', `/orders/${billed}`, { status: 'cancelled' }));
    await assertRefused(db, () => closer('DELETE', `/orders/${billed}`));
    // Without bills, orders.cancel is enough.
    assert.equal(
      (await closer('PUT', `/orders/${await openOrder()}`, { status: 'cancelled' })).statusCode,
      200,
    );
    assert.equal((await closer('DELETE', `/orders/${await openOrder()}`)).statusCode, 200);
  });

  it('lets a waiter send the cancelled status of an order already cancelled, which cancels nothing', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const admin = await as(app, db, 'admin');
    const waiter = await as(app, db, 'waiter');
    const created = await waiter('POST', '/orders', {});
    const id = created.json().id as string;
    assert.equal((await admin('PUT', `/orders/${id}`, { status: 'cancelled' })).statusCode, 200);
    assert.equal((await waiter('PUT', `/orders/${id}`, { status: 'cancelled', guests: 2 })).statusCode, 200);
  });

  it("keeps the day's sales from the kitchen and serves them to reports.read", async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const kitchen = await as(app, db, 'kitchen');
    const manager = await as(app, db, 'manager');
    const url = '/orders/total-sales/2026-11-22';
    await assertRefused(db, () => kitchen('GET', url));
    const response = await manager('GET', url);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { date: '2026-11-22', total_sales: 0, orders_count: 0 });
  });
});

describeEachDatabase('GET /events payments topic', (target) => {
  it('refuses the payments topic to the kitchen, leaves it out of its default topics, and streams it to a cashier', async (t) => {
    const test = await listeningTestApp(t, target);
    const { cookies: kitchenCookies } = await loggedInUser(test.app, test.db, 'kitchen');
    const { cookies: cashierCookies } = await loggedInUser(test.app, test.db, 'cashier');
    const asked = await fetch(`${test.base}/events?topics=kitchen,payments`, {
      headers: { cookie: kitchenCookies },
    });
    assert.equal(asked.status, 403);
    assert.deepEqual(await asked.json(), REFUSED);

    const kitchen = await openStream(test.base, kitchenCookies);
    const cashier = await openStream(test.base, cashierCookies, '/events?topics=payments');
    assert.equal(kitchen.status, 200);
    assert.equal(cashier.status, 200);
    for (const stream of [kitchen, cashier]) await stream.until(() => stream.frames.length > 0);
    const at = test.clock.now();
    await recordEvent(test.db, { type: 'payment.settled', data: { amount: 60 }, at });
    await recordEvent(test.db, { type: 'dish.status_changed', data: { status: 'ready' }, at });
    await cashier.until(() => cashier.events().length === 1);
    await kitchen.until(() => kitchen.events().length === 1);
    assert.deepEqual(
      cashier.events().map((frame) => frame.event),
      ['payment.settled'],
    );
    // The payment came first: had the kitchen's stream carried it, it would be here before the dish.
    assert.deepEqual(
      kitchen.events().map((frame) => frame.event),
      ['dish.status_changed'],
    );
    for (const stream of [kitchen, cashier]) await stream.cancel();
  });
});

describeEachDatabase('bills on the live stream and in order views', (target) => {
  it("keeps bills from the kitchen and a display: no tickets topic (asked or replayed), and orders without their bills' money", async (t) => {
    const test = await listeningTestApp(t, target);
    const kitchenUser = await loggedInUser(test.app, test.db, 'kitchen');
    const displayUser = await loggedInUser(test.app, test.db, 'display');
    const { cookies: cashierCookies } = await loggedInUser(test.app, test.db, 'cashier');
    for (const cookie of [kitchenUser.cookies, displayUser.cookies]) {
      const asked = await fetch(`${test.base}/events?topics=orders,tickets`, { headers: { cookie } });
      assert.equal(asked.status, 403);
      assert.deepEqual(await asked.json(), REFUSED);
    }

    const at = test.clock.now();
    const order = {
      id: crypto.randomUUID(),
      total: 60,
      discount: 5,
      paid: 20,
      balance: 35,
      status: 'pending',
    };
    await recordEvent(test.db, { type: 'ticket.created', data: { total: 55, tips: 3, balance: 35 }, at });
    await recordEvent(test.db, { type: 'order.updated', data: order, at });
    await recordEvent(test.db, { type: 'order.dishes_changed', data: { order, dishes: [] }, at });

    // Replayed from the start (Last-Event-ID: 0), with the default topics.
    const kitchen = await openStream(test.base, kitchenUser.cookies, '/events', { 'last-event-id': '0' });
    const display = await openStream(test.base, displayUser.cookies, '/events', { 'last-event-id': '0' });
    const cashier = await openStream(test.base, cashierCookies, '/events', { 'last-event-id': '0' });
    for (const stream of [kitchen, display]) {
      await stream.until(() => stream.events().length === 2);
      assert.deepEqual(
        stream.events().map((frame) => frame.event),
        ['order.updated', 'order.dishes_changed'],
      );
      const [updated, changed] = stream.events().map((frame) => JSON.parse(frame.data as string).data);
      const { discount: _d, paid: _p, balance: _b, ...withoutBills } = order;
      assert.deepEqual(updated, withoutBills);
      assert.deepEqual(changed, { order: withoutBills, dishes: [] });
    }
    await cashier.until(() => cashier.events().length === 3);
    assert.deepEqual(JSON.parse(cashier.events()[1]?.data as string).data, order, 'as stored for the till');
    for (const stream of [kitchen, display, cashier]) await stream.cancel();
  });

  it('shows the kitchen an order without what its bills say, and the waiter with it', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const waiter = await as(app, db, 'waiter');
    const kitchen = await as(app, db, 'kitchen');
    const id = (await waiter('POST', '/orders', {})).json().id as string;
    const forWaiter = (await waiter('GET', `/orders/${id}`)).json();
    assert.deepEqual([forWaiter.paid, forWaiter.balance, forWaiter.discount], [0, 0, 0]);
    for (const url of [`/orders/${id}`, '/orders']) {
      const body = (await kitchen('GET', url)).json();
      const view = Array.isArray(body) ? body[0] : body;
      assert.equal(view.id, id);
      for (const field of ['paid', 'balance', 'discount'])
        assert.equal(field in view, false, `${url} ${field}`);
    }
    const complete = (await kitchen('GET', `/orders/${id}/complete`)).json();
    assert.equal('balance' in complete.order, false);
  });
});

describeEachDatabase('GET /events inventory topic', (target) => {
  it('refuses the inventory topic to a waiter, leaves it out of its default topics, and streams it to a manager', async (t) => {
    const test = await listeningTestApp(t, target);
    const { cookies: waiterCookies } = await loggedInUser(test.app, test.db, 'waiter');
    const { cookies: managerCookies } = await loggedInUser(test.app, test.db, 'manager');
    const asked = await fetch(`${test.base}/events?topics=inventory`, { headers: { cookie: waiterCookies } });
    assert.equal(asked.status, 403);
    assert.deepEqual(await asked.json(), REFUSED);

    const waiter = await openStream(test.base, waiterCookies);
    const manager = await openStream(test.base, managerCookies, '/events?topics=inventory');
    for (const stream of [waiter, manager]) await stream.until(() => stream.frames.length > 0);
    const at = test.clock.now();
    await recordEvent(test.db, { type: 'stock.low', data: { name: 'Cheese', stock: 0.4 }, at });
    await recordEvent(test.db, { type: 'dish.status_changed', data: { status: 'ready' }, at });
    await manager.until(() => manager.events().length === 1);
    await waiter.until(() => waiter.events().length === 1);
    assert.deepEqual(
      manager.events().map((frame) => frame.event),
      ['stock.low'],
    );
    assert.deepEqual(
      waiter.events().map((frame) => frame.event),
      ['dish.status_changed'],
    );
    for (const stream of [waiter, manager]) await stream.cancel();
  });
});
