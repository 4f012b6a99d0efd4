import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { Db } from '../src/core/db/database';
import { inLockOrder } from '../src/inventory/stock.repo';
import { moveStock } from '../src/inventory/stock.service';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { databaseDigest } from './helpers/db-digest';
import { insertCategory } from './helpers/factories';
import { fireConcurrently, withRowLockHeld } from './helpers/menu-factories';
import { type Caller, callerFor } from './helpers/orders-factories';

type Movement = {
  item_type: string;
  item_id: string;
  delta: number;
  reason: string;
  order_dish_id: string | null;
};

/** A taco stand's stock: cheese in kg, tortillas in pieces (kg too, for the decimals), cola bottles. */
async function stockedMenu(call: Caller, db: Db) {
  const pantry = await insertCategory(db, { type: 'ingredient', name: 'Pantry' });
  const drinks = await insertCategory(db, { type: 'product', name: 'Drinks' });
  const mains = await insertCategory(db, { type: 'dish', name: 'Mains' });
  const create = async (path: string, body: object) => {
    const response = await call('POST', path, body);
    assert.equal(response.statusCode, 201, response.body);
    return response.json().id as string;
  };
  const cheese = await create('/ingredients', {
    name: 'Cheese',
    category_id: pantry.id,
    quantity: 1,
    unit: 'kg',
    reorder_level: 0.5,
  });
  const tortilla = await create('/ingredients', {
    name: 'Tortilla',
    category_id: pantry.id,
    quantity: 40,
    unit: 'pc',
  });
  const cola = await create('/products', {
    name: 'Cola',
    sku: 'COLA',
    price: 25,
    quantity: 12,
    category_id: drinks.id,
  });
  const extras = await create('/modifier-groups', {
    name: 'Extras',
    min_select: 0,
    max_select: 1,
    options: [{ name: 'Extra cheese', price_delta: 10, recipe: [{ ingredient_id: cheese, quantity: 0.03 }] }],
  });
  const extraCheese = (await call('GET', `/modifier-groups/${extras}`)).json().options[0].id as string;
  const quesadilla = await create('/dishes', {
    name: 'Quesadilla',
    price: 40,
    category_id: mains.id,
    modifier_group_ids: [extras],
    recipe: [
      { ingredient_id: cheese, quantity: 0.05 },
      { ingredient_id: tortilla, quantity: 2 },
    ],
  });
  const combo = await create('/dishes', {
    name: 'Combo',
    price: 60,
    category_id: mains.id,
    recipe: [
      { ingredient_id: tortilla, quantity: 1 },
      { product_id: cola, quantity: 1 },
    ],
  });
  return {
    cheese,
    tortilla,
    cola,
    extras,
    extraCheese,
    quesadilla,
    combo,
    mains: mains.id,
    pantry: pantry.id,
  };
}

describeEachDatabase('inventory that moves', (target) => {
  const postgresOnly = {
    skip:
      target.name !== 'postgres' &&
      'row locks exist only on PostgreSQL; SQLite runs one transaction at a time',
  };
  async function setup(t: Parameters<typeof buildTestApp>[0]) {
    const testApp = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(testApp.app, testApp.db, 'manager');
    const call = callerFor(testApp.app, cookies);
    const menu = await stockedMenu(call, testApp.db);
    return { ...testApp, cookies, call, menu };
  }

  async function stockOf(call: Caller, path: string, id: string): Promise<number> {
    return (await call('GET', `${path}/${id}`)).json().quantity;
  }

  async function sentOrder(call: Caller, dishes: object[]): Promise<{ orderId: string; ids: string[] }> {
    const { id: orderId } = (await call('POST', '/orders', {})).json();
    const added = await call('POST', `/orders/${orderId}/dishes`, dishes);
    assert.equal(added.statusCode, 201, added.body);
    const sent = await call('POST', `/orders/${orderId}/send`, {});
    assert.equal(sent.statusCode, 200, sent.body);
    return { orderId, ids: added.json().ids };
  }

  async function movementsOf(db: Db, itemId: string): Promise<Movement[]> {
    const rows = await db
      .selectFrom('stock_movements')
      .selectAll()
      .where('item_id', '=', itemId)
      .orderBy('seq')
      .execute();
    return rows.map((row) => ({
      item_type: row.item_type,
      item_id: row.item_id,
      delta: Number(row.delta),
      reason: row.reason,
      order_dish_id: row.order_dish_id,
    }));
  }

  /** The invariant the database holds: stock is the sum of the item's movements, and each one's stock_after chains. */
  async function assertStockIsItsMovements(db: Db, table: 'ingredients' | 'products', id: string) {
    const item = await db
      .selectFrom(table)
      .select(['stock', 'stock_moves'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const rows = await db
      .selectFrom('stock_movements')
      .selectAll()
      .where('item_id', '=', id)
      .orderBy('seq')
      .execute();
    let running = 0;
    for (const [index, row] of rows.entries()) {
      assert.equal(Number(row.seq), index + 1);
      running += Number(row.delta);
      assert.equal(Number(row.stock_after), running);
    }
    assert.equal(Number(item.stock), running);
    assert.equal(Number(item.stock_moves), rows.length);
  }

  it('keeps ingredient quantities exact in thousandths and refuses a fourth decimal, changing nothing', async (t) => {
    const { db, call, menu } = await setup(t);
    const stored = await db
      .selectFrom('ingredients')
      .select('stock')
      .where('id', '=', menu.cheese)
      .executeTakeFirstOrThrow();
    assert.equal(Number(stored.stock), 1000);
    const digest = await databaseDigest(db);
    const body = { name: 'Salt', category_id: menu.pantry, quantity: 1.2345, unit: 'kg' };
    const refused = await call('POST', '/ingredients', body);
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body, /must have at most 3 decimals/);
    const tooFine = await call('POST', '/inventory/movements', {
      item_type: 'ingredient',
      item_id: menu.cheese,
      delta: 0.0001,
      reason: 'receiving',
    });
    assert.equal(tooFine.statusCode, 400);
    assert.deepEqual(await databaseDigest(db), digest);
    // An edit of the quantity is an adjustment movement, not an overwrite.
    const current = (await call('GET', `/ingredients/${menu.cheese}`)).json();
    assert.equal(
      (await call('PUT', `/ingredients/${menu.cheese}`, { ...current, quantity: 1.25 })).statusCode,
      200,
    );
    assert.deepEqual(
      (await movementsOf(db, menu.cheese)).map((movement) => [movement.reason, movement.delta]),
      [
        ['count', 1000],
        ['adjustment', 250],
      ],
    );
    await assertStockIsItsMovements(db, 'ingredients', menu.cheese);
  });

  it('shows recipes, refuses items that are not live, and keeps an item a live recipe uses', async (t) => {
    const { db, call, menu } = await setup(t);
    const dish = (await call('GET', `/dishes/${menu.quesadilla}`)).json();
    assert.deepEqual(dish.recipe, [
      { ingredient_id: menu.cheese, quantity: 0.05 },
      { ingredient_id: menu.tortilla, quantity: 2 },
    ]);
    assert.equal(dish.out_of_stock, false);
    const group = (await call('GET', `/modifier-groups/${menu.extras}`)).json();
    assert.deepEqual(group.options[0].recipe, [{ ingredient_id: menu.cheese, quantity: 0.03 }]);

    const digest = await databaseDigest(db);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const refused = await call('PUT', `/dishes/${menu.quesadilla}`, {
      ...dish,
      recipe: [{ product_id: unknown, quantity: 1 }],
    });
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.json().message, 'Recipe items must be live ingredients or products');
    const twice = await call('PUT', `/dishes/${menu.quesadilla}`, {
      ...dish,
      recipe: [
        { ingredient_id: menu.cheese, quantity: 1 },
        { ingredient_id: menu.cheese, quantity: 2 },
      ],
    });
    assert.equal(twice.statusCode, 400);
    const inUse = await call('DELETE', `/ingredients/${menu.tortilla}`);
    assert.equal(inUse.statusCode, 400);
    assert.deepEqual(inUse.json(), { message: 'Item is used by a recipe' });
    assert.deepEqual(await databaseDigest(db), digest);

    // A PUT without a recipe keeps it; once no live dish uses the cola, it can go.
    assert.equal(
      (
        await call('PUT', `/dishes/${menu.quesadilla}`, {
          name: 'Quesadilla',
          price: 45,
          category_id: menu.mains,
        })
      ).statusCode,
      200,
    );
    assert.equal((await call('GET', `/dishes/${menu.quesadilla}`)).json().recipe.length, 2);
    assert.equal((await call('DELETE', `/products/${menu.cola}`)).statusCode, 400);
    assert.equal((await call('DELETE', `/dishes/${menu.combo}`)).statusCode, 200);
    assert.equal((await call('DELETE', `/products/${menu.cola}`)).statusCode, 200);
  });

  it('takes stock when plates are sent, not when added, one sale movement per plate and item', async (t) => {
    const { db, call, menu } = await setup(t);
    const { id: orderId } = (await call('POST', '/orders', {})).json();
    await call('POST', `/orders/${orderId}/dishes`, [
      { dish_id: menu.quesadilla, modifiers: [menu.extraCheese], quantity: 2 },
      { dish_id: menu.combo },
    ]);
    assert.equal(await stockOf(call, '/ingredients', menu.cheese), 1);
    assert.equal((await call('POST', `/orders/${orderId}/send`, {})).statusCode, 200);
    // 2 × (0.05 + 0.03) kg of cheese, exactly.
    assert.equal(await stockOf(call, '/ingredients', menu.cheese), 0.84);
    assert.equal(await stockOf(call, '/ingredients', menu.tortilla), 35);
    assert.equal(await stockOf(call, '/products', menu.cola), 11);
    const sales = (await movementsOf(db, menu.cheese)).filter((movement) => movement.reason === 'sale');
    assert.deepEqual(
      sales.map((movement) => movement.delta),
      [-80, -80],
    );
    assert.equal(new Set(sales.map((movement) => movement.order_dish_id)).size, 2);
    for (const [table, id] of [
      ['ingredients', menu.cheese],
      ['ingredients', menu.tortilla],
      ['products', menu.cola],
    ] as const) {
      await assertStockIsItsMovements(db, table, id);
    }
    const moved = (
      await db.selectFrom('events').select(['topic', 'payload']).where('type', '=', 'stock.moved').execute()
    )
      .map((event) => ({ topic: event.topic, data: JSON.parse(event.payload).data }))
      .filter((event) => event.data.reason === 'sale');
    // One announcement per item and send, with the send's total.
    assert.deepEqual(
      moved.map((event) => [event.topic, event.data.name, event.data.delta, event.data.stock]).sort(),
      [
        ['inventory', 'Cheese', -0.16, 0.84],
        ['inventory', 'Cola', -1, 11],
        ['inventory', 'Tortilla', -5, 35],
      ],
    );
  });

  it('puts stock back for a plate voided before preparing, and not after', async (t) => {
    const { db, call, menu } = await setup(t);
    const { orderId, ids } = await sentOrder(call, [{ dish_id: menu.quesadilla, quantity: 2 }]);
    const [first, second] = ids as [string, string];
    assert.equal(await stockOf(call, '/ingredients', menu.tortilla), 36);
    const voided = await call('PUT', `/orders/${orderId}/dishes/${first}/status`, {
      status: 'voided',
      reason: 'Wrong table',
    });
    assert.equal(voided.statusCode, 200, voided.body);
    assert.equal(await stockOf(call, '/ingredients', menu.tortilla), 38);
    assert.equal(
      (await call('PUT', `/orders/${orderId}/dishes/${second}/status`, { status: 'preparing' })).statusCode,
      200,
    );
    assert.equal(
      (await call('PUT', `/orders/${orderId}/dishes/${second}/status`, { status: 'voided', reason: 'Burnt' }))
        .statusCode,
      200,
    );
    assert.equal(await stockOf(call, '/ingredients', menu.tortilla), 38);
    assert.deepEqual(
      (await movementsOf(db, menu.tortilla)).map((movement) => [movement.reason, movement.delta]),
      [
        ['count', 40_000],
        ['sale', -2000],
        ['sale', -2000],
        ['void', 2000],
      ],
    );
    await assertStockIsItsMovements(db, 'ingredients', menu.tortilla);

    // Taking a sent plate off the order is a void too.
    const other = await sentOrder(call, [{ dish_id: menu.combo }]);
    assert.equal(await stockOf(call, '/products', menu.cola), 11);
    const removed = await call('DELETE', `/orders/${other.orderId}/dishes/${other.ids[0]}`);
    assert.equal(removed.statusCode, 200, removed.body);
    assert.equal(await stockOf(call, '/products', menu.cola), 12);
    await assertStockIsItsMovements(db, 'products', menu.cola);
  });

  it('takes a dish off the menu when an item runs out and brings it back with a delivery, unless 86d by hand', async (t) => {
    const { app, db, call, cookies, menu } = await setup(t);
    // 1 kg of cheese, 0.08 kg a plate with extra cheese: the 13th plate takes it to -0.04.
    await sentOrder(call, [{ dish_id: menu.quesadilla, modifiers: [menu.extraCheese], quantity: 13 }]);
    assert.equal(await stockOf(call, '/ingredients', menu.cheese), -0.04);
    const board = (await call('GET', '/menu')).json();
    const dishes = board.categories.flatMap((category: { dishes: object[] }) => category.dishes);
    const quesadilla = dishes.find((dish: { id: string }) => dish.id === menu.quesadilla);
    assert.equal(quesadilla.available, false);
    assert.equal(quesadilla.out_of_stock, true);
    assert.equal(quesadilla.modifier_groups[0].options[0].available, false);
    assert.equal(dishes.find((dish: { id: string }) => dish.id === menu.combo).available, true);
    const { id: orderId } = (await call('POST', '/orders', {})).json();
    const refused = await call('POST', `/orders/${orderId}/dishes`, [{ dish_id: menu.quesadilla }]);
    assert.equal(refused.statusCode, 400);
    assert.deepEqual(refused.json(), { message: 'Dish is not available: Quesadilla' });
    const events = async () =>
      (
        await db
          .selectFrom('events')
          .select('payload')
          .where('type', '=', 'dish.availability_changed')
          .orderBy('id')
          .execute()
      ).map((row) => JSON.parse(row.payload).data);
    assert.deepEqual(await events(), [
      { dish_id: menu.quesadilla, available: false, reason: 'out_of_stock' },
      { option_id: menu.extraCheese, group_id: menu.extras, available: false, reason: 'out_of_stock' },
    ]);
    const lowEvents = await db
      .selectFrom('events')
      .select('payload')
      .where('type', '=', 'stock.low')
      .execute();
    assert.equal(lowEvents.length, 1);
    assert.equal(JSON.parse(lowEvents[0]?.payload ?? '{}').data.item_id, menu.cheese);

    // The 86 by hand outlasts the delivery; the option returns by itself.
    assert.equal(
      (await call('PUT', `/dishes/${menu.quesadilla}/availability`, { available: false })).statusCode,
      200,
    );
    const delivery = await call('POST', '/inventory/movements', {
      item_type: 'ingredient',
      item_id: menu.cheese,
      delta: 2.5,
      reason: 'receiving',
      note: 'Monday delivery',
    });
    assert.equal(delivery.statusCode, 201, delivery.body);
    assert.equal(delivery.json().message, 'Stock movement recorded');
    // The tablet lost that answer and retries with its key: one delivery, the same answer.
    const retry = () =>
      app.inject({
        method: 'POST',
        url: '/inventory/movements',
        headers: { cookie: cookies, 'idempotency-key': 'delivery-42' },
        payload: { item_type: 'ingredient', item_id: menu.cheese, delta: 2.5, reason: 'receiving' },
      });
    const first = await retry();
    assert.equal(first.statusCode, 201);
    assert.deepEqual((await retry()).json(), first.json());
    await call('POST', '/inventory/movements', {
      item_type: 'ingredient',
      item_id: menu.cheese,
      delta: -2.5,
      reason: 'adjustment',
    });
    const after = (await call('GET', `/dishes/${menu.quesadilla}`)).json();
    assert.equal(after.out_of_stock, false);
    assert.equal(after.available, false);
    assert.equal(
      (await call('GET', `/modifier-groups/${menu.extras}`)).json().options[0].out_of_stock,
      false,
    );
    assert.equal(await stockOf(call, '/ingredients', menu.cheese), 2.46);
  });

  it('announces no dish as gone out that was out already, when a count runs one item out as another comes back', async (t) => {
    const { db, call, menu } = await setup(t);
    const count = async (counts: object[]) => {
      const response = await call('POST', '/inventory/counts', { counts });
      assert.equal(response.statusCode, 200, response.body);
    };
    await count([{ item_type: 'ingredient', item_id: menu.cheese, counted: 0 }]);
    const { lastId } = await db
      .selectFrom('events')
      .select((eb) => eb.fn.max('id').as('lastId'))
      .executeTakeFirstOrThrow();
    // The quesadilla needs both: out for the cheese before, out for the tortillas after.
    await count([
      { item_type: 'ingredient', item_id: menu.cheese, counted: 1 },
      { item_type: 'ingredient', item_id: menu.tortilla, counted: 0 },
    ]);
    const announced = await db
      .selectFrom('events')
      .select('payload')
      .where('type', '=', 'dish.availability_changed')
      .where('id', '>', Number(lastId))
      .orderBy('id')
      .execute();
    assert.deepEqual(
      announced.map((row) => JSON.parse(row.payload).data),
      [
        { dish_id: menu.combo, available: false, reason: 'out_of_stock' },
        { option_id: menu.extraCheese, group_id: menu.extras, available: true, reason: 'out_of_stock' },
      ],
    );
  });

  it('records deliveries, waste and adjustments, refusing a zero, a wrong sign or an unknown item', async (t) => {
    const { app, db, call, menu } = await setup(t);
    const waiter = callerFor(app, (await loggedInUser(app, db, 'waiter')).cookies);
    const digest = await databaseDigest(db);
    const move = (body: object) =>
      call('POST', '/inventory/movements', { item_type: 'ingredient', item_id: menu.cheese, ...body });
    assert.deepEqual((await move({ delta: 0, reason: 'adjustment' })).json(), {
      message: 'delta cannot be 0',
    });
    assert.equal((await move({ delta: 1, reason: 'waste' })).statusCode, 400);
    assert.equal((await move({ delta: -1, reason: 'receiving' })).statusCode, 400);
    assert.equal((await move({ delta: 1, reason: 'sale' })).statusCode, 400);
    const unknown = await move({
      item_id: '00000000-0000-4000-8000-000000000000',
      delta: 1,
      reason: 'receiving',
    });
    assert.equal(
      unknown.json().message,
      'Ingredient with ID: 00000000-0000-4000-8000-000000000000 not found',
    );
    assert.equal(
      (
        await call('POST', '/inventory/movements', {
          item_type: 'product',
          item_id: menu.cola,
          delta: 1.5,
          reason: 'receiving',
        })
      ).statusCode,
      400,
    );
    assert.equal(
      (
        await waiter('POST', '/inventory/movements', {
          item_type: 'ingredient',
          item_id: menu.cheese,
          delta: 1,
          reason: 'receiving',
        })
      ).statusCode,
      403,
    );
    assert.equal((await waiter('GET', '/inventory/stock')).statusCode, 403);
    assert.deepEqual(await databaseDigest(db), digest);

    assert.equal((await move({ delta: -0.125, reason: 'waste', note: 'Dropped' })).statusCode, 201);
    assert.equal((await move({ delta: 0.005, reason: 'adjustment' })).statusCode, 201);
    assert.equal(await stockOf(call, '/ingredients', menu.cheese), 0.88);
    const listed = await call(
      'GET',
      `/inventory/movements?item_type=ingredient&item_id=${menu.cheese}&limit=2`,
    );
    assert.equal(listed.statusCode, 200);
    assert.deepEqual(
      listed
        .json()
        .map(
          (movement: {
            reason: string;
            delta: number;
            stock_after: number;
            item_name: string;
            unit: string;
          }) => [movement.reason, movement.delta, movement.stock_after, movement.item_name, movement.unit],
        ),
      [
        ['adjustment', 0.005, 0.88, 'Cheese', 'kg'],
        ['waste', -0.125, 0.875, 'Cheese', 'kg'],
      ],
    );
    assert.equal(listed.json()[1].note, 'Dropped');
    assert.match(listed.json()[1].user_name, /^user /);
    assert.equal((await call('GET', '/inventory/movements?from=2001-01-01&to=2001-01-02')).statusCode, 204);
    assert.equal((await call('GET', '/inventory/movements?limit=0')).statusCode, 400);
  });

  it('enters a whole count sheet in one transaction, or none of it', async (t) => {
    const { db, call, menu } = await setup(t);
    const digest = await databaseDigest(db);
    const refused = await call('POST', '/inventory/counts', {
      counts: [
        { item_type: 'ingredient', item_id: menu.cheese, counted: 0.9 },
        { item_type: 'product', item_id: '00000000-0000-4000-8000-000000000000', counted: 3 },
      ],
    });
    assert.equal(refused.statusCode, 400);
    assert.deepEqual(await databaseDigest(db), digest);
    const counted = await call('POST', '/inventory/counts', {
      counts: [
        { item_type: 'ingredient', item_id: menu.cheese, counted: 0.9 },
        { item_type: 'ingredient', item_id: menu.tortilla, counted: 40 },
        { item_type: 'product', item_id: menu.cola, counted: 10 },
      ],
    });
    assert.equal(counted.statusCode, 200, counted.body);
    // The tortillas were right: no movement for them.
    assert.deepEqual(counted.json(), { message: 'Count recorded', movements: 2 });
    assert.equal(await stockOf(call, '/ingredients', menu.cheese), 0.9);
    assert.equal(await stockOf(call, '/products', menu.cola), 10);
    assert.deepEqual(
      (await movementsOf(db, menu.cola)).map((movement) => [movement.reason, movement.delta]),
      [
        ['count', 12],
        ['count', -2],
      ],
    );
    assert.equal((await call('GET', '/inventory/low-stock')).statusCode, 204);
  });

  it('enters a count sheet retried with its Idempotency-Key once, and refuses the key on another sheet', async (t) => {
    const { app, db, cookies, call, menu } = await setup(t);
    const sheet = (counted: number) =>
      app.inject({
        method: 'POST',
        url: '/inventory/counts',
        headers: { cookie: cookies, 'idempotency-key': 'count-7' },
        payload: { counts: [{ item_type: 'ingredient', item_id: menu.cheese, counted }] },
      });
    const first = await sheet(0.9);
    assert.equal(first.statusCode, 200, first.body);
    assert.deepEqual(first.json(), { message: 'Count recorded', movements: 1 });
    // A plate sold after the count: the tablet's retry must not set the stock back over that sale.
    await sentOrder(call, [{ dish_id: menu.quesadilla }]);
    const retry = await sheet(0.9);
    assert.deepEqual({ status: retry.statusCode, body: retry.json() }, { status: 200, body: first.json() });
    assert.equal(await stockOf(call, '/ingredients', menu.cheese), 0.85);
    assert.deepEqual(
      (await movementsOf(db, menu.cheese)).map((movement) => movement.reason),
      ['count', 'count', 'sale'],
    );
    const digest = await databaseDigest(db);
    const otherSheet = await sheet(0.5);
    assert.deepEqual(
      { status: otherSheet.statusCode, body: otherSheet.json() },
      { status: 400, body: { message: 'Idempotency-Key was already used with a different request' } },
    );
    assert.deepEqual(await databaseDigest(db), digest);
  });

  // PostgreSQL runs a count and a send side by side: the count reads each item under its row lock
  // (lockItem), so it waits for the sale and replaces what the sale left. A connection of the test's
  // own holds the send between its two items, every run; without the lock the count lands under the
  // sale (6.95 instead of 7), and with movements applied in the order given the next test deadlocks.
  it('counts over a send that is taking the same item, never under it', postgresOnly, async (t) => {
    const { db, databaseUrl, call, menu } = await setup(t);
    // The send locks the quesadilla's items in one order: it takes the first and waits for the second.
    const [first, second] = [menu.cheese, menu.tortilla].sort((a, b) =>
      inLockOrder({ itemType: 'ingredient', itemId: a }, { itemType: 'ingredient', itemId: b }),
    ) as [string, string];
    const { id: orderId } = (await call('POST', '/orders', {})).json();
    await call('POST', `/orders/${orderId}/dishes`, [{ dish_id: menu.quesadilla }]);
    let send: Promise<LightMyRequestResponse> | undefined;
    let count: Promise<LightMyRequestResponse> | undefined;
    await withRowLockHeld(databaseUrl, 'ingredients', second, async (_trx, untilWaiting) => {
      send = Promise.resolve(call('POST', `/orders/${orderId}/send`, {}));
      await untilWaiting(1, send);
      count = Promise.resolve(
        call('POST', '/inventory/counts', {
          counts: [{ item_type: 'ingredient', item_id: first, counted: 7 }],
        }),
      );
      await untilWaiting(2, count);
    });
    assert.equal((await send)?.statusCode, 200);
    assert.equal((await count)?.statusCode, 200);
    // The count waited for the sale and replaced the stock it left: what was counted is what there is.
    assert.equal(await stockOf(call, '/ingredients', first), 7);
    const [sale, counted] = (await movementsOf(db, first)).slice(-2);
    assert.equal(sale?.reason, 'sale');
    assert.equal(counted?.reason, 'count');
  });

  it(
    'moves shared items of two transactions in one order, whatever order each lists them in',
    postgresOnly,
    async (t) => {
      const { db, databaseUrl, call, menu } = await setup(t);
      const salsa = (
        await call('POST', '/ingredients', {
          name: 'Salsa',
          category_id: menu.pantry,
          quantity: 10,
          unit: 'kg',
        })
      ).json().id as string;
      const items = [menu.cheese, menu.tortilla, salsa].map((itemId) => ({
        itemType: 'ingredient' as const,
        itemId,
      }));
      const [a, b, last] = items.sort(inLockOrder) as [
        (typeof items)[0],
        (typeof items)[0],
        (typeof items)[0],
      ];
      const sale = (item: (typeof items)[0]) => ({
        ...item,
        delta: -1,
        reason: 'sale' as const,
        userId: null,
        now: 1,
      });
      // Listed as [a, last, b] and [b, last, a]: taken as given, each would hold its first item while
      // waiting for `last`, then wait for the other's first: a deadlock, one of them aborted.
      let moves: Promise<unknown>[] = [];
      await withRowLockHeld(databaseUrl, 'ingredients', last.itemId, async (_trx, untilWaiting) => {
        moves = [
          [a, last, b],
          [b, last, a],
        ].map((listed) => db.transaction().execute((trx) => moveStock(trx, listed.map(sale))));
        await untilWaiting(2, ...moves);
      });
      const outcomes = await Promise.allSettled(moves);
      assert.deepEqual(
        outcomes.map((outcome) => outcome.status),
        ['fulfilled', 'fulfilled'],
        String(outcomes.find((outcome) => outcome.status === 'rejected')?.reason),
      );
      for (const item of items) await assertStockIsItsMovements(db, 'ingredients', item.itemId);
    },
  );

  it('lists stock with low items first', async (t) => {
    const { call, menu } = await setup(t);
    await call('POST', '/inventory/movements', {
      item_type: 'ingredient',
      item_id: menu.cheese,
      delta: -0.6,
      reason: 'waste',
    });
    const stock = (await call('GET', '/inventory/stock')).json();
    assert.deepEqual(
      stock.map((item: { name: string; low: boolean; out: boolean }) => [item.name, item.low, item.out]),
      [
        ['Cheese', true, false],
        ['Cola', false, false],
        ['Tortilla', false, false],
      ],
    );
    assert.deepEqual(
      (await call('GET', '/inventory/low-stock')).json().map((item: { id: string }) => item.id),
      [menu.cheese],
    );
  });

  it('loses no movement when 20 orders using the same items are sent at once', async (t) => {
    const { app, db, call, cookies, menu } = await setup(t);
    const orders: string[] = [];
    for (let index = 0; index < 20; index++) {
      const { id } = (await call('POST', '/orders', {})).json();
      await call('POST', `/orders/${id}/dishes`, [
        { dish_id: menu.quesadilla, modifiers: [menu.extraCheese] },
        { dish_id: menu.combo },
      ]);
      orders.push(id);
    }
    const answers = await fireConcurrently(
      app,
      cookies,
      orders.map((id) => ({ method: 'POST', url: `/orders/${id}/send`, body: {} })),
    );
    assert.deepEqual(
      answers.map((answer) => answer.status),
      orders.map(() => 200),
    );
    // 1 kg − 20 × 0.08 kg; 40 − 20 × 3 tortillas; 12 − 20 colas: below zero, as a kitchen keeps cooking.
    assert.equal(await stockOf(call, '/ingredients', menu.cheese), -0.6);
    assert.equal(await stockOf(call, '/ingredients', menu.tortilla), -20);
    assert.equal(await stockOf(call, '/products', menu.cola), -8);
    assert.equal(
      (await movementsOf(db, menu.cheese)).filter((movement) => movement.reason === 'sale').length,
      20,
    );
    await assertStockIsItsMovements(db, 'ingredients', menu.cheese);
    await assertStockIsItsMovements(db, 'ingredients', menu.tortilla);
    await assertStockIsItsMovements(db, 'products', menu.cola);
    // Each item ran out once: one announcement per dish and option, not one per send.
    const outEvents = await db
      .selectFrom('events')
      .select('payload')
      .where('type', '=', 'dish.availability_changed')
      .execute();
    assert.equal(outEvents.length, 3);
  });
});
