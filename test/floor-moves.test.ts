import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app';
import { type Db, openDatabase } from '../src/core/db/database';
import { buildTestApp, describeEachDatabase, testConfig } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { createBill, storedEvents } from './helpers/checkout-factories';
import { insertDish, insertTable } from './helpers/factories';
import { withRowLockHeld } from './helpers/menu-factories';
import { type Caller, callerFor, ordersSnapshot, storedOrder, storedTable } from './helpers/orders-factories';

/** A waiter (who holds orders.move), an administrator to read the audit log, and a dish of 12.50. */
async function floor(app: FastifyInstance, db: Db) {
  const { cookies } = await loggedInUser(app, db, 'waiter');
  const admin = callerFor(app, (await loggedInUser(app, db, 'admin')).cookies);
  const dish = await insertDish(db, { priceCents: 1250 });
  return { call: callerFor(app, cookies), cookies, admin, dish };
}

/** An open order at a new table (or none), with plates at these prices in cents. */
async function seatedOrder(
  call: Caller,
  db: Db,
  dishId: string,
  options: { pricesCents?: number[]; tableId?: string | null; guests?: number } = {},
): Promise<{ orderId: string; tableId: string | null; dishIds: string[] }> {
  const tableId = options.tableId === undefined ? (await insertTable(db)).id : options.tableId;
  const created = await call('POST', '/orders/with-dishes', {
    order: { table_id: tableId, ...(options.guests !== undefined && { guests: options.guests }) },
    dishes: (options.pricesCents ?? [1250]).map(() => ({ dish_id: dishId })),
  });
  assert.equal(created.statusCode, 201, created.body);
  const orderId = created.json().id as string;
  const dishes = (await call('GET', `/orders/${orderId}/dishes`)).json() as { id: string }[];
  return { orderId, tableId, dishIds: dishes.map((dish) => dish.id) };
}

/** The 404 of an unknown path id is the project's bare text; every other refusal is JSON. */
function answerOf(response: { statusCode: number; body: string; json: () => unknown }) {
  return { status: response.statusCode, body: response.statusCode === 404 ? response.body : response.json() };
}

async function totalOf(call: Caller, orderId: string): Promise<number> {
  return (await call('GET', `/orders/${orderId}`)).json().total as number;
}

async function auditEntries(admin: Caller, action: string) {
  const response = await admin('GET', `/audit?action=${action}`);
  if (response.statusCode === 204) return [];
  assert.equal(response.statusCode, 200, response.body);
  return response.json() as { target_type: string; target_id: string; before: unknown; after: unknown }[];
}

async function eventTypesSince(db: Db, lastId: number) {
  return (await storedEvents(db)).filter((event) => event.id > lastId).map((event) => event.type);
}

async function lastEventId(db: Db): Promise<number> {
  return (await storedEvents(db)).at(-1)?.id ?? 0;
}

/** Every table points at the one open order seated at it, or at nothing when none is. */
async function assertTablesMatchOrders(db: Db): Promise<void> {
  const tables = await db.selectFrom('dining_tables').select(['id', 'status', 'order_id']).execute();
  const open = await db
    .selectFrom('orders')
    .select(['id', 'table_id'])
    .where('status', 'in', ['pending', 'preparing', 'ready'])
    .where('is_deleted', '=', 0)
    .where('table_id', 'is not', null)
    .execute();
  for (const table of tables) {
    const seated = open.filter((order) => order.table_id === table.id).map((order) => order.id);
    assert.ok(seated.length <= 1, `table ${table.id} holds ${seated.length} open orders`);
    if (seated.length === 1) assert.deepEqual(table, { ...table, status: 'occupied', order_id: seated[0] });
    else assert.equal(table.order_id, null, `table ${table.id} points at an order that does not hold it`);
  }
}

describeEachDatabase('guests of an order', (target) => {
  it('stores guests on create, update and with-dishes, and takes its own view back', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, admin, dish } = await floor(app, db);
    const created = await call('POST', '/orders', { guests: 4 });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().id as string;
    const view = (await call('GET', `/orders/${id}`)).json();
    assert.equal(view.guests, 4);
    assert.equal((await call('PUT', `/orders/${id}`, view)).statusCode, 200);
    assert.equal(
      (await admin('PUT', `/orders/${id}`, { waiter: 'Ana' })).json().message,
      'Order updated successfully',
    );
    assert.equal((await storedOrder(db, id)).guests, 4, 'a PUT without guests keeps them');
    assert.equal((await call('PUT', `/orders/${id}`, { guests: null })).statusCode, 200);
    assert.equal((await call('GET', `/orders/${id}`)).json().guests, null);
    const { orderId } = await seatedOrder(call, db, dish.id, { guests: 2 });
    assert.equal((await call('GET', `/orders/${orderId}/complete`)).json().order.guests, 2);
    // A spec-only client never sends it.
    const plain = await call('POST', '/orders', {});
    assert.equal((await call('GET', `/orders/${plain.json().id}`)).json().guests, null);
  });

  it('refuses guests outside 1–99 and changes nothing', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call } = await floor(app, db);
    const id = (await call('POST', '/orders', {})).json().id as string;
    const before = await ordersSnapshot(db);
    for (const guests of [0, 100, 2.5, '3']) {
      assert.equal((await call('POST', '/orders', { guests })).statusCode, 400, `${guests}`);
      assert.equal((await call('PUT', `/orders/${id}`, { guests })).statusCode, 400, `${guests}`);
    }
    assert.deepEqual(await ordersSnapshot(db), before);
  });
});

describeEachDatabase('moving a party to another table', (target) => {
  it('moves the open order, frees the old table, occupies the new one, with events and an audit entry', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, admin, dish } = await floor(app, db);
    const { orderId, tableId } = await seatedOrder(call, db, dish.id);
    const to = await insertTable(db);
    const since = await lastEventId(db);
    const moved = await call('POST', `/orders/${orderId}/move`, { table_id: to.id });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.equal(moved.json().table_id, to.id);
    assert.equal(moved.json().total, 12.5);
    assert.deepEqual(await storedTable(db, tableId as string), { status: 'available', order_id: null });
    assert.deepEqual(await storedTable(db, to.id), { status: 'occupied', order_id: orderId });
    assert.equal((await storedOrder(db, orderId)).table_id, to.id);
    assert.deepEqual(await eventTypesSince(db, since), ['order.updated', 'table.updated', 'table.updated']);
    const [entry] = await auditEntries(admin, 'order.moved');
    assert.deepEqual(
      { target: entry?.target_id, before: entry?.before, after: entry?.after },
      { target: orderId, before: { table_id: tableId }, after: { table_id: to.id } },
    );
  });

  it('takes the same permission and leaves the same audit entry when PUT /orders/{id} changes the table', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, admin, dish } = await floor(app, db);
    const { orderId, tableId } = await seatedOrder(call, db, dish.id);
    const to = await insertTable(db);
    assert.equal(
      (await admin('POST', '/roles', { name: 'host', permissions: ['orders.write'] })).statusCode,
      201,
    );
    const host = callerFor(app, (await loggedInUser(app, db, 'host')).cookies);
    const before = await ordersSnapshot(db);
    const refused = await host('PUT', `/orders/${orderId}`, { table_id: to.id });
    assert.deepEqual(answerOf(refused), { status: 403, body: { message: 'Unauthorized API access' } });
    assert.deepEqual(await ordersSnapshot(db), before);
    assert.equal((await host('PUT', `/orders/${orderId}`, { table_id: tableId, guests: 2 })).statusCode, 200);

    const since = await lastEventId(db);
    const moved = await call('PUT', `/orders/${orderId}`, { table_id: to.id });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.deepEqual(await storedTable(db, to.id), { status: 'occupied', order_id: orderId });
    assert.deepEqual(await eventTypesSince(db, since), ['order.updated', 'table.updated', 'table.updated']);
    const entries = await auditEntries(admin, 'order.moved');
    assert.deepEqual(
      entries.map((entry) => [entry.target_id, entry.before, entry.after]),
      [[orderId, { table_id: tableId }, { table_id: to.id }]],
    );
  });

  it('seats a counter order at a free table', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await floor(app, db);
    const { orderId } = await seatedOrder(call, db, dish.id, { tableId: null });
    const to = await insertTable(db);
    assert.equal((await call('POST', `/orders/${orderId}/move`, { table_id: to.id })).statusCode, 200);
    assert.deepEqual(await storedTable(db, to.id), { status: 'occupied', order_id: orderId });
  });

  it('refuses an occupied, reserved, unknown or the same table, and a closed order, changing nothing', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await floor(app, db);
    const { orderId, tableId } = await seatedOrder(call, db, dish.id);
    const other = await seatedOrder(call, db, dish.id);
    const reserved = await insertTable(db, { status: 'reserved' });
    const unknown = '00000000-0000-4000-8000-000000000000';
    const closed = (await call('POST', '/orders', { status: 'pending' })).json().id as string;
    await db.updateTable('orders').set({ status: 'completed' }).where('id', '=', closed).execute();
    const free = await insertTable(db);
    const before = await ordersSnapshot(db);
    const refusals: [string, unknown, number, unknown][] = [
      [orderId, other.tableId, 400, { message: 'Table is not free' }],
      [orderId, reserved.id, 400, { message: 'Table is not free' }],
      [orderId, tableId, 400, { message: 'The order is already at this table' }],
      [orderId, unknown, 400, { message: `Table with ID: ${unknown} not found` }],
      [closed, free.id, 400, { message: 'Cannot move a completed order' }],
      [unknown, free.id, 404, 'Resource not found'],
    ];
    for (const [id, tableIdSent, status, body] of refusals) {
      const response = await call('POST', `/orders/${id}/move`, { table_id: tableIdSent });
      assert.deepEqual(answerOf(response), { status, body });
    }
    assert.equal((await call('POST', `/orders/${orderId}/move`, {})).statusCode, 400);
    assert.deepEqual(await ordersSnapshot(db), before);
  });

  it('lets exactly one of two orders racing for one free table have it', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await floor(app, db);
    for (let round = 0; round < 10; round++) {
      const [first, second] = [await seatedOrder(call, db, dish.id), await seatedOrder(call, db, dish.id)];
      const free = await insertTable(db);
      const answers = await Promise.all(
        [first, second].map((order) => call('POST', `/orders/${order.orderId}/move`, { table_id: free.id })),
      );
      assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [200, 400], `round ${round}`);
      const refused = answers.find((answer) => answer.statusCode === 400);
      assert.deepEqual(refused?.json(), { message: 'Table is not free' });
      await assertTablesMatchOrders(db);
    }
  });

  it('settles two tablets moving the same party to different tables at once', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await floor(app, db);
    for (let round = 0; round < 10; round++) {
      const { orderId } = await seatedOrder(call, db, dish.id);
      const [one, two] = [await insertTable(db), await insertTable(db)];
      const answers = await Promise.all(
        [one, two].map((table) => call('POST', `/orders/${orderId}/move`, { table_id: table.id })),
      );
      // The second reads the table the first left the party at, and moves it on from there.
      assert.deepEqual(
        answers.map((answer) => answer.statusCode),
        [200, 200],
      );
      await assertTablesMatchOrders(db);
      const seated = (await storedOrder(db, orderId)).table_id;
      assert.ok(seated === one.id || seated === two.id);
    }
  });

  it('gives a free table to one order only when two app instances share the database', {
    skip: target.name !== 'postgres' && 'a second instance needs a database another pool can open',
  }, async (t) => {
    const { app, db, databaseUrl, clock } = await buildTestApp(t, target);
    const { call, cookies, dish } = await floor(app, db);
    const database = openDatabase(databaseUrl);
    const second = await buildApp(testConfig({ DATABASE_URL: databaseUrl }), {
      database,
      clock,
      startJobs: false,
    });
    t.after(async () => {
      await second.close();
      await database.close();
    });
    const onSecond = callerFor(second, cookies);
    for (let round = 0; round < 10; round++) {
      const [first, other] = [await seatedOrder(call, db, dish.id), await seatedOrder(call, db, dish.id)];
      const free = await insertTable(db);
      const answers = await Promise.all([
        call('POST', `/orders/${first.orderId}/move`, { table_id: free.id }),
        onSecond('POST', `/orders/${other.orderId}/move`, { table_id: free.id }),
      ]);
      assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [200, 400], `round ${round}`);
      await assertTablesMatchOrders(db);
    }
  });
});

describeEachDatabase('merging two orders', (target) => {
  it('moves every plate into the order, cancels the empty source and frees its table', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, admin, dish } = await floor(app, db);
    const into = await seatedOrder(call, db, dish.id, { guests: 2 });
    const from = await seatedOrder(call, db, dish.id, { pricesCents: [1250, 1250], guests: 3 });
    const since = await lastEventId(db);
    const merged = await call('POST', `/orders/${into.orderId}/merge`, { from_order_id: from.orderId });
    assert.equal(merged.statusCode, 200, merged.body);
    const body = merged.json();
    assert.equal(body.order.total, 37.5);
    assert.equal(body.order.guests, 5);
    assert.deepEqual(
      body.dishes.map((row: { id: string }) => row.id).sort(),
      [...into.dishIds, ...from.dishIds].sort(),
    );
    const source = await storedOrder(db, from.orderId);
    assert.deepEqual(
      { status: source.status, total: Number(source.total_cents) },
      { status: 'cancelled', total: 0 },
    );
    assert.equal(Number((await storedOrder(db, into.orderId)).total_cents), 3750);
    assert.deepEqual(await storedTable(db, from.tableId as string), { status: 'available', order_id: null });
    assert.deepEqual(await storedTable(db, into.tableId as string), {
      status: 'occupied',
      order_id: into.orderId,
    });
    assert.deepEqual((await eventTypesSince(db, since)).sort(), [
      'order.dishes_changed',
      'order.dishes_changed',
      'order.updated',
      'table.updated',
    ]);
    const [entry] = await auditEntries(admin, 'order.merged');
    assert.equal(entry?.target_id, into.orderId);
    assert.equal(
      (entry?.before as { from?: { order: { id: string } } } | undefined)?.from?.order.id,
      from.orderId,
    );
    await assertTablesMatchOrders(db);
  });

  it('refuses a source with bills, itself, an unknown or closed source, changing nothing', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await floor(app, db);
    const into = await seatedOrder(call, db, dish.id);
    const billed = await seatedOrder(call, db, dish.id);
    await createBill(call, billed.orderId);
    const done = await seatedOrder(call, db, dish.id);
    await db.updateTable('orders').set({ status: 'completed' }).where('id', '=', done.orderId).execute();
    const unknown = '00000000-0000-4000-8000-000000000000';
    const before = await ordersSnapshot(db);
    const refusals: [string, string, number, unknown][] = [
      [into.orderId, billed.orderId, 400, { message: 'Cannot merge an order that has bills' }],
      [into.orderId, into.orderId, 400, { message: 'Cannot merge an order with itself' }],
      [into.orderId, unknown, 400, { message: `Order with ID: ${unknown} not found` }],
      [into.orderId, done.orderId, 400, { message: 'Cannot merge a completed order' }],
      [done.orderId, into.orderId, 400, { message: 'Cannot merge into a completed order' }],
      [unknown, into.orderId, 404, 'Resource not found'],
    ];
    for (const [id, fromId, status, body] of refusals) {
      const response = await call('POST', `/orders/${id}/merge`, { from_order_id: fromId });
      assert.deepEqual(answerOf(response), { status, body }, `${id} ← ${fromId}`);
    }
    assert.deepEqual(await ordersSnapshot(db), before);
  });
});

describeEachDatabase('moving plates between orders', (target) => {
  it('moves the plates and both totals in one step, with events and an audit entry', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, admin, dish } = await floor(app, db);
    const from = await seatedOrder(call, db, dish.id, { pricesCents: [1250, 1250, 1250] });
    const to = await seatedOrder(call, db, dish.id);
    assert.equal((await call('POST', `/orders/${from.orderId}/send`)).statusCode, 200);
    const moving = from.dishIds.slice(0, 2);
    const since = await lastEventId(db);
    const moved = await call('POST', `/orders/${from.orderId}/dishes/move`, {
      order_dish_ids: moving,
      to_order_id: to.orderId,
    });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.deepEqual({ from: moved.json().from.total, to: moved.json().to.total }, { from: 12.5, to: 37.5 });
    assert.equal(await totalOf(call, from.orderId), 12.5);
    assert.equal(await totalOf(call, to.orderId), 37.5);
    const onTarget = (await call('GET', `/orders/${to.orderId}/dishes`)).json() as {
      id: string;
      status: string;
    }[];
    assert.deepEqual(
      onTarget.filter((row) => moving.includes(row.id)).map((row) => row.status),
      ['sent', 'sent'],
      'the kitchen keeps cooking them',
    );
    assert.deepEqual(await eventTypesSince(db, since), ['order.dishes_changed', 'order.dishes_changed']);
    const [entry] = await auditEntries(admin, 'dish.moved');
    assert.deepEqual(entry?.after, { order_id: to.orderId });
    assert.deepEqual(
      (entry?.before as { dishes?: { id: string }[] } | undefined)?.dishes?.map((row) => row.id),
      moving,
    );
  });

  it('refuses a billed plate, a foreign or voided plate, or a closed target, all or nothing', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, admin, dish } = await floor(app, db);
    const from = await seatedOrder(call, db, dish.id, { pricesCents: [1250, 1250, 1250] });
    const to = await seatedOrder(call, db, dish.id);
    const [free, billed, voided] = from.dishIds as [string, string, string];
    await createBill(call, from.orderId, { order_dish_ids: [billed] });
    await admin('POST', `/orders/${from.orderId}/send`);
    const voidUrl = `/orders/${from.orderId}/dishes/${voided}/status`;
    assert.equal((await admin('PUT', voidUrl, { status: 'voided', reason: 'Dropped' })).statusCode, 200);
    const done = await seatedOrder(call, db, dish.id);
    await db.updateTable('orders').set({ status: 'completed' }).where('id', '=', done.orderId).execute();
    const foreign = to.dishIds[0] as string;
    const before = await ordersSnapshot(db);
    const url = `/orders/${from.orderId}/dishes/move`;
    const refusals: [unknown, number, unknown][] = [
      [
        { order_dish_ids: [free, billed], to_order_id: to.orderId },
        400,
        `Order dish with ID: ${billed} is on a bill`,
      ],
      [
        { order_dish_ids: [free, foreign], to_order_id: to.orderId },
        400,
        `Order dish with ID: ${foreign} is not on this order`,
      ],
      [{ order_dish_ids: [voided], to_order_id: to.orderId }, 400, `Order dish with ID: ${voided} is voided`],
      [{ order_dish_ids: [free], to_order_id: done.orderId }, 400, 'Cannot move dishes to a completed order'],
      [{ order_dish_ids: [free], to_order_id: from.orderId }, 400, 'The dishes are already on this order'],
    ];
    for (const [body, status, message] of refusals) {
      const response = await call('POST', url, body);
      assert.deepEqual({ status: response.statusCode, body: response.json() }, { status, body: { message } });
    }
    assert.equal((await call('POST', url, { order_dish_ids: [], to_order_id: to.orderId })).statusCode, 400);
    assert.equal(
      (await call('POST', url, { order_dish_ids: [free, free], to_order_id: to.orderId })).statusCode,
      400,
    );
    assert.deepEqual(await ordersSnapshot(db), before);
  });

  it('refuses to take the order below what a bill split by amount claims', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await floor(app, db);
    const from = await seatedOrder(call, db, dish.id, { pricesCents: [1250, 1250] });
    const to = await seatedOrder(call, db, dish.id);
    await createBill(call, from.orderId, { amount: 20 });
    const before = await ordersSnapshot(db);
    const response = await call('POST', `/orders/${from.orderId}/dishes/move`, {
      order_dish_ids: [from.dishIds[0]],
      to_order_id: to.orderId,
    });
    assert.deepEqual(response.json(), {
      message: 'The order total would fall below its bills: cancel a bill first',
    });
    assert.deepEqual(await ordersSnapshot(db), before);
  });
});

/*
 * PostgreSQL runs the floor's moves side by side, so each move locks the orders it reads (lockOrders)
 * and the tables it changes (lockTables) before it decides. A connection of the test's own holds a
 * table row, which stops the first request exactly after it has taken its order locks; the second
 * request then either queues behind them or, without them, decides on what it read before the
 * first committed. Each test fails with its lock removed.
 */
describeEachDatabase('floor moves queued by their row locks', (target) => {
  const postgresOnly = {
    skip:
      target.name !== 'postgres' &&
      'row locks exist only on PostgreSQL; SQLite runs one transaction at a time',
  };
  /** A request started now (an inject chain runs only once something awaits it). */
  const started = (request: Promise<LightMyRequestResponse> | PromiseLike<LightMyRequestResponse>) =>
    Promise.resolve(request);

  /** Runs `first`, holds it at the source's table, then runs `second` against it; both answers. */
  async function raced(
    databaseUrl: string,
    heldTableId: string,
    first: () => PromiseLike<LightMyRequestResponse>,
    second: () => PromiseLike<LightMyRequestResponse>,
  ) {
    const requests: Promise<LightMyRequestResponse>[] = [];
    await withRowLockHeld(databaseUrl, 'dining_tables', heldTableId, async (_trx, untilWaiting) => {
      requests.push(started(first()));
      await untilWaiting(1, ...requests);
      requests.push(started(second()));
      await untilWaiting(2, ...requests);
    });
    return (await Promise.all(requests)).map(answerOf);
  }

  it('merges a source into only one of two orders merging it at once', postgresOnly, async (t) => {
    const { app, db, databaseUrl } = await buildTestApp(t, target);
    const { call, dish } = await floor(app, db);
    const first = await seatedOrder(call, db, dish.id);
    const second = await seatedOrder(call, db, dish.id);
    const source = await seatedOrder(call, db, dish.id, { pricesCents: [1250, 1250] });
    const answers = await raced(
      databaseUrl,
      source.tableId as string,
      () => call('POST', `/orders/${first.orderId}/merge`, { from_order_id: source.orderId }),
      () => call('POST', `/orders/${second.orderId}/merge`, { from_order_id: source.orderId }),
    );
    assert.equal(answers[0]?.status, 200);
    assert.deepEqual(answers[1], { status: 400, body: { message: 'Cannot merge a cancelled order' } });
    assert.equal(await totalOf(call, first.orderId), 37.5);
    assert.equal(await totalOf(call, second.orderId), 12.5);
    await assertTablesMatchOrders(db);
  });

  it('moves no plate off an order that is being merged away', postgresOnly, async (t) => {
    const { app, db, databaseUrl } = await buildTestApp(t, target);
    const { call, dish } = await floor(app, db);
    const into = await seatedOrder(call, db, dish.id);
    const other = await seatedOrder(call, db, dish.id);
    const source = await seatedOrder(call, db, dish.id, { pricesCents: [1250, 1250] });
    const answers = await raced(
      databaseUrl,
      source.tableId as string,
      () => call('POST', `/orders/${into.orderId}/merge`, { from_order_id: source.orderId }),
      () =>
        call('POST', `/orders/${source.orderId}/dishes/move`, {
          to_order_id: other.orderId,
          order_dish_ids: [source.dishIds[0]],
        }),
    );
    assert.equal(answers[0]?.status, 200);
    assert.deepEqual(answers[1], {
      status: 400,
      body: { message: 'Cannot move dishes of a cancelled order' },
    });
    assert.equal(await totalOf(call, into.orderId), 37.5);
    assert.equal(await totalOf(call, other.orderId), 12.5);
  });

  it('refuses to move a party to a table that is being reserved meanwhile', postgresOnly, async (t) => {
    const { app, db, databaseUrl } = await buildTestApp(t, target);
    const { call, dish } = await floor(app, db);
    const party = await seatedOrder(call, db, dish.id);
    const table = await insertTable(db);
    let move: Promise<LightMyRequestResponse> | undefined;
    // The reservation holds the table row: the move must read the table only once it is through.
    await withRowLockHeld(databaseUrl, 'dining_tables', table.id, async (trx, untilWaiting) => {
      await trx.updateTable('dining_tables').set({ status: 'reserved' }).where('id', '=', table.id).execute();
      move = started(call('POST', `/orders/${party.orderId}/move`, { table_id: table.id }));
      await untilWaiting(1, move);
    });
    assert.deepEqual(answerOf((await move) as LightMyRequestResponse), {
      status: 400,
      body: { message: 'Table is not free' },
    });
    assert.deepEqual(await storedTable(db, table.id), { status: 'reserved', order_id: null });
    assert.equal((await storedOrder(db, party.orderId)).table_id, party.tableId);
  });
});

describeEachDatabase('giving an order to another waiter', (target) => {
  it("takes a manager's permission, is refused once paid or completed, and is audited", async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, admin, dish } = await floor(app, db);
    const { orderId } = await seatedOrder(call, db, dish.id, { tableId: null });
    const other = await loggedInUser(app, db, 'waiter');
    const manager = callerFor(app, (await loggedInUser(app, db, 'manager')).cookies);
    const before = await ordersSnapshot(db);
    for (const body of [{ user_id: other.user.id }, { waiter: other.user.name }]) {
      const refused = await call('PUT', `/orders/${orderId}`, body);
      assert.deepEqual(answerOf(refused), { status: 403, body: { message: 'Unauthorized API access' } });
    }
    assert.deepEqual(await ordersSnapshot(db), before);
    const own = (await call('GET', `/orders/${orderId}`)).json();
    const same = await call('PUT', `/orders/${orderId}`, { user_id: own.user_id, waiter: own.waiter });
    assert.equal(same.statusCode, 200, 'sending the stored waiter reassigns nothing');

    const given = await manager('PUT', `/orders/${orderId}`, {
      user_id: other.user.id,
      waiter: other.user.name,
    });
    assert.equal(given.statusCode, 200, given.body);
    const [entry] = await auditEntries(admin, 'order.reassigned');
    assert.deepEqual(
      [entry?.target_id, entry?.before, entry?.after],
      [
        orderId,
        { user_id: own.user_id, waiter: own.waiter },
        { user_id: other.user.id, waiter: other.user.name },
      ],
    );

    const ticketId = await createBill(call, orderId, {});
    assert.equal(
      (await call('POST', `/tickets/${ticketId}/payments`, { method: 'card', amount: 5 })).statusCode,
      201,
    );
    const paid = await manager('PUT', `/orders/${orderId}`, { user_id: own.user_id });
    assert.deepEqual(answerOf(paid), {
      status: 400,
      body: { message: 'Cannot reassign an order with payments' },
    });
    const completed = await seatedOrder(call, db, dish.id, { tableId: null });
    for (const status of ['preparing', 'ready', 'completed']) {
      assert.equal((await call('PUT', `/orders/${completed.orderId}`, { status })).statusCode, 200);
    }
    const closed = await manager('PUT', `/orders/${completed.orderId}`, { waiter: 'Someone else' });
    assert.deepEqual(answerOf(closed), {
      status: 400,
      body: { message: 'Cannot reassign a completed order' },
    });
  });
});
