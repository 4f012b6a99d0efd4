import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import type { Db } from '../src/core/db/database';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { type Caller, callerFor } from './helpers/orders-factories';

/**
 * The kitchen's stock in a few items, small enough that a handful of plates, a waste or a count runs
 * one out and a delivery brings it back. Quantities are base units: thousandths of a kg, whole bottles.
 */
const ITEMS = [
  { key: 'pork', type: 'ingredient', name: 'Pork', reorder: 250 },
  { key: 'pineapple', type: 'ingredient', name: 'Pineapple', reorder: 50 },
  { key: 'cheese', type: 'ingredient', name: 'Cheese', reorder: 100 },
  { key: 'cola', type: 'product', name: 'Cola', reorder: 1 },
] as const;
type ItemKey = (typeof ITEMS)[number]['key'];
type Recipe = Partial<Record<ItemKey, number>>;

/** The extras of the tacos: two with a recipe, one ("no onion") without. */
const OPTIONS: { name: string; recipe: Recipe }[] = [
  { name: 'Extra cheese', recipe: { cheese: 30 } },
  { name: 'Extra pineapple', recipe: { pineapple: 15 } },
  { name: 'No onion', recipe: {} },
];
/** Only the tacos (the first) offer the extras; the water uses nothing from the stock. */
const DISHES: { name: string; recipe: Recipe }[] = [
  { name: 'Tacos al pastor', recipe: { pork: 125, pineapple: 20 } },
  { name: 'Quesadilla', recipe: { cheese: 80 } },
  { name: 'Cola', recipe: { cola: 1 } },
  { name: 'Agua de jamaica', recipe: {} },
];
const ORDERS = 2;

type Plate = {
  id: string;
  dish: number;
  extras: number[];
  status: 'pending' | 'sent' | 'preparing' | 'voided';
};
/** A movement of a plate's stock as `plate item reason delta`. */
type PlateMovement = string;
type Model = {
  stock: Record<ItemKey, number>;
  orders: { id: string; plates: Plate[] }[];
  /** Every plate the run added, removed ones too. */
  added: string[];
  plateMovements: PlateMovement[];
};
type Setup = { items: Record<ItemKey, string>; dishes: string[]; options: string[] };

/** A plate of the run in that state if there is one (else any), so every transition gets drawn. */
type PlatePick = { status: Plate['status']; index: number };

type Step =
  | { kind: 'add'; order: number; dish: number; extras: number[]; quantity: number }
  | { kind: 'send'; order: number }
  | { kind: 'prepare'; plate: PlatePick }
  | { kind: 'void'; plate: PlatePick }
  | { kind: 'remove'; plate: PlatePick }
  | { kind: 'move'; item: number; reason: 'receiving' | 'waste' | 'adjustment'; amount: number; up: boolean }
  | { kind: 'count'; counts: { item: number; counted: number }[] };

const plateArb = fc.record({
  status: fc.constantFrom<Plate['status'][]>('pending', 'sent', 'preparing', 'voided'),
  index: fc.nat(),
});
const itemIndex = fc.nat({ max: ITEMS.length - 1 });
/** A level for any item: up to 0.6 kg of an ingredient, taken modulo a few bottles for the product. */
const levelArb = fc.integer({ min: 0, max: 600 });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      order: fc.nat(),
      dish: fc.nat({ max: DISHES.length - 1 }),
      extras: fc.subarray([0, 1, 2], { maxLength: 2 }),
      quantity: fc.integer({ min: 1, max: 2 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('send' as const), order: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('prepare' as const), plate: plateArb }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('void' as const), plate: plateArb }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('remove' as const), plate: plateArb }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('move' as const),
      item: itemIndex,
      reason: fc.constantFrom('receiving' as const, 'waste' as const, 'adjustment' as const),
      amount: fc.integer({ min: 1, max: 400 }),
      up: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('count' as const),
      counts: fc.uniqueArray(fc.record({ item: itemIndex, counted: levelArb }), {
        minLength: 1,
        maxLength: ITEMS.length,
        selector: (count) => count.item,
      }),
    }),
  },
);

/** What the API takes and shows for an amount of base units of the item. */
const inUnits = (item: (typeof ITEMS)[number], base: number) =>
  item.type === 'ingredient' ? base / 1000 : base;
/** A generated amount (1 to 400) as base units of the item: up to 0.4 kg, or 1 to 5 bottles. */
const asBase = (item: (typeof ITEMS)[number], amount: number) =>
  item.type === 'ingredient' ? amount : (amount % 5) + 1;

const recipeOf = (plate: { dish: number; extras: number[] }): Recipe[] => [
  (DISHES[plate.dish] as (typeof DISHES)[number]).recipe,
  ...(plate.dish === 0
    ? plate.extras.map((index) => (OPTIONS[index] as (typeof OPTIONS)[number]).recipe)
    : []),
];

function isOut(model: Model, recipe: Recipe): boolean {
  return Object.keys(recipe).some((key) => model.stock[key as ItemKey] <= 0);
}

/** Sells the plate (1) or puts back what it took (-1): one movement per item, dish and options together. */
function take(model: Model, plate: Plate, sign: 1 | -1): void {
  const used = new Map<ItemKey, number>();
  for (const recipe of recipeOf(plate)) {
    for (const [key, quantity] of Object.entries(recipe)) {
      used.set(key as ItemKey, (used.get(key as ItemKey) ?? 0) + quantity);
    }
  }
  for (const [key, quantity] of used) {
    model.stock[key] -= sign * quantity;
    model.plateMovements.push(`${plate.id} ${key} ${sign === 1 ? 'sale' : 'void'} ${-sign * quantity}`);
  }
}

/**
 * How often the runs reached each case the property is about, so it cannot pass on what random
 * sequences happened not to draw.
 */
const reached = {
  refusedOutOfStock: 0,
  voidReturned: 0,
  voidAfterPreparing: 0,
  removalReturned: 0,
  removalAfterPreparing: 0,
  wentOut: 0,
  cameBack: 0,
  belowZero: 0,
};

function pickPlate<T extends { plate: Plate }>(plates: T[], wanted: PlatePick): T {
  const inState = plates.filter(({ plate }) => plate.status === wanted.status);
  return pick(inState.length > 0 ? inState : plates, wanted.index);
}

const pick = <T>(list: T[], index: number) => list[index % list.length] as T;

async function expectStatus(
  call: Caller,
  expected: number,
  method: 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
) {
  const response = await call(method, url, body);
  assert.equal(response.statusCode, expected, `${method} ${url} ${JSON.stringify(body)}: ${response.body}`);
  return response;
}

async function runStep(call: Caller, setup: Setup, model: Model, step: Step): Promise<void> {
  if (step.kind === 'move') {
    const item = ITEMS[step.item] as (typeof ITEMS)[number];
    const base = asBase(item, step.amount);
    const delta =
      step.reason === 'receiving' ? base : step.reason === 'waste' ? -base : step.up ? base : -base;
    await expectStatus(call, 201, 'POST', '/inventory/movements', {
      item_type: item.type,
      item_id: setup.items[item.key],
      delta: inUnits(item, delta),
      reason: step.reason,
    });
    model.stock[item.key] += delta;
    return;
  }
  if (step.kind === 'count') {
    const counts = step.counts.map(({ item: index, counted }) => {
      const item = ITEMS[index] as (typeof ITEMS)[number];
      return { item, counted: item.type === 'ingredient' ? counted : counted % 6 };
    });
    const response = await expectStatus(call, 200, 'POST', '/inventory/counts', {
      counts: counts.map(({ item, counted }) => ({
        item_type: item.type,
        item_id: setup.items[item.key],
        counted: inUnits(item, counted),
      })),
    });
    const differing = counts.filter(({ item, counted }) => model.stock[item.key] !== counted).length;
    assert.equal(response.json().movements, differing, 'one count movement per item that differed');
    for (const { item, counted } of counts) model.stock[item.key] = counted;
    return;
  }
  if (step.kind === 'add') {
    const order = pick(model.orders, step.order);
    const extras = step.dish === 0 ? step.extras : [];
    const recipes = recipeOf({ dish: step.dish, extras });
    const orderable = recipes.every((recipe) => !isOut(model, recipe));
    const response = await expectStatus(call, orderable ? 201 : 400, 'POST', `/orders/${order.id}/dishes`, [
      {
        dish_id: setup.dishes[step.dish],
        ...(extras.length > 0 && { modifiers: extras.map((index) => setup.options[index]) }),
        quantity: step.quantity,
      },
    ]);
    if (!orderable) reached.refusedOutOfStock += 1;
    else {
      for (const id of response.json().ids as string[]) {
        order.plates.push({ id, dish: step.dish, extras, status: 'pending' });
        model.added.push(id);
      }
    }
    return;
  }
  if (step.kind === 'send') {
    const order = pick(model.orders, step.order);
    const pending = order.plates.filter((plate) => plate.status === 'pending');
    const response = await expectStatus(call, 200, 'POST', `/orders/${order.id}/send`);
    assert.equal(response.json().sent, pending.length);
    for (const plate of pending) {
      plate.status = 'sent';
      take(model, plate, 1);
    }
    return;
  }
  const plates = model.orders.flatMap((order) => order.plates.map((plate) => ({ order, plate })));
  if (plates.length === 0) return;
  const { order, plate } = pickPlate(plates, step.plate);
  const url = `/orders/${order.id}/dishes/${plate.id}`;
  if (step.kind === 'prepare') {
    const valid = plate.status === 'sent';
    await expectStatus(call, valid ? 200 : 400, 'PUT', `${url}/status`, { status: 'preparing' });
    if (valid) plate.status = 'preparing';
    return;
  }
  if (step.kind === 'void') {
    const valid = plate.status !== 'voided';
    await expectStatus(call, valid ? 200 : 400, 'PUT', `${url}/status`, {
      status: 'voided',
      reason: 'Sent back',
    });
    // Not started, so the food is still on the shelf; once preparing it is gone.
    if (plate.status === 'sent') {
      take(model, plate, -1);
      reached.voidReturned += 1;
    }
    if (plate.status === 'preparing') reached.voidAfterPreparing += 1;
    if (valid) plate.status = 'voided';
    return;
  }
  await expectStatus(call, 200, 'DELETE', url);
  if (plate.status === 'sent') {
    take(model, plate, -1);
    reached.removalReturned += 1;
  }
  if (plate.status === 'preparing') reached.removalAfterPreparing += 1;
  order.plates.splice(order.plates.indexOf(plate), 1);
}

/** The items' stock as the API shows it, in base units. */
async function stockShown(call: Caller, setup: Setup): Promise<Record<ItemKey, number>> {
  const shown = {} as Record<ItemKey, number>;
  for (const item of ITEMS) {
    const response = await call('GET', `/${item.type}s/${setup.items[item.key]}`);
    assert.equal(response.statusCode, 200, response.body);
    const quantity = response.json().quantity as number;
    shown[item.key] = item.type === 'ingredient' ? Math.round(quantity * 1000) : quantity;
    assert.equal(quantity, inUnits(item, shown[item.key]), `${item.name}: at most 3 decimals, exactly`);
  }
  return shown;
}

/** Each item's movements add up to its stock, one after the other, with no gap in their numbers. */
async function assertMovementChains(db: Db, setup: Setup, stock: Record<ItemKey, number>): Promise<void> {
  for (const item of ITEMS) {
    const movements = await db
      .selectFrom('stock_movements')
      .select(['seq', 'delta', 'stock_after'])
      .where('item_type', '=', item.type)
      .where('item_id', '=', setup.items[item.key])
      .orderBy('seq')
      .execute();
    let running = 0;
    for (const [index, movement] of movements.entries()) {
      assert.equal(Number(movement.seq), index + 1, `${item.name}: movement numbers without a gap`);
      assert.notEqual(Number(movement.delta), 0);
      running += Number(movement.delta);
      assert.equal(Number(movement.stock_after), running, `${item.name}: stock after movement ${index + 1}`);
    }
    assert.equal(running, stock[item.key], `${item.name}: stock is the sum of its movements`);
    const row = await db
      .selectFrom(item.type === 'ingredient' ? 'ingredients' : 'products')
      .select(['stock', 'stock_moves'])
      .where('id', '=', setup.items[item.key])
      .executeTakeFirstOrThrow();
    assert.equal(Number(row.stock_moves), movements.length, `${item.name}: movements counted on the item`);
  }
}

/** The movements that name a plate of the run: its sales when sent and its returns, and no other. */
async function assertPlateMovements(db: Db, setup: Setup, model: Model): Promise<void> {
  if (model.added.length === 0) return;
  const keyOf = new Map(ITEMS.map((item) => [setup.items[item.key], item.key]));
  const rows = await db
    .selectFrom('stock_movements')
    .select(['order_dish_id', 'item_id', 'reason', 'delta'])
    .where('order_dish_id', 'in', model.added)
    .execute();
  assert.deepEqual(
    rows
      .map((row) => `${row.order_dish_id} ${keyOf.get(row.item_id)} ${row.reason} ${Number(row.delta)}`)
      .sort(),
    [...model.plateMovements].sort(),
    'each plate: one sale per item it uses, one return per sale put back',
  );
}

type MenuState = { dishes: Map<string, boolean>; options: Map<string, boolean> };

/** Whether each dish and option with a recipe is out of stock in the model. */
function menuState(model: Model, setup: Setup): MenuState {
  return {
    dishes: new Map(DISHES.map((dish, index) => [setup.dishes[index] as string, isOut(model, dish.recipe)])),
    options: new Map(
      OPTIONS.map((option, index) => [setup.options[index] as string, isOut(model, option.recipe)]),
    ),
  };
}

/** The menu greys what needs an item at or below zero and nothing else (nothing here is 86'd by hand). */
async function assertMenu(call: Caller, expected: MenuState): Promise<void> {
  const menu = (await call('GET', '/menu')).json() as {
    categories: {
      dishes: {
        id: string;
        name: string;
        available: boolean;
        out_of_stock: boolean;
        modifier_groups: {
          options: { id: string; name: string; available: boolean; out_of_stock: boolean }[];
        }[];
      }[];
    }[];
  };
  const dishes = menu.categories.flatMap((category) => category.dishes);
  assert.equal(dishes.length, DISHES.length);
  for (const dish of dishes) {
    const out = expected.dishes.get(dish.id);
    assert.deepEqual(
      { available: dish.available, out_of_stock: dish.out_of_stock },
      { available: !out, out_of_stock: out },
      dish.name,
    );
    for (const option of dish.modifier_groups.flatMap((group) => group.options)) {
      const optionOut = expected.options.get(option.id);
      assert.deepEqual(
        { available: option.available, out_of_stock: option.out_of_stock },
        { available: !optionOut, out_of_stock: optionOut },
        option.name,
      );
    }
  }
}

/** The dish.availability_changed events after `afterId`, as `id available`, sorted. */
async function availabilityEvents(db: Db, afterId: number): Promise<{ lastId: number; events: string[] }> {
  const rows = await db
    .selectFrom('events')
    .select(['id', 'type', 'payload'])
    .where('id', '>', afterId)
    .orderBy('id')
    .execute();
  const events = rows
    .filter((row) => row.type === 'dish.availability_changed')
    .map(
      (row) =>
        JSON.parse(row.payload).data as {
          dish_id?: string;
          option_id?: string;
          available: boolean;
          reason: string;
        },
    )
    .filter((data) => data.reason === 'out_of_stock')
    .map((data) => `${data.dish_id ?? data.option_id} ${data.available}`)
    .sort();
  return { lastId: rows.reduce((last, row) => Math.max(last, Number(row.id)), afterId), events };
}

/** Each dish or option whose out-of-stock state the step flipped is announced once, and no other. */
function expectedEvents(before: MenuState, after: MenuState): string[] {
  const flipped: string[] = [];
  for (const kind of ['dishes', 'options'] as const) {
    for (const [id, out] of after[kind]) if (before[kind].get(id) !== out) flipped.push(`${id} ${!out}`);
  }
  return flipped.sort();
}

async function assertLowStock(call: Caller, setup: Setup, model: Model): Promise<void> {
  const response = await call('GET', '/inventory/low-stock');
  const low = response.statusCode === 204 ? [] : (response.json() as { id: string }[]).map((item) => item.id);
  const expected = ITEMS.filter((item) => model.stock[item.key] <= item.reorder).map(
    (item) => setup.items[item.key],
  );
  assert.deepEqual(low.sort(), expected.sort(), 'low stock: the items at or below their reorder level');
}

async function createMenu(call: Caller): Promise<Setup> {
  const created = async (url: string, body: unknown) =>
    (await expectStatus(call, 201, 'POST', url, body)).json().id as string;
  const ingredients = await created('/categories', { name: 'Kitchen stock', type: 'ingredient' });
  const products = await created('/categories', { name: 'Drinks stock', type: 'product' });
  const items = {} as Record<ItemKey, string>;
  for (const item of ITEMS) {
    items[item.key] =
      item.type === 'ingredient'
        ? await created('/ingredients', {
            name: item.name,
            category_id: ingredients,
            quantity: 1,
            unit: 'kg',
            reorder_level: inUnits(item, item.reorder),
          })
        : await created('/products', {
            name: item.name,
            sku: item.key.toUpperCase(),
            price: 25,
            quantity: 5,
            reorder_level: item.reorder,
            category_id: products,
          });
  }
  const recipeBody = (recipe: Recipe) =>
    Object.entries(recipe).map(([key, quantity]) => {
      const item = ITEMS.find((candidate) => candidate.key === key) as (typeof ITEMS)[number];
      return item.type === 'ingredient'
        ? { ingredient_id: items[item.key], quantity: quantity / 1000 }
        : { product_id: items[item.key], quantity };
    });
  const group = await created('/modifier-groups', {
    name: 'Extras',
    min_select: 0,
    max_select: 2,
    options: OPTIONS.map((option) => ({
      name: option.name,
      price_delta: 5,
      recipe: recipeBody(option.recipe),
    })),
  });
  const options = (
    (await call('GET', `/modifier-groups/${group}`)).json().options as { id: string; name: string }[]
  )
    .sort((a, b) => OPTIONS.findIndex((o) => o.name === a.name) - OPTIONS.findIndex((o) => o.name === b.name))
    .map((option) => option.id);
  const category = await created('/categories', { name: 'Comida', type: 'dish', station: 'kitchen' });
  const dishes: string[] = [];
  for (const [index, dish] of DISHES.entries()) {
    dishes.push(
      await created('/dishes', {
        name: dish.name,
        price: 50,
        category_id: category,
        ...(index === 0 && { modifier_group_ids: [group] }),
        recipe: recipeBody(dish.recipe),
      }),
    );
  }
  return { items, dishes, options };
}

describeEachDatabase('inventory (property)', (target) => {
  it('for any sends, voids, removals, movements and counts, stock is its movements and what the model says; the menu follows it', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const call = callerFor(app, (await loggedInUser(app, db)).cookies);
    const setup = await createMenu(call);
    for (const key of Object.keys(reached) as (keyof typeof reached)[]) reached[key] = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(levelArb, { minLength: ITEMS.length, maxLength: ITEMS.length }),
        fc.array(stepArb, { minLength: 5, maxLength: 25, size: 'max' }),
        async (levels, steps) => {
          // Read afresh: a run that failed half-way (while shrinking) leaves events no model announced.
          let lastEventId = (await availabilityEvents(db, 0)).lastId;
          // The runs share one database: each starts from the stock the last one left (and checked), with
          // orders of its own.
          const model: Model = {
            stock: (await stockShown(call, setup)) as Record<ItemKey, number>,
            orders: [],
            added: [],
            plateMovements: [],
          };
          for (let index = 0; index < ORDERS; index++) {
            model.orders.push({
              id: (await expectStatus(call, 201, 'POST', '/orders', {})).json().id,
              plates: [],
            });
          }
          const opening: Step = { kind: 'count', counts: levels.map((counted, item) => ({ item, counted })) };
          for (const step of [opening, ...steps]) {
            const before = menuState(model, setup);
            await runStep(call, setup, model, step);
            const shown = await stockShown(call, setup);
            assert.deepEqual(shown, model.stock, `stock after ${JSON.stringify(step)}`);
            await assertMovementChains(db, setup, shown);
            const after = menuState(model, setup);
            await assertMenu(call, after);
            const announced = await availabilityEvents(db, lastEventId);
            lastEventId = announced.lastId;
            assert.deepEqual(
              announced.events,
              expectedEvents(before, after),
              `announced after ${JSON.stringify(step)}`,
            );
            await assertLowStock(call, setup, model);
            for (const event of announced.events) {
              if (event.endsWith('false')) reached.wentOut += 1;
              else reached.cameBack += 1;
            }
            if (Object.values(model.stock).some((stock) => stock < 0)) reached.belowZero += 1;
          }
          await assertPlateMovements(db, setup, model);
        },
      ),
      {
        numRuns: 25,
        // node:test prints no error cause: the failing assertion goes into the report itself.
        includeErrorInReport: true,
        // One sequence known to reach every case counted in `reached`.
        examples: [
          [
            [400, 100, 300, 2],
            [
              { kind: 'add', order: 0, dish: 0, extras: [0, 1], quantity: 2 },
              { kind: 'add', order: 0, dish: 2, extras: [], quantity: 1 },
              { kind: 'send', order: 0 },
              { kind: 'prepare', plate: { status: 'sent', index: 0 } },
              { kind: 'void', plate: { status: 'preparing', index: 0 } },
              { kind: 'remove', plate: { status: 'sent', index: 0 } },
              { kind: 'void', plate: { status: 'sent', index: 0 } },
              { kind: 'add', order: 0, dish: 1, extras: [], quantity: 1 },
              { kind: 'send', order: 0 },
              { kind: 'prepare', plate: { status: 'sent', index: 0 } },
              { kind: 'remove', plate: { status: 'preparing', index: 0 } },
              { kind: 'count', counts: [{ item: 3, counted: 0 }] },
              { kind: 'add', order: 1, dish: 2, extras: [], quantity: 1 },
              { kind: 'move', item: 3, reason: 'receiving', amount: 1, up: true },
              { kind: 'move', item: 0, reason: 'waste', amount: 400, up: false },
            ],
          ],
        ],
      },
    );
    for (const [what, count] of Object.entries(reached)) assert.ok(count > 0, `never reached: ${what}`);
  });
});
