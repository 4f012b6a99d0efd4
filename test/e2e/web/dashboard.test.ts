import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { login } from '../../helpers/auth';
import { createBill } from '../../helpers/checkout-factories';
import { databaseTargets } from '../../helpers/database';
import { insertDish, insertTable, insertUser } from '../../helpers/factories';
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

const [target] = databaseTargets as [(typeof databaseTargets)[number]];
/** Mexico City is UTC−6 all year: 20:00 there is 02:00 UTC the next day. */
const local = (day: number, hour: number, minute = 0) => Date.UTC(2026, 10, day, hour + 6, minute);

async function ok(call: Caller, method: Parameters<Caller>[0], url: string, body?: unknown) {
  const response = await call(method, url, body);
  assert.ok(response.statusCode < 300, `${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** The dashboard's row of the hour chart's text alternative: "20:00", this day, the usual. */
async function hourRow(page: Page, hour: string): Promise<string[]> {
  const row = page.getByTestId('hours-table').getByRole('row', { name: new RegExp(`^${hour}\\b`) });
  return (await row.locator('th, td').allTextContents()).map((text) => text.trim());
}

describe("web app: the manager's dashboard", { skip: skipWithoutChromium }, () => {
  it('opens the manager on tonight against a usual Friday, on a phone and a tablet in Spanish, and follows a table paying without a reload', async (t) => {
    const { app, db, clock, baseUrl } = await startPlainWebServer(t, target, {
      env: { POS_TIMEZONE: 'America/Mexico_City' },
    });
    const manager = await insertUser(db, { name: 'Marta', role: 'manager', pin: '2468' });
    const waiter = await insertUser(db, { name: 'Wendy', role: 'waiter', pin: '1357' });
    const boss = await insertUser(db, { name: 'Alma', role: 'admin', pin: '9753' });
    let asWaiter: Caller = async () => assert.fail('signed in by time');
    let asAdmin: Caller = asWaiter;
    // Access tokens live a minute of the server's clock: each step moves it and signs in again.
    const at = async (time: number) => {
      clock.set(time);
      asWaiter = callerFor(app, await login(app, waiter.name, waiter.pin));
      asAdmin = callerFor(app, await login(app, boss.name, boss.pin));
    };
    const tacos = await insertDish(db, { name: 'Tacos al pastor', priceCents: 12_000 });
    const water = await insertDish(db, { name: 'Agua de jamaica', priceCents: 3500 });
    const enchiladas = await insertDish(db, { name: 'Enchiladas suizas', priceCents: 15_000 });
    const flan = await insertDish(db, { name: 'Flan', priceCents: 6000 });
    const [one, two] = [await insertTable(db, { name: 'T1' }), await insertTable(db, { name: 'T2' })];
    const order = async (tableId: string, guests: number, dishes: string[]) => {
      const created = await ok(asWaiter, 'POST', '/orders/with-dishes', {
        order: { table_id: tableId, guests },
        dishes: dishes.map((dishId) => ({ dish_id: dishId })),
      });
      const plates = await db
        .selectFrom('order_dishes')
        .select('id')
        .where('order_id', '=', created.id)
        .orderBy('ordinal')
        .execute();
      return { id: created.id as string, plates: plates.map((plate) => plate.id) };
    };
    const pay = async (orderId: string, payment: Record<string, unknown>) =>
      ok(asAdmin, 'POST', `/tickets/${await createBill(asAdmin, orderId)}/payments`, payment);

    // Last Friday at 20:00, tacos paid in cash: the usual of that hour is 120.00 / 4 = 30.00.
    await at(local(20, 20));
    await pay((await order(one.id, 2, [tacos.id])).id, { method: 'cash', amount: 120 });

    // Tonight, 20:00: two at T1, tacos twice and a water; the kitchen makes the tacos in 12 min.
    await at(local(27, 20));
    const dinner = await order(one.id, 2, [tacos.id, tacos.id, water.id]);
    await ok(asWaiter, 'POST', `/orders/${dinner.id}/send`);
    for (const plate of dinner.plates.slice(0, 2))
      await ok(asAdmin, 'PUT', `/orders/${dinner.id}/dishes/${plate}/status`, { status: 'preparing' });
    await at(local(27, 20, 12));
    for (const plate of dinner.plates.slice(0, 2))
      await ok(asAdmin, 'PUT', `/orders/${dinner.id}/dishes/${plate}/status`, { status: 'ready' });
    // 20:30: four at T2, two enchiladas and a water voided; 20:45 T1 pays 275.00 by card, 30.00 tip.
    await at(local(27, 20, 30));
    const late = await order(two.id, 4, [enchiladas.id, enchiladas.id, water.id]);
    await ok(asWaiter, 'POST', `/orders/${late.id}/send`);
    await ok(asAdmin, 'POST', `/orders/${late.id}/dishes/${late.plates[2]}/void`, { reason: 'Se equivocó' });
    await at(local(27, 20, 45));
    await pay(dinner.id, { method: 'card', amount: 275, tip: 30 });
    // 20:50: the flan runs out.
    await at(local(27, 20, 50));
    await ok(asAdmin, 'PUT', `/dishes/${flan.id}/availability`, { available: false });
    await at(local(27, 21, 0));

    const browser = await launchBrowser(t);
    const phone = await openDevice(browser, baseUrl, 'phone', 'es-MX');
    const tablet = await openDevice(browser, baseUrl, 'tablet', 'es-MX');
    for (const { page } of [phone, tablet]) {
      await logInThroughScreen(page, manager.name, manager.pin);
      // The manager's home is the dashboard of today.
      await page.waitForURL((url) => url.pathname === '/app/manager/dashboard');
      await page.getByRole('heading', { level: 1, name: 'Tablero' }).waitFor();
      await page.getByRole('link', { name: 'Ventas $275.00', exact: true }).waitFor();
      assert.equal(await page.getByLabel('Día', { exact: true }).inputValue(), '2026-11-27');
    }
    const { page } = phone;
    for (const figure of [
      'Cuentas 1',
      'Comensales 2',
      'Cuenta promedio $275.00',
      'Promedio por comensal $137.50',
      'Propinas $30.00',
      'Platillos anulados 1 · $35.00',
      'Mesas abiertas 1',
      'Cuentas abiertas 0 Por cobrar $0.00',
    ])
      await page.getByRole('link', { name: figure, exact: true }).waitFor();
    await page
      .getByRole('link', {
        name: 'Cocina (de enviado a listo) 12.0 min mediana · 9 de cada 10 en 12.0 min · 2 medidos',
        exact: true,
      })
      .waitFor();
    assert.deepEqual(await hourRow(page, '20:00'), ['20:00', '$275.00', '$30.00']);
    assert.deepEqual(await hourRow(page, '21:00'), ['21:00', '$0.00', '$0.00']);
    const tenders = page.getByRole('region', { name: 'Por forma de pago' });
    assert.match(await tenders.getByRole('definition').first().innerText(), /^\$275\.00$/);
    await page.getByRole('region', { name: 'Por mesero' }).getByText('Wendy').waitFor();
    await page.getByRole('region', { name: 'Platillos' }).getByText('Tacos al pastor').first().waitFor();
    await page.getByRole('region', { name: 'Agotados (86)' }).getByText('se agotó a las 20:50').waitFor();
    await page.getByRole('region', { name: 'Agotados (86)' }).getByText('sigue agotado').waitFor();
    // uPlot, fetched with the first chart, draws the hours, the tenders and the channels.
    await page.locator('.chart-canvas canvas').nth(2).waitFor();
    assert.equal(await page.locator('.chart-canvas canvas').count(), 3);
    await assertAccessible(page, 'dashboard (phone)');
    await saveScreenshot(page, 'dashboard-1-phone-es');
    const wide = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth);
    assert.ok((await wide(page)) <= 390, 'nothing wider than the phone');

    // 21:00: T2 pays 300.00 in cash through the API; both screens follow without a reload.
    await pay(late.id, { method: 'cash', amount: 300 });
    const loadsBefore = await page.evaluate(() => performance.getEntriesByType('navigation').length);
    for (const device of [phone, tablet]) {
      await device.page.getByRole('link', { name: 'Ventas $575.00', exact: true }).waitFor();
      await device.page.getByRole('link', { name: 'Cuentas 2', exact: true }).waitFor();
      await device.page.getByRole('link', { name: 'Mesas abiertas 0', exact: true }).waitFor();
      assert.deepEqual(await hourRow(device.page, '21:00'), ['21:00', '$300.00', '$0.00']);
    }
    assert.equal(await page.evaluate(() => performance.getEntriesByType('navigation').length), loadsBefore);
    assert.ok((await wide(page)) <= 390, 'nothing wider than the phone');
    await saveScreenshot(page, 'dashboard-2-phone-es-paid');
    await assertAccessible(tablet.page, 'dashboard (tablet)');
    await saveScreenshot(tablet.page, 'dashboard-3-tablet-es-paid');

    // A figure taps through to the report it comes from: the day's sales, on that day.
    await page.getByRole('link', { name: 'Ventas por hora', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Ventas de hoy' }).waitFor();
    assert.equal(new URL(page.url()).searchParams.get('date'), '2026-11-27');
    await page
      .getByRole('region', { name: 'Por hora' })
      .getByRole('row', { name: /^21:00/ })
      .waitFor();
    await page
      .getByRole('region', { name: 'Por mesero' })
      .getByRole('row', { name: /^Wendy/ })
      .waitFor();
    assert.deepEqual(phone.consoleErrors, []);
    assert.deepEqual(tablet.consoleErrors, []);

    // In English, the same figures in the same Mexican number format.
    const english = await openDevice(browser, baseUrl, 'tablet', 'en-US');
    await logInThroughScreen(english.page, manager.name, manager.pin);
    await english.page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await english.page.getByRole('link', { name: 'Sales $575.00', exact: true }).waitFor();
    await english.page.getByRole('link', { name: 'Average per cover $95.83', exact: true }).waitFor();
    await english.page.getByText('Usual (same weekday, last 4 weeks)').waitFor();
    await saveScreenshot(english.page, 'dashboard-4-tablet-en');
    assert.deepEqual(english.consoleErrors, []);
  });
});
