import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../src/core/db/database';
import { loggedInUser, login } from '../../helpers/auth';
import { createBill } from '../../helpers/checkout-factories';
import { databaseTargets } from '../../helpers/database';
import { insertTable, insertUser } from '../../helpers/factories';
import { type Caller, callerFor } from '../../helpers/orders-factories';
import { buildWalletTestApp } from '../../helpers/wallet-factories';
import {
  afterTheBrowsers,
  assertAccessible,
  buildWebApp,
  launchBrowser,
  logInThroughScreen,
  openDevice,
  saveScreenshot,
  skipWithoutChromium,
  startWebServer,
} from './browser';
import {
  markDishesReady,
  payFirstBillCash,
  seeOrderClosedItself,
  showLightningInvoice,
  splitEvenlyAndPayCashAndLightning,
} from './kitchen-till-steps';

// The screens are the same whatever the database; the whole-service walk runs on both.
const [target] = databaseTargets as [(typeof databaseTargets)[number]];

/** A small menu through the API: two kitchen dishes and a bar drink; a table named "7". */
async function restaurant(app: FastifyInstance, db: Db) {
  const { user, cookies } = await loggedInUser(app, db, 'admin');
  const admin = callerFor(app, cookies);
  const create = async (url: string, body: unknown) => {
    const response = await admin('POST', url, body);
    assert.equal(response.statusCode, 201, response.body);
    return response.json().id as string;
  };
  const mains = await create('/categories', { name: 'Mains', type: 'dish' });
  const drinks = await create('/categories', { name: 'Drinks', type: 'dish', station: 'bar' });
  const menu = {
    pizza: await create('/dishes', { name: 'Margherita', price: 12.5, category_id: mains }),
    soup: await create('/dishes', { name: 'Tomato soup', price: 8.25, category_id: mains }),
    salad: await create('/dishes', { name: 'Green salad', price: 6, category_id: mains }),
    beer: await create('/dishes', { name: 'Pale ale', price: 4, category_id: drinks }),
  };
  const table = await insertTable(db, { name: '7' });
  // Access tokens live 60 s of the test clock: after moving it, log in again.
  const adminAgain = async () => callerFor(app, await login(app, user.name, user.pin));
  return { admin, adminAgain, menu, table };
}

/** An order at the table with these dishes, sent to the kitchen. */
async function sentOrder(
  call: Caller,
  tableId: string | null,
  dishes: { dish_id: string; notes?: string }[],
) {
  const created = await call('POST', '/orders/with-dishes', { order: { table_id: tableId }, dishes });
  assert.equal(created.statusCode, 201, created.body);
  const orderId = created.json().id as string;
  const sent = await call('POST', `/orders/${orderId}/send`);
  assert.equal(sent.statusCode, 200, sent.body);
  return orderId;
}

describe('web app: kitchen and till', { skip: skipWithoutChromium }, () => {
  it('shows each station its sent dishes, live, and advances them to ready', async (t) => {
    const { app, db, baseUrl, clock } = await startWebServer(t, target);
    const { admin, menu, table } = await restaurant(app, db);
    const orderId = await sentOrder(admin, table.id, [
      { dish_id: menu.pizza, notes: 'No olives' },
      { dish_id: menu.soup },
      { dish_id: menu.beer },
    ]);
    const cook = await insertUser(db, { role: 'kitchen', name: 'Carmen' });
    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl);

    await logInThroughScreen(page, cook.name, cook.pin);
    await page.getByRole('heading', { name: 'Kitchen: Kitchen' }).waitFor();
    const queue = page.getByRole('list', { name: 'Dishes waiting' });
    await queue.getByText('Margherita').waitFor();
    await queue.getByText('No olives').waitFor();
    await queue.getByText('Tomato soup').waitFor();
    await queue.getByText('Table 7').first().waitFor();
    // The order goes by the code its chit prints: the id's first six hex digits.
    await queue
      .getByText(`Order ${orderId.slice(0, 6).toUpperCase()}`, { exact: true })
      .first()
      .waitFor();
    assert.equal(await queue.getByText('Pale ale').count(), 0, 'the bar has its own screen');
    await assertAccessible(page, 'kitchen');

    // A dish added and sent through the API appears without a reload.
    const added = await admin('POST', `/orders/${orderId}/dishes`, [{ dish_id: menu.salad }]);
    assert.equal(added.statusCode, 201, added.body);
    const startedAt = Date.now();
    await admin('POST', `/orders/${orderId}/send`);
    await queue.getByText('Green salad').waitFor({ timeout: 2000 });
    assert.ok(Date.now() - startedAt < 2000);

    await markDishesReady(page, 'kitchen', 1);
    const readyCard = page.locator('.kitchen-dish[data-status="ready"]');
    assert.equal(await readyCard.count(), 1);
    await readyCard.getByText('Ready', { exact: true }).waitFor();
    const readyName = await readyCard.locator('.dish-name').textContent();
    const dishes = (await admin('GET', `/orders/${orderId}/dishes`)).json() as {
      dish_name: string;
      status: string;
    }[];
    assert.deepEqual(
      dishes.filter((dish) => dish.status === 'ready').map((dish) => dish.dish_name),
      [readyName],
    );
    assert.equal(dishes.filter((dish) => dish.status === 'sent').length, 3);

    // Past ten minutes a dish is late: said in words, not by colour alone. A ready dish is not late.
    clock.advance(11 * 60_000);
    await page.reload();
    await page.locator('.kitchen-dish.late').first().getByText('Late').waitFor();
    assert.equal(await page.locator('.kitchen-dish.late').count(), 2);
    assert.equal(await readyCard.locator('.badge.danger').count(), 0);
    await saveScreenshot(page, 'kitchen');

    await page.getByRole('button', { name: 'Bar', exact: true }).click();
    await page.getByRole('heading', { name: 'Kitchen: Bar' }).waitFor();
    await queue.getByText('Pale ale').waitFor();
    assert.equal(await queue.getByText('Margherita').count(), 0);
    assert.equal(new URL(page.url()).search, '?station=bar');
    await markDishesReady(page, 'bar', 1);
    await assertAccessible(page, 'bar');
    assert.deepEqual(consoleErrors, []);
  });

  it('splits an order evenly, takes one half in cash with change and the other by Lightning', async (t) => {
    const { app, db, baseUrl, simulator, clock } = await startWebServer(t, target);
    const { admin: firstAdmin, adminAgain, menu, table } = await restaurant(app, db);
    let admin = firstAdmin;
    // 12.50 + 8.25 + 4.00 = 24.75: halves of 12.38 and 12.37.
    const orderId = await sentOrder(admin, table.id, [
      { dish_id: menu.pizza },
      { dish_id: menu.soup },
      { dish_id: menu.beer },
    ]);
    // Cash needs an open shift here: the till offers to open one.
    const settings = await admin('PUT', '/settings', { require_shift_for_cash: true });
    assert.equal(settings.statusCode, 200, settings.body);
    const cashier = await insertUser(db, { role: 'cashier', name: 'Lucía' });
    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl);
    await logInThroughScreen(page, cashier.name, cashier.pin);

    await page.getByRole('link', { name: 'Till' }).click();
    await page.getByRole('heading', { name: 'Till: open orders' }).waitFor();
    const tile = page.getByRole('button', { name: /Table 7/ });
    await tile.getByText('Due').waitFor();
    assert.match((await tile.textContent()) ?? '', /24\.75/);
    const code = `Order ${orderId.slice(0, 6).toUpperCase()}`;
    assert.match((await tile.textContent()) ?? '', new RegExp(code));
    await assertAccessible(page, 'till list');
    await saveScreenshot(page, 'till');

    await tile.click();
    await page.getByRole('heading', { name: 'Table 7' }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/app/till/${orderId}`);
    await page.getByText(code).waitFor();
    await page.getByRole('cell', { name: 'Margherita' }).waitFor();
    await assertAccessible(page, 'till order');
    await page.getByLabel('Number of parts').fill('2');
    await page.getByText('12.38').first().waitFor();
    await page.getByRole('button', { name: 'Split evenly', exact: true }).click();
    await page.getByRole('button', { name: 'Pay Bill 2' }).waitFor();
    // Two parts a cent apart that add up exactly (the frozen test clock orders them by id).
    const bills = (await admin('GET', `/orders/${orderId}/tickets`)).json() as { total: number }[];
    assert.deepEqual(bills.map((bill) => bill.total).sort(), [12.37, 12.38]);

    const change = await payFirstBillCash(page);
    assert.match(change, /Change to give: \D*10\.00/);
    const shift = await callerFor(app, await login(app, cashier.name, cashier.pin))('GET', '/shifts/current');
    assert.equal(shift.statusCode, 200, 'the till opened a shift for the cash');
    await page
      .locator('.till-bill[data-status="2"]', { hasText: 'Bill 1' })
      .locator('.badge', { hasText: 'Paid' })
      .waitFor();

    await page.getByRole('button', { name: 'Pay Bill 2' }).click();
    const invoice = await showLightningInvoice(page);
    assert.match(invoice, /^lnbc/);
    // 12.37 at 2,000,000.00 a bitcoin is 618.5 sats, rounded up; 12.38 is 619 sats.
    await page.getByText('619 sats').waitFor();
    await assertAccessible(page, 'till lightning');
    await saveScreenshot(page, 'till-lightning');

    // An invoice left unpaid past its expiry (15 minutes) is replaced by a new one.
    clock.advance(16 * 60_000);
    admin = await adminAgain();
    await page.getByText('The invoice expired before it was paid.').waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'New invoice' }).click();
    await page.getByRole('img', { name: 'QR code of the Lightning invoice' }).waitFor();
    const fresh = await page.getByLabel('Invoice (BOLT11)').inputValue();
    assert.notEqual(fresh, invoice);

    await simulator.receivePayment(fresh);
    await page.getByText('Paid with Lightning').waitFor({ timeout: 15_000 });
    await page.getByText('This order is fully paid.').waitFor({ timeout: 15_000 });
    const order = (await admin('GET', `/orders/${orderId}`)).json();
    assert.deepEqual([order.paid, order.balance], [24.75, 0]);
    await assertAccessible(page, 'till paid');
    await saveScreenshot(page, 'till-paid');

    // The walk's steps: the kitchen, then the till, on a new order.
    const second = await sentOrder(admin, null, [{ dish_id: menu.soup }, { dish_id: menu.beer }]);
    const cook = await insertUser(db, { role: 'kitchen', name: 'Carmen' });
    const kitchen = await openDevice(browser, baseUrl);
    await logInThroughScreen(kitchen.page, cook.name, cook.pin);
    await markDishesReady(kitchen.page, 'bar', 1);
    await splitEvenlyAndPayCashAndLightning(page, second, simulator);
    assert.equal((await admin('GET', `/orders/${second}`)).json().balance, 0);

    // A phone shows the same, without sideways scrolling.
    const phone = await openDevice(browser, baseUrl, 'phone');
    await logInThroughScreen(phone.page, cashier.name, cashier.pin);
    await phone.page.goto(`/app/till/${orderId}`);
    await phone.page.getByText('This order is fully paid.').waitFor();
    await assertAccessible(phone.page, 'till on a phone');
    const width = await phone.page.evaluate(
      () =>
        (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
          .documentElement.scrollWidth,
    );
    assert.ok(width <= 390, `the till is ${width}px wide on a phone`);
    await saveScreenshot(phone.page, 'till-phone');

    await seeOrderClosedItself(page);
    assert.equal((await admin('GET', `/orders/${second}`)).json().status, 'completed');
    await page.getByRole('button', { name: 'Back to the floor' }).click();
    await page.waitForURL('**/app/floor');
    // Moving the test clock 16 minutes expires the till's access token at once: its next requests
    // are refused (401), the app refreshes the session and sends them again. Chromium logs the
    // refusals; nothing else may be logged.
    const afterClockJump = consoleErrors.filter((error) => !/status of 401 \(Unauthorized\)/.test(error));
    assert.deepEqual([...afterClockJump, ...kitchen.consoleErrors, ...phone.consoleErrors], []);
  });

  it('bills chosen dishes and the rest, takes a card, and speaks Spanish', async (t) => {
    const { app, db, baseUrl } = await startWebServer(t, target);
    const { admin, menu } = await restaurant(app, db);
    const orderId = await sentOrder(admin, null, [{ dish_id: menu.pizza }, { dish_id: menu.soup }]);
    const cashier = await insertUser(db, { role: 'cashier' });
    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl);
    await logInThroughScreen(page, cashier.name, cashier.pin);

    await page.goto('/app/till');
    await page.getByRole('button', { name: /Counter/ }).click();
    await page.getByRole('heading', { name: 'Counter order' }).waitFor();
    await page.getByRole('checkbox', { name: /Margherita/ }).check();
    await page.getByRole('button', { name: 'Bill the chosen dishes (1)' }).click();
    await page
      .getByRole('row', { name: /Margherita/ })
      .getByText('On a bill')
      .waitFor();
    await page.getByRole('button', { name: /One bill for everything \(\D*8\.25\)/ }).click();
    await page.getByRole('button', { name: 'Pay Bill 2' }).waitFor();
    const bills = (await admin('GET', `/orders/${orderId}/tickets`)).json() as { total: number }[];
    assert.deepEqual(bills.map((bill) => bill.total).sort(), [12.5, 8.25].sort());

    await page.getByRole('button', { name: 'Pay Bill 1' }).click();
    await page.getByRole('button', { name: 'Card', exact: true }).click();
    // The frozen test clock gives both bills one creation time: which is Bill 1 is up to their ids.
    await page.getByRole('button', { name: /Charge \D*(12\.50|8\.25) by Card/ }).click();
    await page.getByRole('status').filter({ hasText: 'Bill 1 is paid.' }).waitFor();

    await page.getByLabel('Language').selectOption('es');
    await page.getByRole('button', { name: 'Cobrar Cuenta 2' }).click();
    await page.getByRole('button', { name: 'Efectivo', exact: true }).click();
    const due = Number((await page.getByLabel('Efectivo recibido').inputValue()).replace(',', '.'));
    await page.getByLabel('Efectivo recibido').fill('20');
    // Mexican Spanish writes money as in the United States (issue 29): $11.75, not 11,75 €.
    await page.getByText(`Cambio: $${(20 - due).toFixed(2)}`).waitFor();
    await page.getByRole('button', { name: 'Cobrar en efectivo' }).click();
    await page.getByText('Este pedido está pagado por completo.').waitFor();
    await assertAccessible(page, 'till in Spanish');
    assert.equal((await admin('GET', `/orders/${orderId}`)).json().balance, 0);
    assert.deepEqual(consoleErrors, []);
  });

  it('says so when Lightning has no exchange rate', async (t) => {
    await buildWebApp();
    const rateSource = {
      name: 'down',
      fetchBtcPrice: async (): Promise<number> => {
        throw new Error('price API down');
      },
    };
    const { app, db } = await buildWalletTestApp(afterTheBrowsers(t), target, {
      rateSource,
      startJobs: true,
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const { admin, menu } = await restaurant(app, db);
    const orderId = await sentOrder(admin, null, [{ dish_id: menu.soup }]);
    await createBill(admin, orderId);
    const cashier = await insertUser(db, { role: 'cashier' });
    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, address);
    await logInThroughScreen(page, cashier.name, cashier.pin);

    await page.goto(`/app/till/${orderId}`);
    await page.getByRole('button', { name: 'Pay Bill 1' }).click();
    await page.getByRole('button', { name: 'Lightning', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Lightning is unavailable: there is no current exchange rate.' })
      .waitFor();
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    await assertAccessible(page, 'till without exchange rate');
    // The refusal itself is the one error the browser logs.
    assert.deepEqual(
      consoleErrors.filter((error) => !/status of 503/.test(error)),
      [],
    );
  });

  it('tells the cashier to take another method when the Lightning node does not answer', async (t) => {
    const { app, db, baseUrl, simulator } = await startWebServer(t, target);
    const { admin, menu } = await restaurant(app, db);
    const orderId = await sentOrder(admin, null, [{ dish_id: menu.soup }]);
    await createBill(admin, orderId);
    const cashier = await insertUser(db, { role: 'cashier' });
    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl);
    await logInThroughScreen(page, cashier.name, cashier.pin);

    simulator.setMode({ kind: 'down' });
    await page.goto(`/app/till/${orderId}`);
    await page.getByRole('button', { name: 'Pay Bill 1' }).click();
    await page.getByRole('button', { name: 'Lightning', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Lightning is unavailable: take another payment method.' })
      .waitFor();
    // The same in Spanish (switching the language closes the panel: it is opened again).
    await page.getByLabel('Language').selectOption({ label: 'Español' });
    await page.getByRole('button', { name: 'Cobrar Cuenta 1' }).click();
    await page.getByRole('button', { name: 'Lightning', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({
        hasText:
          'Lightning no está disponible: cobra con otra forma de pago. (El nodo Lightning no responde.)',
      })
      .waitFor();
    await saveScreenshot(page, 'till-lightning-node-down-es');
    // The card still works: the cashier takes another method.
    await page.getByRole('button', { name: 'Tarjeta', exact: true }).waitFor();
    assert.deepEqual(
      consoleErrors.filter((error) => !/status of 503/.test(error)),
      [],
    );
  });
});
