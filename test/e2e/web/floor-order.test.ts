import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cookieHeader } from '../../helpers/app';
import { databaseTargets } from '../../helpers/database';
import { insertCategory, insertDish, insertSpace, insertTable, insertUser } from '../../helpers/factories';
import {
  assertAccessible,
  launchBrowser,
  logInThroughScreen,
  openDevice,
  saveScreenshot,
  skipWithoutChromium,
  startPlainWebServer,
} from './browser';
import {
  expectTableFree,
  expectTableOccupied,
  goToFloor,
  menuDish,
  openFreeTable,
  openTableAndOrder,
  orderedDishes,
  tableTile,
  waitForDishStatuses,
} from './floor-order-steps';

// The screens are the same whatever the database; the whole-service walk runs on both.
const [target] = databaseTargets as [(typeof databaseTargets)[number]];

type OrderComplete = {
  order: { id: string; total: number };
  dishes: { id: string; status: string; dish_name: string; notes: string }[];
};

describe('web app: floor and order taking', { skip: skipWithoutChromium }, () => {
  it('a waiter opens table 4, orders three dishes and sees the kitchen move them live', async (t) => {
    const { baseUrl, db, app } = await startPlainWebServer(t, target);
    const waiter = await insertUser(db, { role: 'waiter' });
    const cook = await insertUser(db, { role: 'kitchen' });
    const manager = await insertUser(db, { role: 'manager' });
    const room = await insertSpace(db, { name: 'Dining room' });
    const terrace = await insertSpace(db, { name: 'Terrace' });
    for (const name of ['1', '2', '3', '4']) await insertTable(db, { name, spaceId: room.id });
    await insertTable(db, { name: 'T1', spaceId: terrace.id });
    const starters = await insertCategory(db, { name: 'Starters', type: 'dish' });
    const mains = await insertCategory(db, { name: 'Mains', type: 'dish' });
    await insertCategory(db, { name: 'Cellar', type: 'product' });
    await insertDish(db, { name: 'Gazpacho', priceCents: 650, categoryId: starters.id });
    await insertDish(db, { name: 'Croquetas', priceCents: 800, categoryId: starters.id });
    await insertDish(db, { name: 'Paella', priceCents: 1850, categoryId: mains.id });

    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl, 'tablet');
    await logInThroughScreen(page, waiter.name, waiter.pin);
    await goToFloor(page);
    await page.getByRole('heading', { level: 2, name: 'Dining room' }).waitFor();
    await tableTile(page, '4', 'Free').waitFor();
    await assertAccessible(page, 'floor (tablet)');
    await saveScreenshot(page, 'floor');

    const orderId = await openTableAndOrder(page, '4', [
      { name: 'Gazpacho' },
      { name: 'Paella', note: 'No seafood' },
      { name: 'Croquetas' },
    ]);
    await waitForDishStatuses(page, 'Sent', 3);
    assert.equal(await orderedDishes(page).count(), 3);
    await orderedDishes(page).filter({ hasText: 'No seafood' }).filter({ hasText: 'Paella' }).waitFor();
    // The test box's base currency is the Mexican peso, written $33.00 (issue 29: not MX$33.00).
    await page
      .getByText(/^\$33\.00$/)
      .first()
      .waitFor();
    assert.equal(await page.getByRole('link', { name: 'Bill' }).getAttribute('href'), `/app/till/${orderId}`);
    assert.equal(await page.getByRole('region', { name: 'Menu' }).getByText('Cellar').count(), 0);

    // What the server stored is what the waiter entered, once.
    const stored = (await (await page.request.get(`/orders/${orderId}/complete`)).json()) as OrderComplete & {
      dishes: { notes: string; dish_name: string }[];
    };
    assert.equal(stored.dishes.length, 3);
    assert.equal(stored.order.total, 33);
    assert.deepEqual(stored.dishes.map((dish) => [dish.dish_name, dish.notes]).sort(), [
      ['Croquetas', ''],
      ['Gazpacho', ''],
      ['Paella', 'No seafood'],
    ]);

    // The kitchen, on its own device, moves a dish: the waiter's screen follows without a reload.
    const kitchen = await openDevice(browser, baseUrl, 'tablet');
    await logInThroughScreen(kitchen.page, cook.name, cook.pin);
    const paella = stored.dishes.find((dish) => dish.dish_name === 'Paella') as { id: string };
    for (const status of ['preparing', 'ready']) {
      const moved = await kitchen.page.request.put(`/orders/${orderId}/dishes/${paella.id}/status`, {
        data: { status },
      });
      assert.equal(moved.status(), 200, await moved.text());
    }
    await waitForDishStatuses(page, 'Ready', 1);
    await waitForDishStatuses(page, 'Sent', 2);
    await orderedDishes(page).filter({ hasText: 'Paella' }).getByText('Ready').waitFor();
    await assertAccessible(page, 'order (tablet)');
    await saveScreenshot(page, 'order');

    // The floor shows the table taken, with its total.
    await expectTableOccupied(page, '4');
    await tableTile(page, '4', 'Occupied').filter({ hasText: '$33.00' }).waitFor();
    await tableTile(page, '1', 'Free').waitFor();

    // Tapping the occupied table opens its order rather than a second one.
    await tableTile(page, '4').click();
    await page.waitForURL(`**/app/orders/${orderId}`);
    await waitForDishStatuses(page, 'Ready', 1);

    // A manager cancels the order elsewhere: the floor frees the table live.
    await goToFloor(page);
    const login = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { name: manager.name, pin: manager.pin },
    });
    const cancelled = await app.inject({
      method: 'PUT',
      url: `/orders/${orderId}`,
      headers: { cookie: cookieHeader(login) },
      payload: { status: 'cancelled' },
    });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    await expectTableFree(page, '4');

    // Phone size: both screens stay accessible.
    const phone = await openDevice(browser, baseUrl, 'phone');
    await logInThroughScreen(phone.page, waiter.name, waiter.pin);
    await goToFloor(phone.page);
    await tableTile(phone.page, '4', 'Free').waitFor();
    await assertAccessible(phone.page, 'floor (phone)');
    await saveScreenshot(phone.page, 'floor-phone');
    const phoneOrder = await openTableAndOrder(phone.page, '2', [{ name: 'Gazpacho', note: 'Extra bread' }]);
    assert.notEqual(phoneOrder, orderId);
    await waitForDishStatuses(phone.page, 'Sent', 1);
    await assertAccessible(phone.page, 'order (phone)');
    await saveScreenshot(phone.page, 'order-phone');

    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(kitchen.consoleErrors, []);
    assert.deepEqual(phone.consoleErrors, []);
  });

  it('says what a role may not do, and lets staff remove a dish not yet sent and serve one ready', async (t) => {
    const { baseUrl, db } = await startPlainWebServer(t, target);
    const waiter = await insertUser(db, { role: 'waiter' });
    const staff = await insertUser(db, { role: 'staff' });
    const cook = await insertUser(db, { role: 'kitchen' });
    const space = await insertSpace(db, { name: 'Bar' });
    await insertTable(db, { name: '9', spaceId: space.id });
    const tapas = await insertCategory(db, { name: 'Tapas', type: 'dish' });
    await insertDish(db, { name: 'Olives', priceCents: 300, categoryId: tapas.id });
    await insertDish(db, { name: 'Tortilla', priceCents: 550, categoryId: tapas.id });

    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl, 'tablet');
    await logInThroughScreen(page, waiter.name, waiter.pin);
    await goToFloor(page);
    await openFreeTable(page, '9');
    await page.getByRole('heading', { level: 1, name: 'Table 9' }).waitFor();
    await menuDish(page, 'Olives').click();
    await waitForDishStatuses(page, 'Pending', 1);

    // A cook (no orders.write) reads the order but is offered no menu to add from, nor Send (issue 35).
    const cookDevice = await openDevice(browser, baseUrl, 'tablet');
    await logInThroughScreen(cookDevice.page, cook.name, cook.pin);
    await cookDevice.page.goto(new URL(page.url()).pathname);
    await cookDevice.page.getByRole('heading', { level: 1, name: 'Table 9' }).waitFor();
    await cookDevice.page.getByText('Olives').waitFor();
    assert.equal(await cookDevice.page.getByRole('region', { name: 'Menu' }).count(), 0, 'no menu');
    assert.equal(await cookDevice.page.getByRole('button', { name: /^Send/ }).count(), 0, 'no Send');

    // Staff may: on another tablet they open the same (now occupied) table and remove it; the
    // waiter's screen follows live.
    const other = await openDevice(browser, baseUrl, 'tablet');
    await logInThroughScreen(other.page, staff.name, staff.pin);
    await goToFloor(other.page);
    await tableTile(other.page, '9', 'Occupied').click();
    await other.page.getByRole('heading', { level: 1, name: 'Table 9' }).waitFor();
    await other.page.getByRole('button', { name: 'Remove Olives' }).click();
    await other.page.getByText('No dishes yet. Tap a dish of the menu to add it.').waitFor();
    await page.getByText('No dishes yet. Tap a dish of the menu to add it.').waitFor();

    // A dish the kitchen made ready is marked served from the order screen.
    const orderId = await openTableAndOrder(other.page, '9', [{ name: 'Tortilla', note: 'Runny' }]);
    const complete = (await (
      await other.page.request.get(`/orders/${orderId}/complete`)
    ).json()) as OrderComplete;
    const tortilla = complete.dishes[0] as { id: string };
    for (const status of ['preparing', 'ready']) {
      const moved = await other.page.request.put(`/orders/${orderId}/dishes/${tortilla.id}/status`, {
        data: { status },
      });
      assert.equal(moved.status(), 200, await moved.text());
    }
    await waitForDishStatuses(other.page, 'Ready', 1);
    await other.page.getByRole('button', { name: 'Mark served Tortilla' }).click();
    await waitForDishStatuses(other.page, 'Served', 1);
    await waitForDishStatuses(page, 'served', 1);

    // Spanish: the same screens, every word translated.
    await page.getByLabel('Language').selectOption('es');
    await page.getByRole('heading', { level: 2, name: 'Platillos pedidos' }).waitFor();
    await page
      .locator('.dish-status')
      .filter({ hasText: /: Servido$/ })
      .waitFor();
    await page.getByRole('link', { name: 'Sala' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sala' }).waitFor();
    await page.getByRole('button', { name: /^Mesa 9 Ocupada/ }).waitFor();
    await assertAccessible(page, 'floor (Spanish)');
    // The cook's screen asked for nothing it may not have.
    assert.deepEqual(cookDevice.consoleErrors, []);
    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(other.consoleErrors, []);
  });
});
