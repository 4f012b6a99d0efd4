import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import type { Db } from '../src/core/db/database';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { insertDish, insertTable } from './helpers/factories';
import { tacoMenu } from './helpers/modifier-factories';
import { type Caller, callerFor } from './helpers/orders-factories';

const TABLES = 4;
const ORDERS = 4;

/**
 * What a busy floor does to a few tables, in any order: indexes name the run's tables, orders and
 * plates (taken modulo what exists), so every step is meaningful or a refusal the API must give
 * cleanly. A refusal is fine; a 5xx or a broken invariant is not.
 */
type Step =
  | { kind: 'open'; table: number | null; pricesCents: number[] }
  | { kind: 'add'; order: number; priceCents: number }
  | { kind: 'addTacos'; order: number; isFlour: boolean; extras: number[]; quantity: number }
  | { kind: 'move'; order: number; table: number }
  | { kind: 'merge'; into: number; from: number }
  | { kind: 'movePlates'; from: number; to: number; plates: number[] }
  | { kind: 'void'; order: number; plate: number }
  | { kind: 'bill'; order: number; byAmountCents: number | null };

const priceArb = fc.integer({ min: 1, max: 5000 });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('open' as const),
    table: fc.option(fc.nat({ max: TABLES - 1 }), { nil: null }),
    pricesCents: fc.array(priceArb, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ kind: fc.constant('add' as const), order: fc.nat(), priceCents: priceArb }),
  fc.record({
    kind: fc.constant('addTacos' as const),
    order: fc.nat(),
    isFlour: fc.boolean(),
    extras: fc.subarray([0, 1, 2], { maxLength: 2 }),
    quantity: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({ kind: fc.constant('move' as const), order: fc.nat(), table: fc.nat({ max: TABLES - 1 }) }),
  fc.record({ kind: fc.constant('merge' as const), into: fc.nat(), from: fc.nat() }),
  fc.record({
    kind: fc.constant('movePlates' as const),
    from: fc.nat(),
    to: fc.nat(),
    plates: fc.uniqueArray(fc.nat({ max: 5 }), { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ kind: fc.constant('void' as const), order: fc.nat(), plate: fc.nat() }),
  fc.record({
    kind: fc.constant('bill' as const),
    order: fc.nat(),
    byAmountCents: fc.option(fc.integer({ min: 1, max: 3000 }), { nil: null }),
  }),
);

/** Any answer but a server error: the floor's moves refuse with a 400 (or 404), never break. */
async function send(call: Caller, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) {
  const response = await call(method, url, body);
  assert.ok(response.statusCode < 500 && response.statusCode !== 403, `${method} ${url}: ${response.body}`);
  return response;
}

async function platesOf(call: Caller, orderId: string): Promise<{ id: string; status: string }[]> {
  const response = await call('GET', `/orders/${orderId}/dishes`);
  return response.statusCode === 200 ? response.json() : [];
}

/** How many moves of each kind succeeded in one engine's runs, so the property cannot pass on refusals alone. */
let succeeded = { move: 0, merge: 0, movePlates: 0 };

/**
 * Where the floor should be after the steps the API accepted, kept apart from the database: the order
 * each plate belongs to and the table each order sits at. A move or merge that answers 200 without
 * doing its work leaves the database behind the model.
 */
type FloorModel = { orderOfPlate: Map<string, string>; tableOfOrder: Map<string, string | null> };

/** The run's two dishes: a plain one whose price a step may override, and tacos with options. */
type Dishes = { plainId: string; tacosId: string; tortillas: string[]; extras: string[] };

async function runStep(
  call: Caller,
  step: Step,
  tables: string[],
  orders: string[],
  dishes: Dishes,
  model: FloorModel,
) {
  const added = (orderId: string, response: { statusCode: number; json: () => { ids: string[] } }) => {
    if (response.statusCode !== 201) return;
    for (const id of response.json().ids) model.orderOfPlate.set(id, orderId);
  };
  const dishId = dishes.plainId;
  const pick = <T>(list: T[], index: number) => list[index % list.length] as T;
  if (step.kind === 'open') {
    const tableId = step.table === null ? null : pick(tables, step.table);
    const response = await send(call, 'POST', '/orders/with-dishes', {
      order: { table_id: tableId },
      dishes: step.pricesCents.map((cents) => ({ dish_id: dishId, price_at_order: cents / 100 })),
    });
    if (response.statusCode !== 201) return;
    const orderId = response.json().id as string;
    orders.push(orderId);
    model.tableOfOrder.set(orderId, tableId);
    for (const plate of await platesOf(call, orderId)) model.orderOfPlate.set(plate.id, orderId);
    return;
  }
  if (orders.length === 0) return;
  switch (step.kind) {
    case 'add': {
      const orderId = pick(orders, step.order);
      const response = await send(call, 'POST', `/orders/${orderId}/dishes`, [
        { dish_id: dishId, price_at_order: step.priceCents / 100 },
      ]);
      added(orderId, response);
      return;
    }
    case 'addTacos': {
      const orderId = pick(orders, step.order);
      const response = await send(call, 'POST', `/orders/${orderId}/dishes`, [
        {
          dish_id: dishes.tacosId,
          modifiers: [
            pick(dishes.tortillas, step.isFlour ? 1 : 0),
            ...step.extras.map((index) => pick(dishes.extras, index)),
          ],
          quantity: step.quantity,
        },
      ]);
      added(orderId, response);
      return;
    }
    case 'move': {
      const [orderId, tableId] = [pick(orders, step.order), pick(tables, step.table)];
      const response = await send(call, 'POST', `/orders/${orderId}/move`, { table_id: tableId });
      if (response.statusCode !== 200) return;
      succeeded.move += 1;
      model.tableOfOrder.set(orderId, tableId);
      return;
    }
    case 'merge': {
      const [into, from] = [pick(orders, step.into), pick(orders, step.from)];
      const response = await send(call, 'POST', `/orders/${into}/merge`, { from_order_id: from });
      if (response.statusCode !== 200) return;
      succeeded.merge += 1;
      for (const [plate, orderId] of model.orderOfPlate) {
        if (orderId === from) model.orderOfPlate.set(plate, into);
      }
      return;
    }
    case 'movePlates': {
      const from = pick(orders, step.from);
      const plates = await platesOf(call, from);
      if (plates.length === 0) return;
      const ids = [...new Set(step.plates.map((index) => pick(plates, index).id))];
      const to = pick(orders, step.to);
      const response = await send(call, 'POST', `/orders/${from}/dishes/move`, {
        order_dish_ids: ids,
        to_order_id: to,
      });
      if (response.statusCode !== 200) return;
      succeeded.movePlates += 1;
      for (const id of ids) model.orderOfPlate.set(id, to);
      return;
    }
    case 'void': {
      const orderId = pick(orders, step.order);
      const plates = await platesOf(call, orderId);
      if (plates.length === 0) return;
      await send(call, 'POST', `/orders/${orderId}/send`);
      await send(call, 'PUT', `/orders/${orderId}/dishes/${pick(plates, step.plate).id}/status`, {
        status: 'voided',
        reason: 'Sent back',
      });
      return;
    }
    case 'bill':
      await send(
        call,
        'POST',
        `/orders/${pick(orders, step.order)}/tickets`,
        step.byAmountCents === null ? {} : { amount: step.byAmountCents / 100 },
      );
      return;
  }
}

/**
 * Totals are the sum of the live plates, each plate with options priced as its dish plus their deltas
 * wherever it moved; tables and open orders point at each other one to one.
 */
async function assertFloorInvariants(db: Db, tacosPriceCents: number): Promise<void> {
  const orders = await db.selectFrom('orders').selectAll().where('is_deleted', '=', 0).execute();
  const plates = await db.selectFrom('order_dishes').selectAll().execute();
  const choices = await db.selectFrom('order_dish_modifiers').selectAll().execute();
  for (const plate of plates) {
    const own = choices.filter((choice) => choice.order_dish_id === plate.id);
    if (own.length === 0) continue;
    const deltas = own.reduce((sum, choice) => sum + Number(choice.price_delta_cents), 0);
    assert.equal(Number(plate.price_at_order_cents), tacosPriceCents + deltas, `price of plate ${plate.id}`);
  }
  for (const order of orders) {
    const live = plates.filter((plate) => plate.order_id === order.id && plate.status !== 'voided');
    const sum = live.reduce((total, plate) => total + Number(plate.price_at_order_cents), 0);
    assert.equal(Number(order.total_cents), sum, `total of order ${order.id}`);
    assert.ok(Number(order.billed_cents) <= Number(order.total_cents), `bills of order ${order.id}`);
  }
  const open = orders.filter((order) => ['pending', 'preparing', 'ready'].includes(order.status));
  const tables = await db.selectFrom('dining_tables').selectAll().where('is_deleted', '=', 0).execute();
  for (const table of tables) {
    const seated = open.filter((order) => order.table_id === table.id);
    if (table.status === 'occupied') {
      assert.deepEqual(
        seated.map((order) => order.id),
        [table.order_id],
        `occupied table ${table.id}`,
      );
    } else {
      assert.deepEqual(seated, [], `${table.status} table ${table.id} holds no open order`);
      assert.equal(table.order_id, null);
    }
  }
}

/** Every plate on the order the model says, every order at the model's table. */
async function assertFloorMatchesModel(db: Db, model: FloorModel): Promise<void> {
  // Earlier runs' orders share the database: only this run's plates and orders are compared.
  const plates = (await db.selectFrom('order_dishes').select(['id', 'order_id']).execute()).filter(
    (plate) => model.orderOfPlate.has(plate.id) || model.tableOfOrder.has(plate.order_id),
  );
  assert.deepEqual(
    new Map(plates.map((plate) => [plate.id, plate.order_id])),
    model.orderOfPlate,
    'each plate is on the order the accepted steps put it on',
  );
  const orders = await db.selectFrom('orders').select(['id', 'table_id']).execute();
  assert.deepEqual(
    new Map(
      orders.filter((order) => model.tableOfOrder.has(order.id)).map((order) => [order.id, order.table_id]),
    ),
    model.tableOfOrder,
    'each order is at the table the accepted moves put it at',
  );
}

describeEachDatabase('floor moves (property)', (target) => {
  it('keeps totals and tables consistent through any adds (with options or not), moves, merges, plate moves, voids and bills', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const call = callerFor(app, (await loggedInUser(app, db, 'staff')).cookies);
    const dish = await insertDish(db, { priceCents: 1000 });
    const menu = await tacoMenu(call, db);
    const dishes: Dishes = {
      plainId: dish.id,
      tacosId: menu.tacos.id,
      tortillas: [menu.corn.id, menu.flour.id],
      extras: [menu.pineapple.id, menu.cheese.id, menu.noOnion.id],
    };
    succeeded = { move: 0, merge: 0, movePlates: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 15 }), async (steps) => {
        const tables: string[] = [];
        // The last table is reserved: a move must refuse it, an order opened there takes it.
        for (let index = 0; index < TABLES; index++) {
          tables.push((await insertTable(db, index === TABLES - 1 ? { status: 'reserved' } : {})).id);
        }
        const orders: string[] = [];
        // Two seated parties and a counter order to start from, so most steps have something to move.
        const opening: Step[] = [0, 1, null].map((table) => ({
          kind: 'open',
          table,
          pricesCents: [1000, 250],
        }));
        const model: FloorModel = { orderOfPlate: new Map(), tableOfOrder: new Map() };
        for (const step of [...opening, ...steps]) {
          if (orders.length >= ORDERS && step.kind === 'open') continue;
          await runStep(call, step, tables, orders, dishes, model);
          await assertFloorInvariants(db, menu.tacos.priceCents);
        }
        await assertFloorMatchesModel(db, model);
      }),
      {
        numRuns: 20,
        // One sequence known to move, merge and move plates (table 2 is free, the opening orders have
        // no bills), so the count below never rests on what the random runs happened to draw.
        examples: [
          [
            [
              { kind: 'addTacos', order: 0, isFlour: true, extras: [0, 1], quantity: 2 },
              { kind: 'move', order: 0, table: 2 },
              { kind: 'merge', into: 0, from: 1 },
              { kind: 'movePlates', from: 0, to: 2, plates: [0] },
            ],
          ],
        ],
      },
    );
    for (const [kind, count] of Object.entries(succeeded)) assert.ok(count > 0, `no ${kind} succeeded`);
  });
});
