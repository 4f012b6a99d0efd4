import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Page } from 'playwright-core';
import { TICKET_STATUS } from '../../../src/core/db/ticket-status';
import { describeEachDatabase } from '../../helpers/app';
import { login } from '../../helpers/auth';
import { insertSpace, insertTable, insertUser } from '../../helpers/factories';
import { tacoStandMenu } from '../../helpers/modifier-factories';
import { callerFor } from '../../helpers/orders-factories';
import {
  assertAccessible,
  launchBrowser,
  logInThroughScreen,
  openDevice,
  saveMetric,
  saveScreenshot,
  skipWithoutChromium,
  startPlainWebServer,
} from './browser';
import {
  goToFloor,
  menuDish,
  mergeTables,
  moveParty,
  openFreeTable,
  openTableAndOrder,
  orderedDishes,
  tableTile,
} from './floor-order-steps';
import { openTableAtTill, payFirstBillCash, seeOrderClosedItself } from './kitchen-till-steps';

/** The names of the queue lines a kitchen screen shows, one per line. */
function lineNames(page: Page): Promise<string[]> {
  return page.locator('.kitchen-dish .dish-name').allTextContents();
}

// The walk runs on each database: it ends on what each stored of the bill, its modifiers' prices
// and its payment. The screens look the same on both, so one set of screenshots serves.
describeEachDatabase('web app: one party from the order screen to the till', (target) => {
  it('walks a party from tacos with options and courses, through the kitchen and an 86, to a move, a merge and cash at the till', {
    skip: skipWithoutChromium,
  }, async (t) => {
    const { app, db, baseUrl } = await startPlainWebServer(t, target);
    const manager = await insertUser(db, { name: 'Mara', role: 'manager' });
    const waiter = await insertUser(db, { name: 'Wendy', role: 'waiter' });
    const cook = await insertUser(db, { name: 'Kiko', role: 'kitchen' });
    const cashier = await insertUser(db, { name: 'Caro', role: 'cashier' });
    const call = callerFor(app, await login(app, manager.name, manager.pin));
    const space = await insertSpace(db, { name: 'Terrace' });
    for (const name of ['4', '5', '6']) await insertTable(db, { name, spaceId: space.id });
    // The optional group first on the dish: the panel still puts the required one on top.
    const { tacosCategory, tortilla } = await tacoStandMenu(call, {
      flourDelta: 0,
      groupOrder: 'extras first',
    });
    const suadero = await call('POST', '/dishes', {
      name: 'Taco de suadero',
      price: 25,
      category_id: tacosCategory,
    });
    assert.equal(suadero.statusCode, 201, suadero.body);

    const browser = await launchBrowser(t);
    const floor = await openDevice(browser, baseUrl);
    const kitchen = await openDevice(browser, baseUrl);
    const bar = await openDevice(browser, baseUrl);
    await logInThroughScreen(kitchen.page, cook.name, cook.pin);
    await kitchen.page.goto('/app/kitchen');
    await kitchen.page.getByText('Nothing waiting').waitFor();
    await logInThroughScreen(bar.page, cook.name, cook.pin);
    await bar.page.goto('/app/kitchen?station=bar');
    await bar.page.getByRole('heading', { level: 1, name: 'Kitchen: Bar' }).waitFor();

    // The waiter opens table 4; the tacos open their options panel.
    const page = floor.page;
    await logInThroughScreen(page, waiter.name, waiter.pin);
    await goToFloor(page);
    await openFreeTable(page, '4', 2);
    await page.getByRole('heading', { level: 1, name: 'Table 4' }).waitFor();
    const orderId = new URL(page.url()).pathname.split('/').pop() as string;
    await menuDish(page, 'Tacos al pastor').click();
    const panel = page.getByRole('dialog', { name: 'Tacos al pastor' });
    await panel.waitFor();
    const legends = await panel.locator('legend').allTextContents();
    assert.match(legends[0] ?? '', /^Tortilla Required/, 'the required group comes first');
    assert.match(legends[1] ?? '', /^Extras Optional/);
    const add = panel.getByRole('button', { name: /^Add \d+ × Tacos al pastor$/ });
    assert.equal(await add.isDisabled(), true, 'no tortilla chosen: nothing to add');
    await panel.getByText('Still to choose: Tortilla').waitFor();
    await panel.getByLabel('Corn').check();
    await panel.getByLabel('Extra pineapple').check();
    await panel.getByText('$95.00').waitFor();
    await panel.getByRole('button', { name: 'One more' }).click();
    await panel.getByRole('button', { name: 'One more' }).click();
    await panel.getByLabel('Seat').selectOption({ label: 'Seat 2' });
    await panel.getByLabel('Course').selectOption({ label: 'Course 2' });
    assert.equal(await add.textContent(), 'Add 3 × Tacos al pastor');
    await assertAccessible(page, 'order options panel');
    await saveScreenshot(page, 'order-options');
    await add.click();
    await panel.waitFor({ state: 'detached' });
    await orderedDishes(page).nth(2).waitFor();
    // The drink keeps the one-tap path: course 1, no seat.
    await menuDish(page, 'Agua de jamaica').click();
    await orderedDishes(page).nth(3).waitFor();

    const plates = await db
      .selectFrom('order_dishes')
      .select(['id', 'seat', 'course'])
      .where('order_id', '=', orderId)
      .execute();
    assert.equal(plates.length, 4);
    const tacoPlates = plates.filter((plate) => plate.course === 2);
    assert.equal(tacoPlates.length, 3);
    assert.deepEqual(
      tacoPlates.map((plate) => plate.seat),
      [2, 2, 2],
    );
    const firstTaco = orderedDishes(page).filter({ hasText: 'Tacos al pastor' }).first();
    const options = (await firstTaco.locator('.order-dish-options').textContent()) ?? '';
    assert.deepEqual(options.split(', ').sort(), ['Corn', 'Extra pineapple']);
    await firstTaco.getByText('Seat 2 · Course 2').waitFor();

    // Course 1 goes: the bar gets the drink at once, the kitchen nothing.
    await page.getByRole('button', { name: 'Fire course 2' }).waitFor();
    await page.getByRole('button', { name: 'Send course 1' }).click();
    await page.getByRole('status').filter({ hasText: 'Sent to the kitchen: 1' }).waitFor();
    await bar.page.locator('.kitchen-dish', { hasText: 'Agua de jamaica' }).waitFor({ timeout: 2000 });
    await kitchen.page.waitForTimeout(500);
    assert.deepEqual(await lineNames(kitchen.page), [], 'the tacos are held for course 2');
    await kitchen.page.getByText('Nothing waiting').waitFor();

    // Course 2 fired: one line of three tacos, their options in bold, seat and course.
    await page.getByRole('button', { name: 'Fire course 2' }).click();
    await page.getByRole('status').filter({ hasText: 'Sent to the kitchen: 3' }).waitFor();
    const card = kitchen.page.locator(`.kitchen-order[data-order-id="${orderId}"][data-course="2"]`);
    const line = card.locator('.kitchen-dish[data-count="3"]');
    await line.waitFor();
    assert.equal(await line.locator('.dish-name').textContent(), 'Tacos al pastor');
    assert.deepEqual((await line.locator('strong.dish-option').allTextContents()).sort(), [
      'Corn',
      'Extra pineapple',
    ]);
    assert.equal(await line.locator('.dish-seat').textContent(), 'Seat 2');
    assert.equal(await card.locator('.kitchen-course').textContent(), 'Course 2');
    assert.deepEqual(await lineNames(kitchen.page), ['Tacos al pastor']);
    await assertAccessible(kitchen.page, 'kitchen with modifiers');
    await saveScreenshot(kitchen.page, 'kitchen-modifiers');

    // The bar runs out of jamaica: the waiter's tile greys out, marked 86, within a second.
    const drinkTile = menuDish(page, 'Agua de jamaica');
    assert.equal(await drinkTile.isEnabled(), true);
    const started = Date.now();
    await bar.page.getByRole('button', { name: '86 Agua de jamaica' }).click();
    await drinkTile.getByText('86', { exact: true }).waitFor({ timeout: 1000 });
    const seconds = (Date.now() - started) / 1000;
    saveMetric(`eighty-six-to-waiter-seconds-${target.name}`, seconds);
    assert.equal(await drinkTile.isDisabled(), true, 'a sold-out dish cannot be added');
    await bar.page
      .getByRole('region', { name: "86'd: sold out" })
      .locator('.kitchen-sold-out-name', { hasText: 'Agua de jamaica' })
      .waitFor();
    await bar.page.getByRole('button', { name: 'Back on Agua de jamaica' }).waitFor();
    const stored = await db
      .selectFrom('dishes')
      .select('is_available')
      .where('name', '=', 'Agua de jamaica')
      .executeTakeFirstOrThrow();
    assert.equal(Number(stored.is_available), 0);
    await assertAccessible(page, 'order screen with a sold-out dish');
    await assertAccessible(bar.page, 'bar with a sold-out dish');
    await saveScreenshot(page, 'order-86');
    await saveScreenshot(bar.page, 'bar-86');

    // The manager takes flour tortillas off while the tacos' panel is open: it greys out there.
    await menuDish(page, 'Tacos al pastor').click();
    await panel.waitFor();
    assert.equal(await panel.getByLabel('Flour').isEnabled(), true);
    const group = (await call('GET', `/modifier-groups/${tortilla}`)).json() as {
      options: { name: string }[];
    };
    const flourOut = await call('PUT', `/modifier-groups/${tortilla}`, {
      ...group,
      options: group.options.map((option) => ({ ...option, available: option.name !== 'Flour' })),
    });
    assert.equal(flourOut.statusCode, 200, flourOut.body);
    await panel.locator('.plate-option.sold-out', { hasText: 'Flour' }).waitFor({ timeout: 2000 });
    assert.equal(await panel.getByLabel('Flour').isDisabled(), true, 'a sold-out option cannot be chosen');
    assert.equal(await panel.getByLabel('Corn').isEnabled(), true);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });

    // The party of table 4 moves to table 5 and takes its guests and its bill along:
    // 3 × (85 + 10 for the pineapple) + 30 = 315.
    await moveParty(page, '4', '5');
    const five = tableTile(page, '5', 'Occupied');
    await five.filter({ hasText: '$315.00' }).waitFor();
    await five.getByText('2 guests').waitFor();
    await assertAccessible(page, 'floor after the move');
    await saveScreenshot(page, 'walk-moved');

    // Three guests at table 6 order a taco, then join table 5: 315 + 25 = 340 for five guests.
    await openTableAndOrder(page, '6', [{ name: 'Taco de suadero' }], 3);
    await mergeTables(page, '5', '6');
    await five.filter({ hasText: '$340.00' }).waitFor();
    await five.getByText('5 guests').waitFor();
    await assertAccessible(page, 'floor after the merge');
    await saveScreenshot(page, 'walk-merged');

    // The cashier bills table 5 in one bill, each taco at its price with the pineapple, and takes cash.
    const till = await openDevice(browser, baseUrl);
    await logInThroughScreen(till.page, cashier.name, cashier.pin);
    await openTableAtTill(till.page, '5');
    // The cashier sees what each plate was charged for: its options under the dish, in the dish's group order.
    const tacoRows = till.page.getByRole('row', {
      name: /^Tacos al pastor ?Extra pineapple, Corn .*\$95\.00$/,
    });
    await tacoRows.nth(2).waitFor();
    assert.equal(await tacoRows.count(), 3);
    await till.page.getByRole('button', { name: /^One bill for everything \(\$340\.00\)/ }).click();
    assert.match(await payFirstBillCash(till.page), /Change to give: \$10\.00/);
    await till.page.getByText('This order is fully paid.').waitFor();
    await assertAccessible(till.page, 'till, paid');
    await saveScreenshot(till.page, 'walk-paid');
    await seeOrderClosedItself(till.page);
    for (const name of ['4', '5', '6']) await tableTile(page, name, 'Free').waitFor();

    // Each plate cost its dish's price plus its options', and those plates make the bill paid in cash.
    const billed = await db
      .selectFrom('order_dishes')
      .innerJoin('dishes', 'dishes.id', 'order_dishes.dish_id')
      .select(['order_dishes.id', 'order_dishes.price_at_order_cents', 'dishes.price_cents'])
      .where('order_dishes.order_id', '=', orderId)
      .execute();
    const chosen = await db
      .selectFrom('order_dish_modifiers')
      .select(['order_dish_id', 'price_delta_cents'])
      .where(
        'order_dish_id',
        'in',
        billed.map((plate) => plate.id),
      )
      .execute();
    assert.equal(billed.length, 5, 'four plates of table 4 and the taco of table 6');
    for (const plate of billed) {
      const extras = chosen
        .filter((option) => option.order_dish_id === plate.id)
        .reduce((sum, option) => sum + Number(option.price_delta_cents), 0);
      assert.equal(Number(plate.price_at_order_cents), Number(plate.price_cents) + extras);
    }
    const platesCents = billed.reduce((sum, plate) => sum + Number(plate.price_at_order_cents), 0);
    assert.equal(platesCents, 340_00);
    const order = await db
      .selectFrom('orders')
      .select(['status', 'total_cents', 'paid_cents'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      { status: order.status, total: Number(order.total_cents), paid: Number(order.paid_cents) },
      { status: 'completed', total: platesCents, paid: platesCents },
    );
    const payments = await db
      .selectFrom('payments')
      .innerJoin('tickets', 'tickets.id', 'payments.ticket_id')
      .select([
        'tickets.status as bill',
        'tickets.total_cents',
        'payments.method',
        'payments.status',
        'payments.amount_cents',
        'payments.tendered_cents',
        'payments.change_cents',
      ])
      .where('tickets.order_id', '=', orderId)
      .execute();
    assert.deepEqual(
      payments.map((payment) => ({
        bill: Number(payment.bill),
        billTotal: Number(payment.total_cents),
        method: payment.method,
        status: payment.status,
        amount: Number(payment.amount_cents),
        tendered: Number(payment.tendered_cents),
        change: Number(payment.change_cents),
      })),
      [
        {
          bill: TICKET_STATUS.paid,
          billTotal: platesCents,
          method: 'cash',
          status: 'settled',
          amount: platesCents,
          tendered: platesCents + 10_00,
          change: 10_00,
        },
      ],
    );

    assert.deepEqual(floor.consoleErrors, []);
    assert.deepEqual(kitchen.consoleErrors, []);
    assert.deepEqual(bar.consoleErrors, []);
    assert.deepEqual(till.consoleErrors, []);
  });
});
