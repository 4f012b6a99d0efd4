import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import type { Db } from '../../../src/core/db/database';
import { buildTestApp } from '../../helpers/app';
import { login } from '../../helpers/auth';
import { databaseTargets } from '../../helpers/database';
import { insertTable, insertUser } from '../../helpers/factories';
import { callerFor } from '../../helpers/orders-factories';
import {
  afterTheBrowsers,
  assertAccessible,
  buildWebApp,
  launchBrowser,
  logInThroughScreen,
  openDevice,
  saveScreenshot,
  skipWithoutChromium,
  startPlainWebServer,
} from './browser';

// The screens are the same whatever the database; the whole-service walk runs on both.
const [target] = databaseTargets as [(typeof databaseTargets)[number]];

/**
 * A print without a receipt printer is refused (400) and the till shows the text receipt instead:
 * Chromium logs that refusal as a failed resource. Any other console error fails the test.
 */
const EXPECTED_REFUSAL =
  /^Failed to load resource: the server responded with a status of 400 .*\/tickets\/[0-9a-f-]+\/print\)$/;

/** A manager (who may discount and refund) with an open shift, and an order at table 7 sent to the kitchen. */
async function servedTable(app: FastifyInstance, db: Db) {
  const manager = await insertUser(db, { role: 'manager', name: 'Marta' });
  const call = callerFor(app, await login(app, manager.name, manager.pin));
  const create = async (url: string, body: unknown) => {
    const response = await call('POST', url, body);
    assert.equal(response.statusCode, 201, response.body);
    return response.json().id as string;
  };
  const mains = await create('/categories', { name: 'Mains', type: 'dish' });
  const pizza = await create('/dishes', { name: 'Margherita', price: 12.5, category_id: mains });
  const soup = await create('/dishes', { name: 'Tomato soup', price: 8.25, category_id: mains });
  const table = await insertTable(db, { name: '7' });
  await create('/shifts', { opening_cash: 50 });
  const orderId = await create('/orders/with-dishes', {
    order: { table_id: table.id },
    dishes: [{ dish_id: pizza }, { dish_id: soup }],
  });
  return { manager, call, orderId };
}

/** The figure of the till's Z report card named `label`. */
function shiftFigure(page: Page, label: string) {
  return page.locator(`.till-shift-figure[data-figure="${label}"] dd`);
}

describe('web app: the till, complete', { skip: skipWithoutChromium }, () => {
  it('takes a discount, a partial payment with a tip, the rest in cash, a refund and a reprint, with the Z report live', async (t) => {
    const { app, db, baseUrl } = await startPlainWebServer(t, target);
    const { manager, call, orderId } = await servedTable(app, db);
    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl);
    // A second tablet of the same cashier shows the till's list with the open shift's Z report.
    const list = await openDevice(browser, baseUrl);
    await logInThroughScreen(page, manager.name, manager.pin);
    await logInThroughScreen(list.page, manager.name, manager.pin);
    await list.page.goto('/app/till');
    await list.page.getByRole('heading', { name: 'Your shift: Z report so far' }).waitFor();
    await shiftFigure(list.page, 'Bills').getByText('0', { exact: true }).waitFor();

    // A 10 % discount with its reason on the one bill for everything: 20.75 − 2.08 = 18.67.
    await page.goto(`/app/till/${orderId}`);
    await page.getByRole('heading', { name: 'Make bills' }).waitFor();
    await page.getByLabel('Percent').check();
    await page.getByLabel('Discount', { exact: true }).fill('10');
    await page.getByLabel('Reason for the discount').fill('Regular customer');
    await assertAccessible(page, 'till with a discount');
    await saveScreenshot(page, 'till-discount');
    await page.getByRole('button', { name: /^One bill for everything/ }).click();
    await page.getByRole('heading', { name: 'Pay Bill 1' }).waitFor();
    const [bill] = (await call('GET', `/orders/${orderId}/tickets`)).json() as {
      id: string;
      discount: number;
      total: number;
    }[];
    assert.ok(bill);
    assert.deepEqual([bill.discount, bill.total], [2.08, 18.67]);
    assert.equal(await page.getByLabel('Amount to pay').inputValue(), '18.67');

    // Part of it by card, 10.00 with a 15 % tip (1.50): 8.67 stays due.
    await page.getByLabel('Amount to pay').fill('10');
    await page.getByRole('button', { name: '15 %' }).click();
    assert.equal(await page.getByLabel('Tip amount').inputValue(), '1.50');
    await page.getByText(/To charge: \D*10\.00 \+ tip \D*1\.50 = \D*11\.50/).waitFor();
    await page.getByRole('button', { name: 'Card', exact: true }).click();
    await assertAccessible(page, 'till paying part of a bill with a tip');
    await saveScreenshot(page, 'till-tip-partial');
    await page.getByRole('button', { name: /^Charge \D*11\.50 by Card$/ }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Part paid\. \D*8\.67 still due on Bill 1\./ })
      .waitFor();
    await page.getByText(/Due: \D*8\.67/).waitFor();
    // The other tablet's Z report moved without a reload: the card payment and its tip.
    await shiftFigure(list.page, 'Tips').getByText(/1\.50/).waitFor();

    // The rest in cash with a typed tip of 1.00: 9.67 due, 20.00 handed over, 10.33 change.
    assert.equal(await page.getByLabel('Amount to pay').inputValue(), '8.67');
    await page.getByLabel('Tip amount').fill('1');
    await page.getByRole('button', { name: 'Cash', exact: true }).click();
    assert.equal(await page.getByLabel('Cash received').inputValue(), '9.67');
    await page.getByLabel('Cash received').fill('20');
    await page.getByRole('button', { name: 'Take cash' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Change to give: \D*10\.33/ })
      .waitFor();
    await page.getByRole('status').filter({ hasText: 'Bill 1 is paid.' }).waitFor();
    await page.getByText('This order is fully paid.').waitFor();
    await shiftFigure(list.page, 'Bills').getByText('1', { exact: true }).waitFor();
    await shiftFigure(list.page, 'Tips').getByText(/2\.50/).waitFor();

    // Refund 4.00 of the card payment, with its reason.
    const payments = page.getByRole('heading', { name: 'Payments of Bill 1' });
    await payments.waitFor();
    await page.locator('.bill-payments tbody tr').nth(1).waitFor();
    await page.getByRole('button', { name: /^Refund the Card payment of \D*10\.00$/ }).click();
    await page.getByLabel('Amount to refund').fill('4');
    await page.getByLabel('Reason for the refund').fill('Cold soup');
    await assertAccessible(page, 'till refunding a payment');
    await saveScreenshot(page, 'till-refund');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Refund recorded.' }).waitFor();
    await page
      .locator('.bill-payments tr[data-status="partially_refunded"]')
      .getByText('Partly refunded')
      .waitFor();
    await shiftFigure(list.page, 'Refunds').getByText(/4\.00/).waitFor();
    // The refund gives money back; it does not make the bill due again.
    await page.locator('.till-bill', { hasText: 'Bill 1' }).getByText('Refunds').waitFor();
    assert.ok(await page.getByText('This order is fully paid.').isVisible());

    // Reprint: no receipt printer is set up, so the text receipt is shown and offered as a file.
    await page.getByRole('button', { name: 'Print the receipt' }).click();
    await page.getByText('No receipt printer is set up: show the receipt or download it.').waitFor();
    const receipt = await page.locator('.receipt-text').textContent();
    assert.match(receipt ?? '', /Margherita/);
    assert.match(receipt ?? '', /Tomato soup/);
    await page.getByRole('link', { name: 'Download the receipt' }).waitFor();
    await assertAccessible(page, 'till with the receipt');
    await saveScreenshot(page, 'till-receipt');
    await assertAccessible(list.page, 'till list with the Z report');
    await saveScreenshot(list.page, 'till-z-report');

    // What the server kept: the discount, both tips, the partial card payment refunded in part.
    const [stored] = (await call('GET', `/orders/${orderId}/tickets`)).json() as {
      id: string;
      status: number;
      discount: number;
      total: number;
      paid: number;
      tips: number;
      balance: number;
    }[];
    assert.ok(stored);
    assert.deepEqual(
      {
        status: stored.status,
        discount: stored.discount,
        total: stored.total,
        paid: stored.paid,
        tips: stored.tips,
      },
      { status: 2, discount: 2.08, total: 18.67, paid: 14.67, tips: 2.5 },
    );
    const kept = (await call('GET', `/tickets/${stored.id}/payments`)).json() as {
      method: string;
      amount: number;
      tip: number;
      status: string;
    }[];
    assert.deepEqual(
      kept
        .map(({ method, amount, tip, status }) => ({ method, amount, tip, status }))
        .sort((a, b) => a.method.localeCompare(b.method)),
      [
        { method: 'card', amount: 10, tip: 1.5, status: 'partially_refunded' },
        { method: 'cash', amount: 8.67, tip: 1, status: 'settled' },
      ],
    );
    assert.deepEqual(
      consoleErrors.filter((error) => !EXPECTED_REFUSAL.test(error)),
      [],
    );
    assert.deepEqual(list.consoleErrors, []);
  });

  it('offers neither discounts nor refunds to a waiter', async (t) => {
    const { app, db, baseUrl } = await startPlainWebServer(t, target);
    const { call, orderId } = await servedTable(app, db);
    const billed = await call('POST', `/orders/${orderId}/tickets`, {});
    assert.equal(billed.statusCode, 201, billed.body);
    const paid = await call('POST', `/tickets/${billed.json().id}/payments`, {
      method: 'card',
      amount: 20.75,
    });
    assert.equal(paid.statusCode, 201, paid.body);
    const waiter = await insertUser(db, { role: 'waiter', name: 'Wendy' });
    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl);
    await logInThroughScreen(page, waiter.name, waiter.pin);

    await page.goto(`/app/till/${orderId}`);
    await page.getByRole('button', { name: 'Payments and receipt of Bill 1' }).click();
    await page.getByRole('heading', { name: 'Payments of Bill 1' }).waitFor();
    await page.locator('.bill-payments tbody tr').first().waitFor();
    assert.equal(
      await page.getByRole('button', { name: /^Refund/ }).count(),
      0,
      'no refund without payments.refund',
    );
    assert.equal(
      await page.getByLabel('Reason for the discount').count(),
      0,
      'no discount without tickets.discount',
    );
    await page.getByRole('button', { name: 'Show the receipt' }).click();
    await page
      .locator('.receipt-text')
      .getByText(/Margherita/)
      .waitFor();
    await assertAccessible(page, 'till for a waiter');
    await saveScreenshot(page, 'till-waiter-paid-bill');

    // The same in Spanish, tips and amounts included.
    await page.getByLabel('Language').selectOption('es');
    await page.getByRole('button', { name: 'Pagos y ticket de Cuenta 1' }).click();
    await page.getByRole('heading', { name: 'Pagos de Cuenta 1' }).waitFor();
    await page.getByRole('heading', { name: 'Ticket de Cuenta 1' }).waitFor();
    await page.getByRole('columnheader', { name: 'Propina' }).waitFor();
    await assertAccessible(page, 'till for a waiter, in Spanish');
    await saveScreenshot(page, 'till-waiter-paid-bill-es');
    assert.deepEqual(consoleErrors, []);
  });
});

describe('web app: onboarding a tablet', { skip: skipWithoutChromium }, () => {
  it('shows the manager the address tablets open as a QR code', async (t) => {
    await buildWebApp();
    // Listening on every interface behind a proxy named pos.casa-pepe.test; the browser is on 127.0.0.1.
    const { app, db } = await buildTestApp(afterTheBrowsers(t), target, {
      env: { HOST: '0.0.0.0', POS_ALLOWED_HOSTS: 'pos.casa-pepe.test' },
    });
    const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    const manager = await insertUser(db, { role: 'manager', name: 'Marta' });
    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl);
    await logInThroughScreen(page, manager.name, manager.pin);

    await page.goto('/app/manager/tablets');
    await page.getByRole('heading', { name: 'Open the POS on a tablet' }).waitFor();
    const qr = page.getByRole('img', { name: 'QR code of the address tablets open' });
    await qr.waitFor();
    assert.match((await qr.getAttribute('src')) ?? '', /^data:image\/svg\+xml/);
    await page.getByRole('link', { name: 'https://pos.casa-pepe.test/app/' }).first().waitFor();
    await page.getByText('Through the HTTPS proxy, with the name set in POS_ALLOWED_HOSTS.').waitFor();
    await assertAccessible(page, 'manager tablets');
    await saveScreenshot(page, 'manager-tablets');
    assert.deepEqual(consoleErrors, []);
  });

  it('shows the address the page was opened at when that is already the LAN address', async (t) => {
    const lanAddress = Object.values(networkInterfaces())
      .flatMap((addresses) => addresses ?? [])
      .find((address) => address.family === 'IPv4' && !address.internal)?.address;
    if (!lanAddress) return t.skip('this machine has no LAN IPv4 address');
    await buildWebApp();
    const { app, db } = await buildTestApp(afterTheBrowsers(t), target, { env: { HOST: '0.0.0.0' } });
    await app.listen({ port: 0, host: '0.0.0.0' });
    const address = app.server.address();
    assert.ok(address && typeof address === 'object');
    const origin = `http://${lanAddress}:${address.port}`;
    const manager = await insertUser(db, { role: 'manager', name: 'Marta' });
    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, origin);
    await logInThroughScreen(page, manager.name, manager.pin);

    await page.goto('/app/manager/tablets');
    await page.getByRole('img', { name: 'QR code of the address tablets open' }).waitFor();
    await page.getByRole('link', { name: `${origin}/app/` }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Other addresses of this server' }).count(), 0);
    // Plain HTTP on the LAN is not a secure context: Chromium says it ignores the server's
    // Cross-Origin-Opener-Policy there (the reason the README puts tablets behind the HTTPS proxy).
    assert.deepEqual(
      consoleErrors.filter(
        (error) => !error.startsWith('The Cross-Origin-Opener-Policy header has been ignored'),
      ),
      [],
    );
  });
});
