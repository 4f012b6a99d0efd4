import assert from 'node:assert/strict';
import { it } from 'node:test';
import { channelUser } from '../src/channels/channel-users';
import { buildTestApp, describeEachDatabase, type TestApp } from './helpers/app';
import { loggedInUser, login } from './helpers/auth';
import { insertDeliveryOrder } from './helpers/channel-factories';
import { createBill } from './helpers/checkout-factories';
import { insertCategory, insertDish, insertTable, insertUser } from './helpers/factories';
import { type Caller, callerFor } from './helpers/orders-factories';

const MINUTE = 60_000;
/** Mexico City is UTC−6 all year: 13:00 there is 19:00 UTC. */
const local = (day: number, hour: number, minute = 0) => Date.UTC(2026, 10, day, hour + 6, minute);

async function ok(call: Caller, method: Parameters<Caller>[0], url: string, body?: unknown) {
  const response = await call(method, url, body);
  assert.ok(response.statusCode < 300, `${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** A takeaway order of one plate at `amount`, made and paid in cash at `at` by `user`. */
async function sellTakeaway(
  { app, clock }: Pick<TestApp, 'app' | 'clock'>,
  user: { name: string; pin: string },
  dishId: string,
  at: number,
  amount: number,
) {
  clock.set(at);
  const admin = callerFor(app, await login(app, user.name, user.pin));
  const placed = await ok(admin, 'POST', '/orders/with-dishes', {
    order: { table_id: null },
    dishes: [{ dish_id: dishId, price_at_order: amount }],
  });
  await ok(admin, 'POST', `/tickets/${await createBill(admin, placed.id)}/payments`, {
    method: 'cash',
    amount,
  });
}

describeEachDatabase('dashboard', (target) => {
  it('sums a night by hour against the usual, with tenders, channels, waiters, dishes, times, voids, comps and what is open', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target, {
      env: { POS_TIMEZONE: 'America/Mexico_City' },
    });
    const ana = await insertUser(db, { role: 'staff' });
    const boss = await insertUser(db, { role: 'admin' });
    let waiter: Caller = async () => assert.fail('signed in by day');
    let admin: Caller = waiter;
    // Access tokens live minutes: each step of the story moves the clock and signs in again.
    const signIn = async (at: number) => {
      clock.set(at);
      waiter = callerFor(app, await login(app, ana.name, ana.pin));
      admin = callerFor(app, await login(app, boss.name, boss.pin));
    };
    const tacos = await insertDish(db, { name: 'Tacos', priceCents: 10_000 });
    const soup = await insertDish(db, { name: 'Soup', priceCents: 5000 });
    const flan = await insertDish(db, { name: 'Flan', priceCents: 3000 });
    const [first, second, third] = [await insertTable(db), await insertTable(db), await insertTable(db)];
    const order = async (tableId: string | null, guests: number | null, dishes: [string, number][]) => {
      const created = await ok(waiter, 'POST', '/orders/with-dishes', {
        order: { table_id: tableId, guests },
        dishes: dishes.map(([dishId, price]) => ({ dish_id: dishId, price_at_order: price })),
      });
      const plates = await db
        .selectFrom('order_dishes')
        .select(['id', 'dish_id'])
        .where('order_id', '=', created.id)
        .orderBy('ordinal')
        .execute();
      return { id: created.id as string, plates: plates.map((plate) => plate.id) };
    };
    const pay = (billId: string, body: Record<string, unknown>) =>
      ok(admin, 'POST', `/tickets/${billId}/payments`, body);

    // The same Sunday two weeks and one week before, at 13:00 and 13:30: the usual of that hour.
    await signIn(local(8, 13));
    const twoWeeks = await order(first.id, 2, [[tacos.id, 100]]);
    await pay(await createBill(admin, twoWeeks.id), { method: 'cash', amount: 100 });
    await signIn(local(15, 13, 30));
    const lastWeek = await order(first.id, 4, [
      [tacos.id, 100],
      [soup.id, 50],
    ]);
    await pay(await createBill(admin, lastWeek.id), { method: 'card', amount: 150 });

    // Sunday 22nd, 13:00: three at the first table; the kitchen makes the tacos in 10 min, the soup in 15.
    await signIn(local(22, 13));
    const dinner = await order(first.id, 3, [
      [tacos.id, 100],
      [tacos.id, 100],
      [soup.id, 50],
      [flan.id, 30],
    ]);
    const [tacoOne, tacoTwo, soupPlate, flanPlate] = dinner.plates as [string, string, string, string];
    await ok(waiter, 'POST', `/orders/${dinner.id}/send`);
    for (const plate of [tacoOne, tacoTwo, soupPlate])
      await ok(admin, 'PUT', `/orders/${dinner.id}/dishes/${plate}/status`, { status: 'preparing' });
    await signIn(clock.now() + 10 * MINUTE);
    for (const plate of [tacoOne, tacoTwo])
      await ok(admin, 'PUT', `/orders/${dinner.id}/dishes/${plate}/status`, { status: 'ready' });
    await signIn(clock.now() + 5 * MINUTE);
    await ok(admin, 'PUT', `/orders/${dinner.id}/dishes/${soupPlate}/status`, { status: 'ready' });
    await ok(admin, 'POST', `/orders/${dinner.id}/dishes/${flanPlate}/void`, { reason: 'Dropped' });
    // 13:40: a taco and the soup, 15.00 off, by card with a 14.00 tip; 14:05: the other taco in cash.
    await signIn(local(22, 13, 40));
    const firstBill = await createBill(admin, dinner.id, {
      order_dish_ids: [tacoOne, soupPlate],
      discount: { type: 'amount', value: 15, reason: 'Regulars' },
    });
    await pay(firstBill, { method: 'card', amount: 135, tip: 14 });
    await signIn(local(22, 14, 5));
    await pay(await createBill(admin, dinner.id), { method: 'cash', amount: 100 });

    // 14:10: two at the second table, the flan charged 25.00 instead of 30.00, paid at 14:30.
    await signIn(local(22, 14, 10));
    const dessert = await order(second.id, 2, [[flan.id, 25]]);
    await signIn(local(22, 14, 30));
    await pay(await createBill(admin, dessert.id), { method: 'cash', amount: 25 });

    // 14:20: an Uber Eats soup, accepted: the platform pays its bill.
    await signIn(local(22, 14, 20));
    const delivery = await insertDeliveryOrder(db, clock.now(), {
      channel: 'ubereats',
      code: 'A1',
      customer: 'Lucía',
      pickupAt: null,
      lines: [{ dishId: soup.id, name: 'Soup', priceCents: 5000 }],
    });
    await ok(admin, 'POST', `/orders/${delivery}/accept`);

    // 14:35: the third table orders a soup and asks for the bill; still open. Then the 86s.
    await signIn(local(22, 14, 35));
    const open = await order(third.id, 1, [[soup.id, 50]]);
    await createBill(admin, open.id);
    await signIn(local(22, 14, 40));
    await ok(admin, 'PUT', `/dishes/${flan.id}/availability`, { available: false });
    await signIn(local(22, 14, 45));
    await ok(admin, 'PUT', `/dishes/${soup.id}/availability`, { available: false });
    await signIn(local(22, 14, 50));
    await ok(admin, 'PUT', `/dishes/${soup.id}/availability`, { available: true });

    const manager = callerFor(app, (await loggedInUser(app, db, 'manager')).cookies);
    const response = await manager('GET', '/reports/dashboard?date=2026-11-22');
    assert.equal(response.statusCode, 200, response.body);
    const uber = channelUser('ubereats');
    const quietHour = { sales: 0, covers: 0, usual: { sales: 0, covers: 0 } };
    const hours = Array.from({ length: 24 }, (_, hour) => ({
      hour,
      starts_at: new Date(local(22, hour)).toISOString(),
      ...quietHour,
    }));
    // 13:00: 135.00 paid, nobody left yet; usual (100 + 150) / 4 and (2 + 4) / 4. 14:00: 100 + 25 + 50, 3 + 2 covers.
    Object.assign(hours[13] as object, { sales: 135, covers: 0, usual: { sales: 62.5, covers: 1.5 } });
    Object.assign(hours[14] as object, { sales: 175, covers: 5, usual: { sales: 0, covers: 0 } });
    const dish = (id: string, name: string, quantity: number, amount: number) => ({
      dish_id: id,
      name,
      quantity,
      amount,
    });
    // The 15.00 off is shared over the bill's plates in proportion: 10.00 on the taco, 5.00 on the soup.
    const tacoLine = dish(tacos.id, 'Tacos', 2, 190);
    const soupLine = dish(soup.id, 'Soup', 2, 95);
    const flanLine = dish(flan.id, 'Flan', 1, 25);
    assert.deepEqual(response.json(), {
      date: '2026-11-22',
      from: '2026-11-22T06:00:00.000Z',
      to: '2026-11-23T06:00:00.000Z',
      hours,
      sales: 310,
      bills: 4,
      covers: 5,
      average_bill: 77.5,
      average_per_cover: 62,
      tips: 14,
      by_tender: [
        { method: 'card', sales: 135, tips: 14 },
        { method: 'cash', sales: 125, tips: 0 },
        { method: 'ubereats', sales: 50, tips: 0 },
      ],
      by_channel: [
        { channel: 'dine_in', orders: 2, sales: 260 },
        { channel: 'ubereats', orders: 1, sales: 50 },
      ],
      by_waiter: [
        { user_id: ana.id, name: ana.name, bills: 3, sales: 260, tips: 14 },
        { user_id: uber.id, name: uber.name, bills: 1, sales: 50, tips: 0 },
      ],
      dishes: {
        top_by_quantity: [soupLine, tacoLine, flanLine],
        bottom_by_quantity: [flanLine, soupLine, tacoLine],
        top_by_amount: [tacoLine, soupLine, flanLine],
        bottom_by_amount: [flanLine, soupLine, tacoLine],
      },
      out_of_stock: [
        { dish_id: flan.id, name: 'Flan', at: '2026-11-22T20:40:00.000Z', is_still_out: true },
        { dish_id: soup.id, name: 'Soup', at: '2026-11-22T20:45:00.000Z', is_still_out: false },
      ],
      // Seated 13:00, last bill 14:05: 65 min; 14:10 to 14:30: 20 min. The delivery is not a table.
      table_turn: { count: 2, median: 20, p90: 65 },
      // Sent at 13:00: two tacos ready at 13:10, the soup at 13:15; the voided flan never was.
      kitchen: { count: 3, median: 10, p90: 15 },
      voids: { count: 1, amount: 30 },
      // The 15.00 discount, and the flan at 25.00 instead of 30.00.
      comps: { count: 2, amount: 20 },
      now: { open_tables: 1, open_bills: 1, open_bills_balance: 50 },
    });
  });

  it('lists a dish whose stock ran out on a send, when it went, and whether it is still out', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target, {
      env: { POS_TIMEZONE: 'America/Mexico_City' },
    });
    const boss = await insertUser(db, { role: 'admin' });
    let manager = callerFor(app, await login(app, boss.name, boss.pin));
    // Access tokens live minutes: each step moves the clock and signs in again.
    const at = async (instant: number) => {
      clock.set(instant);
      manager = callerFor(app, await login(app, boss.name, boss.pin));
    };
    const pantry = await insertCategory(db, { type: 'ingredient', name: 'Pantry' });
    const mains = await insertCategory(db, { type: 'dish', name: 'Mains' });
    const created = async (path: string, body: object) =>
      (await ok(manager, 'POST', path, body)).id as string;
    const masa = await created('/ingredients', {
      name: 'Masa',
      category_id: pantry.id,
      quantity: 2,
      unit: 'kg',
    });
    const salsa = await created('/ingredients', {
      name: 'Salsa',
      category_id: pantry.id,
      quantity: 1,
      unit: 'kg',
    });
    const recipe = (ingredientId: string) => [{ ingredient_id: ingredientId, quantity: 1 }];
    const tamal = await created('/dishes', {
      name: 'Tamal',
      price: 30,
      category_id: mains.id,
      recipe: recipe(masa),
    });
    const chilaquiles = await created('/dishes', {
      name: 'Chilaquiles',
      price: 80,
      category_id: mains.id,
      recipe: recipe(salsa),
    });
    const send = async (dishId: string) => {
      const placed = await ok(manager, 'POST', '/orders/with-dishes', {
        order: { table_id: null },
        dishes: [{ dish_id: dishId }],
      });
      await ok(manager, 'POST', `/orders/${placed.id}/send`);
    };
    // 20:00 the last salsa goes, 20:30 the masa; at 21:00 salsa comes in again.
    await at(local(22, 20));
    await send(chilaquiles);
    await at(local(22, 20, 30));
    await send(tamal);
    await send(tamal);
    await at(local(22, 21));
    await ok(manager, 'POST', '/inventory/movements', {
      item_type: 'ingredient',
      item_id: salsa,
      delta: 3,
      reason: 'receiving',
    });
    const response = await manager('GET', '/reports/dashboard?date=2026-11-22');
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json().out_of_stock, [
      { dish_id: chilaquiles, name: 'Chilaquiles', at: '2026-11-23T02:00:00.000Z', is_still_out: false },
      { dish_id: tamal, name: 'Tamal', at: '2026-11-23T02:30:00.000Z', is_still_out: true },
    ]);
  });

  it('shows the hour the clocks repeat twice, each with its own sales', async (t) => {
    // Tijuana keeps daylight saving time: on 1 November 2026 its 01:00–01:59 comes twice (UTC−7, then UTC−8).
    const { app, db, clock } = await buildTestApp(t, target, { env: { POS_TIMEZONE: 'America/Tijuana' } });
    const boss = await insertUser(db, { role: 'admin' });
    const tacos = await insertDish(db, { name: 'Tacos', priceCents: 10_000 });
    const sell = (at: number, amount: number) => sellTakeaway({ app, clock }, boss, tacos.id, at, amount);
    await sell(Date.UTC(2026, 10, 1, 8, 30), 100);
    await sell(Date.UTC(2026, 10, 1, 9, 30), 40);
    const manager = callerFor(app, await login(app, boss.name, boss.pin));
    const response = await manager('GET', '/reports/dashboard?date=2026-11-01');
    assert.equal(response.statusCode, 200, response.body);
    const hours = response.json().hours as { hour: number; starts_at: string; sales: number }[];
    assert.equal(hours.length, 25);
    assert.deepEqual(
      hours.slice(0, 4).map((hour) => [hour.hour, hour.starts_at, hour.sales]),
      [
        [0, '2026-11-01T07:00:00.000Z', 0],
        [1, '2026-11-01T08:00:00.000Z', 100],
        [1, '2026-11-01T09:00:00.000Z', 40],
        [2, '2026-11-01T10:00:00.000Z', 0],
      ],
    );
    assert.deepEqual(hours.at(-1)?.hour, 23);
  });

  it('keeps the usual ten minutes: a bill paid late on a past day shows in it after that', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target, {
      env: { POS_TIMEZONE: 'America/Mexico_City' },
    });
    const boss = await insertUser(db, { role: 'admin' });
    const tacos = await insertDish(db, { name: 'Tacos', priceCents: 10_000 });
    const sell = (at: number, amount: number) => sellTakeaway({ app, clock }, boss, tacos.id, at, amount);
    const usualAt13 = async (at: number) => {
      clock.set(at);
      const manager = callerFor(app, await login(app, boss.name, boss.pin));
      const response = await manager('GET', '/reports/dashboard?date=2026-11-22');
      assert.equal(response.statusCode, 200, response.body);
      return (response.json().hours as { hour: number; usual: { sales: number } }[])[13]?.usual.sales;
    };
    await sell(local(15, 13), 100);
    assert.equal(await usualAt13(local(22, 20)), 25);
    await sell(local(15, 13, 30), 60);
    assert.equal(await usualAt13(local(22, 20, 9)), 25, 'within ten minutes the usual is the one kept');
    assert.equal(await usualAt13(local(22, 20, 10)), 40, 'then it is read again');
  });

  it('answers today by default, refuses a bad date (400) and a caller without reports.read (403)', async (t) => {
    const { app, db } = await buildTestApp(t, target, { env: { POS_TIMEZONE: 'America/Mexico_City' } });
    const manager = callerFor(app, (await loggedInUser(app, db, 'manager')).cookies);
    // The test clock's 18:00 UTC is noon of the 22nd in Mexico City.
    const today = await manager('GET', '/reports/dashboard');
    assert.equal(today.statusCode, 200, today.body);
    assert.deepEqual(
      [today.json().date, today.json().sales, today.json().average_bill],
      ['2026-11-22', 0, null],
    );
    for (const date of ['2026-02-30', 'yesterday']) {
      const bad = await manager('GET', `/reports/dashboard?date=${date}`);
      assert.equal(bad.statusCode, 400, bad.body);
    }
    const waiter = callerFor(app, (await loggedInUser(app, db, 'waiter')).cookies);
    assert.equal((await waiter('GET', '/reports/dashboard')).statusCode, 403);
  });
});
