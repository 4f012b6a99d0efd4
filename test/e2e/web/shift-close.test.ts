import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { login } from '../../helpers/auth';
import { databaseTargets } from '../../helpers/database';
import { insertUser } from '../../helpers/factories';
import { type Caller, callerFor } from '../../helpers/orders-factories';
import {
  launchBrowser,
  logInThroughScreen,
  openDevice,
  saveScreenshot,
  skipWithoutChromium,
  startPlainWebServer,
} from './browser';

// The screens are the same whatever the database.
const [target] = databaseTargets as [(typeof databaseTargets)[number]];

async function created(call: Caller, url: string, body: unknown): Promise<string> {
  const response = await call('POST', url, body);
  assert.equal(response.statusCode, 201, response.body);
  return response.json().id as string;
}

describe('web app: closing a shift and the day report', { skip: skipWithoutChromium }, () => {
  it('a cashier closes her own shift blind from the till; the manager sees the day report with money outside a shift', async (t) => {
    const { app, db, baseUrl } = await startPlainWebServer(t, target);
    const admin = await insertUser(db, { role: 'admin', name: 'Alma' });
    const cashier = await insertUser(db, { role: 'cashier', name: 'Carla' });
    const manager = await insertUser(db, { role: 'manager', name: 'Marta' });
    const asAdmin = callerFor(app, await login(app, admin.name, admin.pin));
    const asCashier = callerFor(app, await login(app, cashier.name, cashier.pin));
    assert.equal((await asAdmin('PUT', '/settings', { blind_shift_close: true })).statusCode, 200);
    const mains = await created(asAdmin, '/categories', { name: 'Mains', type: 'dish' });
    const pizza = await created(asAdmin, '/dishes', { name: 'Margherita', price: 12.5, category_id: mains });
    const order = async () =>
      created(asAdmin, '/orders/with-dishes', { order: {}, dishes: [{ dish_id: pizza }] });

    // Before any till opens, the admin takes a card for a pizza: money outside any shift.
    const early = await created(asAdmin, `/orders/${await order()}/tickets`, {});
    await created(asAdmin, `/tickets/${early}/payments`, { method: 'card', amount: 12.5 });
    // Carla opens her shift with 100.00 and takes two pizzas in cash.
    await created(asCashier, '/shifts', { opening_cash: 100 });
    for (let index = 0; index < 2; index++) {
      const bill = await created(asCashier, `/orders/${await order()}/tickets`, {});
      await created(asCashier, `/tickets/${bill}/payments`, { method: 'cash', amount: 12.5 });
    }

    const browser = await launchBrowser(t);
    const till = await openDevice(browser, baseUrl);
    await logInThroughScreen(till.page, cashier.name, cashier.pin);
    await till.page.goto('/app/till');
    await till.page.getByRole('heading', { name: 'Close my shift' }).waitFor();
    // Blind: the expected cash (125.00) is not on the screen before she counts.
    await till.page.getByText('Hidden until you count').waitFor();
    assert.equal(await till.page.getByText('125.00').count(), 0, 'expected cash hidden');
    await saveScreenshot(till.page, 'shift-close-1-blind-till');
    await till.page.getByLabel('Cash counted in the drawer').fill('120');
    await till.page.getByRole('button', { name: 'Close my shift' }).click();
    const closed = till.page.getByRole('region', { name: 'Shift closed' });
    await closed.waitFor();
    await closed.getByText('125.00').waitFor();
    await closed.getByText(/[-−].*5\.00/).waitFor();
    await saveScreenshot(till.page, 'shift-close-2-closed');

    const office = await openDevice(browser, baseUrl);
    await logInThroughScreen(office.page, manager.name, manager.pin);
    await office.page.goto('/app/manager/sales');
    // The server's clock is the test's (22 November), not the browser's.
    await office.page.getByLabel('Day', { exact: true }).fill('2026-11-22');
    const day = office.page.locator('section.day-report');
    await day.getByRole('heading', { name: 'Day report (X/Z of the restaurant)' }).waitFor();
    const outside = day.locator('tr[data-shift="outside"]');
    await outside.getByRole('rowheader', { name: 'Outside any shift' }).waitFor();
    await outside.getByText('12.50').first().waitFor();
    await day.getByRole('rowheader', { name: 'Shift of Carla' }).waitFor();
    await day.getByText('37.50').first().waitFor();
    await saveScreenshot(office.page, 'shift-close-3-day-report');
    assert.deepEqual([...till.consoleErrors, ...office.consoleErrors], []);
  });
});
