import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { describeEachDatabase } from '../../helpers/app';
import { login } from '../../helpers/auth';
import { insertSpace, insertTable, insertUser } from '../../helpers/factories';
import { type Caller, callerFor } from '../../helpers/orders-factories';
import {
  assertAccessible,
  launchBrowser,
  logInThroughScreen,
  openDevice,
  saveScreenshot,
  skipWithoutChromium,
  startPlainWebServer,
} from './browser';
import { menuDish, openTableAndOrder } from './floor-order-steps';

/** The test server's clock stands on this day, in UTC and in the restaurant's zone alike. */
const TODAY = '2026-11-22';

async function created(call: Caller, url: string, body: unknown): Promise<string> {
  const response = await call('POST', url, body);
  assert.equal(response.statusCode, 201, response.body);
  return (response.json() as { id: string }).id;
}

/** The storeroom: masa (none yet) for the tamales, cheese, and bottles of cola; the tamal has no recipe yet. */
async function storeroom(call: Caller) {
  const dryStore = await created(call, '/categories', { name: 'Dry store', type: 'ingredient' });
  const masa = await created(call, '/ingredients', {
    name: 'Masa',
    category_id: dryStore,
    quantity: 0,
    unit: 'kg',
    reorder_level: 0.5,
  });
  const cheese = await created(call, '/ingredients', {
    name: 'Cheese',
    category_id: dryStore,
    quantity: 2,
    unit: 'kg',
    reorder_level: 0.5,
  });
  const bottles = await created(call, '/categories', { name: 'Bottles', type: 'product' });
  const cola = await created(call, '/products', {
    name: 'Cola',
    sku: 'COLA-355',
    price: 25,
    quantity: 24,
    category_id: bottles,
    reorder_level: 6,
  });
  const antojitos = await created(call, '/categories', {
    name: 'Antojitos',
    type: 'dish',
    station: 'kitchen',
  });
  const tamal = await created(call, '/dishes', { name: 'Tamal', price: 30, category_id: antojitos });
  return { masa, cheese, cola, tamal };
}

/** An item's row of the stock table. */
function stockRow(page: Page, key: string) {
  return page.locator(`#stock-${key}`);
}

/** Receives, wastes or adjusts through the Inventory screen's movement form. */
async function recordMovement(
  page: Page,
  movement: { item: string; reason: 'Receiving' | 'Waste' | 'Adjustment'; amount: string; note?: string },
): Promise<void> {
  const form = page.getByRole('form', { name: 'Receive a delivery, waste or adjust' });
  await form.getByLabel('Item').selectOption({ label: movement.item });
  await form.getByLabel('Reason').selectOption({ label: movement.reason });
  await form.locator('#movement-amount').fill(movement.amount);
  await form.getByLabel('Note').fill(movement.note ?? '');
  await form.getByRole('button', { name: 'Record' }).click();
  await form.getByRole('status').filter({ hasText: 'Stock movement recorded.' }).waitFor();
}

/** Sets both dates of the report in one task, as two change events the screen gets before it redraws. */
async function changeBothDates(page: Page, span: { from: string; to: string }): Promise<void> {
  await page.evaluate((dates) => {
    for (const [id, value] of [
      ['inventory-from', dates.from],
      ['inventory-to', dates.to],
    ] as const) {
      const input = document.getElementById(id) as HTMLInputElement;
      input.value = value;
      input.dispatchEvent(new Event('change', { bubbles: true }));
    }
  }, span);
}

/** Waits until a report line shows these cells; a report that never gets there fails within 5 s. */
async function waitForCells(line: Locator, cells: string[]): Promise<void> {
  const expected = JSON.stringify(cells);
  for (const started = Date.now(); Date.now() - started < 5000; ) {
    if (JSON.stringify(await line.locator('td').allTextContents()) === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.deepEqual(await line.locator('td').allTextContents(), cells, 'the report line');
}

describeEachDatabase('web app: inventory that moves', (target) => {
  it('receives masa, sells tamales until it runs out (the waiter sees it by itself), receives again, counts on a phone and reports', {
    skip: skipWithoutChromium,
  }, async (t) => {
    const { app, db, baseUrl } = await startPlainWebServer(t, target);
    const manager = await insertUser(db, { name: 'Mara', role: 'manager' });
    const waiter = await insertUser(db, { name: 'Wendy', role: 'waiter' });
    const call = callerFor(app, await login(app, manager.name, manager.pin));
    const space = await insertSpace(db, { name: 'Patio' });
    await insertTable(db, { name: '1', spaceId: space.id });
    const { masa, cola, tamal } = await storeroom(call);
    const masaKey = `ingredient-${masa}`;
    const colaKey = `product-${cola}`;

    const browser = await launchBrowser(t);
    const office = await openDevice(browser, baseUrl);
    const page = office.page;
    await logInThroughScreen(page, manager.name, manager.pin);

    // A tamal takes a quarter kilo of masa: the recipe is set on the dish's form.
    await page.goto('/app/manager/menu');
    await page.getByRole('button', { name: 'Edit Tamal', exact: true }).click();
    const dishForm = page.getByRole('form', { name: 'Edit dish: Tamal' });
    await dishForm.getByRole('button', { name: 'Add ingredient' }).click();
    await dishForm.getByLabel('Ingredient or product').selectOption({ label: 'Masa (kg)' });
    await dishForm.getByLabel('Quantity (kg)').fill('0.25');
    await dishForm.getByRole('button', { name: 'Save' }).click();
    await dishForm.waitFor({ state: 'detached' });
    const dish = (await call('GET', `/dishes/${tamal}`)).json() as {
      recipe: { ingredient_id?: string; quantity: number }[];
      out_of_stock: boolean;
    };
    assert.deepEqual(dish.recipe, [{ ingredient_id: masa, quantity: 0.25 }]);
    assert.equal(dish.out_of_stock, true, 'no masa yet');

    // The Inventory screen: masa, out, comes first; cola is above its reorder level.
    await page.goto('/app/manager/inventory');
    await page.getByRole('heading', { level: 1, name: 'Inventory' }).waitFor();
    const firstRow = page.locator('.stock-table tbody tr').first();
    assert.equal(await firstRow.getAttribute('id'), `stock-${masaKey}`, 'the low item first');
    assert.match((await stockRow(page, masaKey).getAttribute('class')) ?? '', /low-stock/);
    await stockRow(page, masaKey).getByText('Out', { exact: true }).waitFor();
    assert.doesNotMatch((await stockRow(page, colaKey).getAttribute('class')) ?? '', /low-stock/);
    await recordMovement(page, {
      item: 'Masa (kg)',
      reason: 'Receiving',
      amount: '0.5',
      note: 'Monday delivery',
    });
    await stockRow(page, masaKey).locator('.stock-quantity').filter({ hasText: '0.5 kg' }).waitFor();
    await stockRow(page, masaKey).getByText('Low', { exact: true }).waitFor();
    assert.equal(await stockRow(page, masaKey).getByText('Out', { exact: true }).count(), 0);

    // The waiter sells two tamales: the masa is gone and the tile greys out by itself.
    const service = await openDevice(browser, baseUrl);
    const floor = service.page;
    await logInThroughScreen(floor, waiter.name, waiter.pin);
    await openTableAndOrder(floor, '1', [{ name: 'Tamal' }, { name: 'Tamal' }]);
    const tile = menuDish(floor, 'Tamal');
    await tile.getByText('Out of stock', { exact: true }).waitFor({ timeout: 3000 });
    assert.equal(await tile.isDisabled(), true, 'an out-of-stock dish cannot be added');
    assert.equal(await tile.getByText('86', { exact: true }).count(), 0, 'not an 86 of the kitchen');
    await assertAccessible(floor, 'order screen with an out-of-stock dish');
    await saveScreenshot(floor, 'inventory-out-of-stock');

    // The manager's stock follows the sales without a reload.
    await stockRow(page, masaKey).locator('.stock-quantity').filter({ hasText: '0 kg' }).waitFor();
    await stockRow(page, masaKey).getByText('Out', { exact: true }).waitFor();
    await assertAccessible(page, 'inventory');
    await saveScreenshot(page, 'inventory-stock');

    // Masa's history, newest first: the sales, then the delivery with its note and who took it in.
    await page.getByRole('button', { name: 'History Masa', exact: true }).click();
    const history = page.locator('.movement-history');
    await history.getByRole('heading', { name: 'Movements of Masa' }).waitFor();
    const rows = history.locator('tbody tr');
    await rows.nth(1).waitFor();
    assert.match((await rows.first().textContent()) ?? '', /Sale/);
    const oldest = (await rows.last().textContent()) ?? '';
    assert.match(oldest, /Receiving/);
    assert.match(oldest, /Monday delivery/);
    assert.match(oldest, /Mara/);

    // Another delivery: the tamal is back on the waiter's screen by itself.
    await recordMovement(page, { item: 'Masa (kg)', reason: 'Receiving', amount: '1' });
    await tile.getByText('Out of stock', { exact: true }).waitFor({ state: 'detached', timeout: 3000 });
    assert.equal(await tile.isEnabled(), true, 'the tamal is on sale again');
    await history.locator('tbody tr').first().filter({ hasText: 'Receiving' }).waitFor();

    // The count, walking the storeroom with a phone: only what was counted is sent.
    const phone = await openDevice(browser, baseUrl, 'phone');
    await phone.page.setViewportSize({ width: 375, height: 667 });
    await logInThroughScreen(phone.page, manager.name, manager.pin);
    await phone.page.goto('/app/manager/inventory');
    const sheet = phone.page.locator('#count-sheet');
    await sheet.waitFor();
    const masaCount = sheet.locator(`#count-${masaKey}`);
    assert.equal(await masaCount.getAttribute('inputmode'), 'decimal');
    const box = await masaCount.boundingBox();
    assert.ok(box && box.height >= 44 && box.width >= 200, `a big field on a phone: ${JSON.stringify(box)}`);
    await masaCount.fill('0.75');
    await sheet.locator(`#count-${colaKey}`).fill('20');
    const pageWidth = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(pageWidth <= 375, `no sideways scroll on a phone: the page is ${pageWidth}px wide`);
    await assertAccessible(phone.page, 'count sheet on a phone');
    await saveScreenshot(phone.page, 'inventory-count-phone');
    await sheet.locator('#count-save').click();
    await sheet.getByRole('status').filter({ hasText: 'Count recorded: 2 items changed.' }).waitFor();
    assert.equal(await masaCount.inputValue(), '', 'the sheet is cleared for the next count');
    await stockRow(phone.page, masaKey).locator('.stock-quantity').filter({ hasText: '0.75 kg' }).waitFor();
    await stockRow(phone.page, colaKey).locator('.stock-quantity').filter({ hasText: /^20$/ }).waitFor();
    await stockRow(page, masaKey).locator('.stock-quantity').filter({ hasText: '0.75 kg' }).waitFor();
    const stock = (await call('GET', '/inventory/stock')).json() as { id: string; stock: number }[];
    assert.equal(stock.find((item) => item.id === masa)?.stock, 0.75);
    assert.equal(stock.find((item) => item.id === cola)?.stock, 20);

    // The report opens on the last week. The manager changes both dates at once (two change events
    // before the screen redraws), to two days before anything moved, whose answer the network holds
    // back, and at once again to today: the late answer must not replace today's, and neither of two
    // quick changes may be lost.
    const report = page.locator('.inventory-report');
    const masaLine = report.locator('tbody tr', { hasText: 'Masa (kg)' });
    await masaLine.waitFor();
    const spanOf = (url: string) => {
      const query = new URL(url).searchParams;
      return `${query.get('from')} ${query.get('to')}`;
    };
    const isReport = (url: string) => new URL(url).pathname === '/reports/inventory';
    const asked: string[] = [];
    page.on('request', (request) => {
      if (isReport(request.url())) asked.push(spanOf(request.url()));
    });
    const EARLIER = { from: '2026-11-20', to: '2026-11-21' };
    const isEarlier = (url: URL | string) =>
      isReport(url.toString()) && spanOf(url.toString()) === `${EARLIER.from} ${EARLIER.to}`;
    await page.route(isEarlier, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    const earlierAsked = page.waitForRequest((request) => isEarlier(request.url()), { timeout: 5000 });
    const earlierAnswered = page.waitForResponse((response) => isEarlier(response.url()));
    await changeBothDates(page, EARLIER);
    await earlierAsked;
    await changeBothDates(page, { from: TODAY, to: TODAY });
    const todayCells = ['0', '-0.5', '0', '0', '1.5', '0', '-0.25', '0.75'];
    await waitForCells(masaLine, todayCells);
    await earlierAnswered;
    // Two frames for the late answer to be drawn, if the screen were to take it.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    assert.deepEqual(
      await masaLine.locator('td').allTextContents(),
      todayCells,
      'opening, sales, void returns, waste, received, adjustments, counts, closing',
    );
    assert.equal(await report.getByLabel('From', { exact: true }).inputValue(), TODAY);
    assert.equal(asked.at(-1), `${TODAY} ${TODAY}`, `the spans asked for: ${asked.join(', ')}`);
    await page.unroute(isEarlier);

    // Waste recorded while the report is open: the report reads its figures again by itself.
    await recordMovement(page, { item: 'Masa (kg)', reason: 'Waste', amount: '0.25' });
    await waitForCells(masaLine, ['0', '-0.5', '0', '-0.25', '1.5', '0', '-0.25', '0.5']);
    // A delivery recorded on another device (the storeroom's tablet): the open report hears it on the
    // stream and reads its figures again, with no click here.
    const delivery = { item_type: 'ingredient', item_id: masa, delta: 2, reason: 'receiving' };
    assert.equal((await call('POST', '/inventory/movements', delivery)).statusCode, 201);
    await waitForCells(masaLine, ['0', '-0.5', '0', '-0.25', '3.5', '0', '-0.25', '2.5']);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      report.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), `inventory-${TODAY}-${TODAY}.csv`);
    const csv = readFileSync((await download.path()) as string, 'utf8');
    assert.match(csv, /Masa/);
    assert.match(csv, /Cola/);
    await saveScreenshot(page, 'inventory-report');

    assert.deepEqual(office.consoleErrors, []);
    assert.deepEqual(service.consoleErrors, []);
    assert.deepEqual(phone.consoleErrors, []);
  });
});
