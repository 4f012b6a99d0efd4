import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { login } from '../../helpers/auth';
import { databaseTargets } from '../../helpers/database';
import { insertDish, insertUser } from '../../helpers/factories';
import { callerFor } from '../../helpers/orders-factories';
import {
  assertAccessible,
  launchBrowser,
  logInThroughScreen,
  openDevice,
  saveScreenshot,
  skipWithoutChromium,
  startPlainWebServer,
} from './browser';
import { deleteThroughScreen, openManagerSection, setUpRestaurant } from './manager-steps';

// The screens are the same whatever the database; the whole-service walk runs on both.
const [target] = databaseTargets as [(typeof databaseTargets)[number]];

const ADMIN = { name: 'Olga', pin: '2468' };

async function createFirstAdmin(page: Page): Promise<void> {
  await page.goto('/app/');
  await page.getByLabel('Name').fill(ADMIN.name);
  await page.getByLabel('PIN').fill(ADMIN.pin);
  await page.getByLabel('Wallet password').fill('a long wallet password');
  await page.getByRole('button', { name: 'Create administrator' }).click();
  await page.getByRole('navigation', { name: 'Screens' }).waitFor();
}

/** The admin opens a shift through the API (with 100.00) and gets a function that bills and pays dishes. */
async function openTill(app: FastifyInstance) {
  const call = callerFor(app, await login(app, ADMIN.name, ADMIN.pin));
  const opened = await call('POST', '/shifts', { opening_cash: 100 });
  assert.equal(opened.statusCode, 201, opened.body);
  const dishes = (await call('GET', '/dishes')).json() as { id: string; name: string }[];
  const dishId = (name: string) => dishes.find((dish) => dish.name === name)?.id;
  const pay = async (names: string[], payment: Record<string, unknown>) => {
    const order = await call('POST', '/orders/with-dishes', {
      order: {},
      dishes: names.map((name) => ({ dish_id: dishId(name) })),
    });
    assert.equal(order.statusCode, 201, order.body);
    const bill = await call('POST', `/orders/${order.json().id}/tickets`, {});
    assert.equal(bill.statusCode, 201, bill.body);
    const paid = await call('POST', `/tickets/${bill.json().id}/payments`, payment);
    assert.equal(paid.statusCode, 201, paid.body);
  };
  return pay;
}

/**
 * Refused requests are part of these tests (a category, space or role in use, the last admin, a
 * rename without a PIN: 400 or 409) and a manager with no open shift gets a 404 from
 * GET /shifts/current. Chromium logs "Failed to load resource" for every 4xx answer, whatever the
 * page does with it; the screens show those answers and the tests assert what they show. Only those
 * requests are let through: any other console error, or a 4xx elsewhere, or any 5xx, fails the test.
 */
const EXPECTED_REFUSAL =
  /^Failed to load resource: the server responded with a status of 4\d\d .*\/(categories|spaces|users|roles)\/[0-9a-f-]+(\?[^)]*)?\)$|^Failed to load resource: the server responded with a status of 404 .*\/shifts\/current\)$/;

function unexpected(consoleErrors: string[]): string[] {
  return consoleErrors.filter((error) => !EXPECTED_REFUSAL.test(error));
}

describe('web app: manager screens', { skip: skipWithoutChromium }, () => {
  it('sets up the restaurant, edits the menu, saves settings and reads the day and the Z report', async (t) => {
    const { app, db, clock, baseUrl } = await startPlainWebServer(t, target);
    // The browser asks for today's sales by its own date: the server's clock must agree.
    clock.set(Date.now());
    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl);
    await createFirstAdmin(page);

    await setUpRestaurant(page, {
      space: 'Terrace',
      tables: ['1', '2', '3', '4'],
      categories: [
        { name: 'Mains', station: 'kitchen' },
        { name: 'Drinks', station: 'bar' },
      ],
      dishes: [
        { name: 'Burger', price: '12.50', category: 'Mains' },
        { name: 'Salad', price: '9.75', category: 'Mains' },
        { name: 'Lemonade', price: '3.20', category: 'Drinks' },
      ],
      staff: [
        { name: 'Wendy', pin: '1111', role: 'waiter' },
        { name: 'Carl', pin: '2222', role: 'kitchen' },
        { name: 'Cathy', pin: '3333', role: 'cashier' },
      ],
    });
    await assertAccessible(page, 'manager staff');
    await saveScreenshot(page, 'manager-staff');
    const users = await db.selectFrom('users').select(['name', 'role']).orderBy('name').execute();
    assert.deepEqual(users, [
      { name: 'Carl', role: 'kitchen' },
      { name: 'Cathy', role: 'cashier' },
      { name: 'Olga', role: 'admin' },
      { name: 'Wendy', role: 'waiter' },
    ]);
    const tables = await db.selectFrom('dining_tables').select('name').orderBy('name').execute();
    assert.deepEqual(
      tables.map((table) => table.name),
      ['1', '2', '3', '4'],
    );

    await openManagerSection(page, 'Spaces and tables');
    await page.getByRole('button', { name: 'Delete Terrace 4', exact: true }).waitFor();
    await assertAccessible(page, 'manager floor');
    await saveScreenshot(page, 'manager-floor');

    // A price edit, typed with decimals, is stored in exact cents; one typed with thousands grouped
    // as the screens print them (1,234.50) is read the same way.
    await openManagerSection(page, 'Menu');
    const editPrice = async (name: string, price: string, shown: string) => {
      await page.getByRole('button', { name: `Edit ${name}`, exact: true }).click();
      const editDish = page.getByRole('form', { name: `Edit dish: ${name}` });
      await editDish.getByLabel('Price', { exact: true }).fill(price);
      await editDish.getByRole('button', { name: 'Save' }).click();
      // The form closes once saved; until then its row shows the typed price too.
      await editDish.waitFor({ state: 'detached' });
      await page
        .getByRole('row', { name: new RegExp(name) })
        .getByRole('cell', { name: shown })
        .waitFor();
    };
    await editPrice('Burger', '1,234.50', '1,234.50');
    await editPrice('Burger', '13.40', '13.40');
    const dishes = await db.selectFrom('dishes').select(['name', 'price_cents']).orderBy('name').execute();
    assert.deepEqual(
      dishes.map((dish) => [dish.name, Number(dish.price_cents)]),
      [
        ['Burger', 1340],
        ['Lemonade', 320],
        ['Salad', 975],
      ],
    );
    const stations = await db.selectFrom('categories').select(['name', 'station']).orderBy('name').execute();
    assert.deepEqual(stations, [
      { name: 'Drinks', station: 'bar' },
      { name: 'Mains', station: 'kitchen' },
    ]);

    // A station of its own: "another station", named; then offered with the others.
    const newCategory = page.getByRole('form', { name: 'New category' });
    await newCategory.getByLabel('Category name', { exact: true }).fill('Grill');
    await newCategory.getByLabel('Station', { exact: true }).selectOption({ label: 'Another station…' });
    await newCategory.getByLabel('Name of the new station').fill('grill');
    await newCategory.getByRole('button', { name: 'Add category' }).click();
    await page.getByRole('button', { name: 'Delete Grill', exact: true }).waitFor();
    const grill = await db
      .selectFrom('categories')
      .select('station')
      .where('name', '=', 'Grill')
      .executeTakeFirst();
    assert.equal(grill?.station, 'grill');
    await newCategory
      .getByLabel('Station', { exact: true })
      .locator('option', { hasText: 'grill' })
      .waitFor({ state: 'attached', timeout: 5000 });

    // A category with dishes cannot go: the server's own message is shown.
    await deleteThroughScreen(page, 'Mains');
    await page
      .getByRole('alert')
      .filter({ hasText: 'Cannot delete category - it may be in use or not found' })
      .waitFor();
    await assertAccessible(page, 'manager menu');
    await saveScreenshot(page, 'manager-menu');

    await openManagerSection(page, 'Settings');
    await page.getByLabel('Business name').fill('La Terraza');
    await page.getByLabel('Tax rate (%)').fill('16');
    await page.getByLabel('Base currency').selectOption('USD');
    await page.getByLabel('Language of the paper').selectOption('en-US');
    // A tip button out of range is refused before anything is sent.
    await page.getByLabel('Tip buttons (%)').fill('10, 150');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Enter up to five different whole percentages' })
      .waitFor();
    await page.getByLabel('Tip buttons (%)').fill('12, 18 25');
    await page.getByLabel('Largest tip (%)').fill('30');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    const settings = (
      await callerFor(app, await login(app, ADMIN.name, ADMIN.pin))('GET', '/settings')
    ).json();
    assert.equal(settings.business_name, 'La Terraza');
    assert.equal(settings.tax_rate, 16);
    assert.equal(settings.base_currency, 'USD');
    assert.equal(settings.locale, 'en-US');
    assert.deepEqual(settings.tip_suggestions, [12, 18, 25]);
    assert.equal(settings.max_tip_percent, 30);
    await assertAccessible(page, 'manager settings');
    await saveScreenshot(page, 'manager-settings');

    // Paid earlier: Burger + Lemonade in cash (16.60), Salad by card with a 1.00 tip (9.75).
    const pay = await openTill(app);
    await pay(['Burger', 'Lemonade'], { method: 'cash', amount: 16.6 });
    await pay(['Salad'], { method: 'card', amount: 9.75, tip: 1 });

    await openManagerSection(page, "Today's sales");
    const totals = page.getByRole('region', { name: 'Totals' });
    await totals.getByText('Gross sales').waitFor();
    assert.match(await totals.innerText(), /Orders\s+2/);
    // In the base currency chosen in the settings.
    assert.match(await totals.innerText(), /Gross sales\s+\$26\.35/);
    assert.match(await totals.innerText(), /Tips\s+\S*1\.00/);
    assert.match(
      await page.getByRole('region', { name: 'By payment method' }).first().innerText(),
      /Cash.*16\.60/s,
    );
    assert.match(await page.getByRole('region', { name: 'By dish' }).first().innerText(), /Burger.*13\.40/s);
    // A bill paid while the report is open shows up without a reload.
    await pay(['Lemonade'], { method: 'card', amount: 3.2 });
    await totals.getByText('$29.55').first().waitFor();
    assert.match(await totals.innerText(), /Orders\s+3/);
    await assertAccessible(page, 'manager sales');
    await saveScreenshot(page, 'manager-sales');

    // Close the shift counting 115.00 of the 116.60 expected: the Z report says 1.60 short.
    await openManagerSection(page, 'Shifts and Z report');
    const current = page.getByRole('region', { name: 'Current shift' });
    assert.match(await current.innerText(), /Expected cash\s+\S*116\.60/);
    await current.getByLabel('Counted cash').fill('115.00');
    await current.getByRole('button', { name: 'Close shift' }).click();
    const report = page.getByRole('region', { name: /^Z report: Olga/ });
    await report.waitFor();
    const reportText = await report.innerText();
    assert.match(reportText, /Bills\s+3/);
    assert.match(reportText, /Gross sales\s+\S*29\.55/);
    assert.match(reportText, /Expected cash\s+\S*116\.60/);
    assert.match(reportText, /Counted cash\s+\S*115\.00/);
    assert.match(reportText, /Difference\s+-\S*1\.60/);
    // No Lightning payment, so no liquidity fee: the line is there all the same, for the accounts.
    assert.match(reportText, /Lightning node fees \(liquidity\)\s+\S*0\.00/);
    await page.getByText('You have no open shift.').waitFor();
    await assertAccessible(page, 'manager Z report');
    await saveScreenshot(page, 'manager-z-report');
    assert.deepEqual(unexpected(consoleErrors), []);

    // The same screens on a phone.
    const phone = await openDevice(browser, baseUrl, 'phone');
    await logInThroughScreen(phone.page, ADMIN.name, ADMIN.pin);
    await openManagerSection(phone.page, 'Menu');
    await phone.page.getByRole('button', { name: 'Delete Lemonade', exact: true }).waitFor();
    await assertAccessible(phone.page, 'manager menu (phone)');
    await saveScreenshot(phone.page, 'manager-menu-phone');
    assert.deepEqual(unexpected(phone.consoleErrors), []);
  });

  it('manages roles and staff with write-only PINs, edits the floor, and refuses what the server refuses', async (t) => {
    const { db, baseUrl } = await startPlainWebServer(t, target);
    const admin = await insertUser(db, { name: 'Marta', pin: '1357', role: 'admin' });
    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl);
    await logInThroughScreen(page, admin.name, admin.pin);
    await setUpRestaurant(page, {
      space: 'Patio',
      tables: ['A', 'B'],
      categories: [{ name: 'Wines', station: 'bar' }],
      dishes: [{ name: 'Rioja', price: '24', category: 'Wines' }],
      staff: [{ name: 'Wendy', pin: '1111', role: 'waiter' }],
    });

    // A role with a set of permissions, changed, then refused deletion while a user has it.
    const newRole = page.getByRole('form', { name: 'New role' });
    await newRole.getByLabel('Role name').fill('sommelier');
    await newRole.getByLabel('Description').fill('Runs the wine list');
    await newRole.getByRole('checkbox', { name: /menu\.write/ }).check();
    await newRole.getByRole('checkbox', { name: /reports\.read/ }).check();
    await newRole.getByRole('button', { name: 'Add role' }).click();
    await page.getByRole('button', { name: 'Edit sommelier', exact: true }).click();
    const editRole = page.getByRole('form', { name: 'Edit role: sommelier' });
    assert.equal(await editRole.getByRole('checkbox', { name: /reports\.read/ }).isChecked(), true);
    await editRole.getByRole('checkbox', { name: /orders\.write/ }).check();
    await editRole.getByRole('button', { name: 'Save' }).click();
    await editRole.waitFor({ state: 'detached' });
    const role = await db
      .selectFrom('roles')
      .selectAll()
      .where('name', '=', 'sommelier')
      .executeTakeFirstOrThrow();
    assert.equal(role.description, 'Runs the wine list');
    assert.deepEqual((JSON.parse(role.permissions) as string[]).sort(), [
      'menu.write',
      'orders.write',
      'reports.read',
    ]);

    // Renaming needs a PIN (its hash is salted with the name): the server says so, then accepts one.
    await page.getByRole('button', { name: 'Edit Wendy', exact: true }).click();
    const editUser = page.getByRole('form', { name: 'Edit staff member: Wendy' });
    assert.equal(await editUser.getByLabel('New PIN').inputValue(), '');
    await editUser.getByLabel('Name', { exact: true }).fill('Wendy R');
    await editUser.getByLabel('Role').selectOption('sommelier');
    await editUser.getByRole('button', { name: 'Save' }).click();
    await editUser.getByRole('alert').filter({ hasText: 'A new PIN is required to rename a user' }).waitFor();
    await editUser.getByLabel('New PIN').fill('4444');
    await editUser.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit Wendy R', exact: true }).waitFor();
    const wendy = await db
      .selectFrom('users')
      .select(['role'])
      .where('name', '=', 'Wendy R')
      .executeTakeFirstOrThrow();
    assert.equal(wendy.role, 'sommelier');

    await deleteThroughScreen(page, 'sommelier');
    await page.getByRole('alert').filter({ hasText: 'The role is assigned to users' }).waitFor();
    await deleteThroughScreen(page, 'Marta');
    await page.getByRole('alert').filter({ hasText: 'Cannot remove the last admin' }).waitFor();
    await deleteThroughScreen(page, 'Wendy R');
    await page.getByRole('button', { name: 'Delete Wendy R', exact: true }).waitFor({ state: 'detached' });

    // The floor: a space with tables cannot go; a table is renamed and another removed.
    await openManagerSection(page, 'Spaces and tables');
    await deleteThroughScreen(page, 'Patio');
    await page.getByRole('alert').filter({ hasText: 'Cannot delete space - it has tables' }).waitFor();
    await page.getByRole('button', { name: 'Edit Patio A', exact: true }).click();
    const editTable = page.getByRole('form', { name: 'Edit table: A' });
    await editTable.getByLabel('Table name').fill('A1');
    await editTable.getByRole('button', { name: 'Save' }).click();
    await deleteThroughScreen(page, 'Patio B');
    await page.getByRole('button', { name: 'Delete Patio B', exact: true }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Rename space Patio', exact: true }).click();
    const renameSpace = page.getByRole('form', { name: 'Rename space: Patio' });
    await renameSpace.getByLabel('Space name').fill('Garden');
    await renameSpace.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit Garden A1', exact: true }).waitFor();
    const tables = await db
      .selectFrom('dining_tables')
      .select('name')
      .where('is_deleted', '=', 0)
      .orderBy('name')
      .execute();
    assert.deepEqual(tables, [{ name: 'A1' }]);

    // Every word of the screen in Spanish too.
    await page.getByLabel('Language').selectOption('es');
    await page.getByRole('heading', { level: 1, name: 'Espacios y mesas' }).waitFor();
    await page
      .getByRole('navigation', { name: 'Secciones de gerencia' })
      .getByRole('link', { name: 'Menú' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Menú' }).waitFor();
    await page.getByRole('button', { name: 'Borrar Rioja', exact: true }).waitFor();
    await assertAccessible(page, 'manager menu (Spanish)');
    assert.deepEqual(unexpected(consoleErrors), []);
  });

  it('lets a manager run the money but not the staff, on a phone, and keeps a waiter out', async (t) => {
    const { app, db, clock, baseUrl } = await startPlainWebServer(t, target);
    clock.set(Date.now());
    const manager = await insertUser(db, { name: 'Mario', pin: '8642', role: 'manager' });
    const waiter = await insertUser(db, { name: 'Wanda', pin: '9753', role: 'waiter' });
    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl, 'phone');
    await logInThroughScreen(page, manager.name, manager.pin);

    await openManagerSection(page, "Today's sales");
    await page.getByText('No bills were paid on this day.').waitFor();
    const sections = page.getByRole('navigation', { name: 'Manager sections' });
    assert.equal(await sections.getByRole('link', { name: 'Staff and roles' }).count(), 0);
    await assertAccessible(page, 'manager sales (phone)');

    // A cashier's shift: opened with 20.00, one bill of 15.00 paid in cash.
    const cashier = await insertUser(db, { name: 'Cathy', pin: '3333', role: 'cashier' });
    const dish = await insertDish(db, { name: 'Paella', priceCents: 1500 });
    const call = callerFor(app, await login(app, cashier.name, cashier.pin));
    assert.equal((await call('POST', '/shifts', { opening_cash: 20 })).statusCode, 201);
    const order = await call('POST', '/orders/with-dishes', { order: {}, dishes: [{ dish_id: dish.id }] });
    assert.equal(order.statusCode, 201, order.body);
    const bill = await call('POST', `/orders/${order.json().id}/tickets`, {});
    const paid = await call('POST', `/tickets/${bill.json().id}/payments`, { method: 'cash', amount: 15 });
    assert.equal(paid.statusCode, 201, paid.body);

    await openManagerSection(page, 'Shifts and Z report');
    await page.getByText('You have no open shift.').waitFor();
    await page.getByLabel('Opening cash').fill('50');
    await page.getByRole('button', { name: 'Open shift' }).click();
    const current = page.getByRole('region', { name: 'Current shift' });
    await current.getByText(/Opened by Mario/).waitFor();
    assert.match(await current.innerText(), /Expected cash\s+\S*50\.00/);
    await assertAccessible(page, 'manager shifts (phone)');
    // Wide tables scroll inside their own region: the page itself never scrolls sideways.
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 390);
    await saveScreenshot(page, 'manager-shifts-phone');

    // The manager closes the cashier's shift from the list and reads its Z report.
    await page.getByRole('button', { name: 'Close shift Cathy', exact: true }).click();
    const closing = page.getByRole('region', { name: 'Close shift: Cathy' });
    assert.match(await closing.innerText(), /Expected cash\s+\S*35\.00/);
    await closing.getByLabel('Counted cash').fill('35');
    await closing.getByRole('button', { name: 'Close shift', exact: true }).click();
    const report = page.getByRole('region', { name: /^Z report: Cathy/ });
    await report.waitFor();
    const reportText = await report.innerText();
    assert.match(reportText, /Bills\s+1/);
    assert.match(reportText, /Net sales\s+\S*15\.00/);
    assert.match(reportText, /Difference\s+\S*0\.00/);
    await closing.waitFor({ state: 'detached' });
    await assertAccessible(page, 'manager Z report (phone)');

    await page.goto('/app/manager/staff');
    await page
      .getByRole('alert')
      .filter({ hasText: 'Only an administrator manages staff and roles.' })
      .waitFor();
    assert.deepEqual(unexpected(consoleErrors), []);

    await page.getByRole('button', { name: 'Log out' }).click();
    await logInThroughScreen(page, waiter.name, waiter.pin);
    assert.equal(await page.getByRole('link', { name: 'Manager' }).count(), 0);
    await page.goto('/app/manager/menu');
    await page
      .getByRole('alert')
      .filter({ hasText: 'Only a manager or an administrator can open this screen.' })
      .waitFor();
  });
});
