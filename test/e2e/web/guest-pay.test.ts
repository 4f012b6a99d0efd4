import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { login } from '../../helpers/auth';
import { databaseTargets } from '../../helpers/database';
import { insertTable, insertUser } from '../../helpers/factories';
import { FakePrinter } from '../../helpers/fake-printer';
import { callerFor } from '../../helpers/orders-factories';
import {
  assertAccessible,
  launchBrowser,
  logInThroughScreen,
  openDevice,
  saveScreenshot,
  skipWithoutChromium,
  startWebServer,
} from './browser';
import { seeOrderClosedItself } from './kitchen-till-steps';
import { englishOn } from './spanish-strings';

// The screens are the same whatever the database.
const [target] = databaseTargets as [(typeof databaseTargets)[number]];

/** A guest's phone, as narrow as phones come (360 px) or a common one (390 px). */
async function guestPhone(browser: Browser, baseUrl: string, locale: 'es-MX' | 'en-US', width: number) {
  const phone = await openDevice(browser, baseUrl, 'phone', locale);
  await phone.page.setViewportSize({ width, height: 800 });
  return phone;
}

/** The guest asks for a Lightning invoice; returns its BOLT11 once its QR code shows. */
async function invoiceShown(page: Page, qrName: string, textLabel: string): Promise<string> {
  await page.getByRole('img', { name: qrName }).waitFor();
  return page.getByLabel(textLabel).inputValue();
}

describe('web app: the guest pays from the phone', { skip: skipWithoutChromium }, () => {
  it('two phones, one in Spanish and one in English, each pay a part with a tip from the link the till shows', async (t) => {
    const { app, db, baseUrl, simulator } = await startWebServer(t, target, { withGuestLinks: true });
    const admin = await insertUser(db, { role: 'admin', name: 'Olga' });
    const waiter = await insertUser(db, { role: 'waiter', name: 'Rosa María López' });
    const cashier = await insertUser(db, { role: 'cashier', name: 'Carla', pin: '5678' });
    const call = callerFor(app, await login(app, admin.name, admin.pin));
    const create = async (url: string, body: unknown) => {
      const response = await call('POST', url, body);
      assert.equal(response.statusCode, 201, response.body);
      return response.json().id as string;
    };
    const settings = await call('PUT', '/settings', { business_name: 'La Esquina', tax_rate: 16 });
    assert.equal(settings.statusCode, 200, settings.body);
    const tacos = await create('/categories', { name: 'Tacos', type: 'dish' });
    const pastor = await create('/dishes', { name: 'Tacos al pastor', price: 125.5, category_id: tacos });
    const agua = await create('/dishes', { name: 'Agua de horchata', price: 35, category_id: tacos });
    const table = await insertTable(db, { name: '7' });
    const printer = await FakePrinter.start();
    t.after(() => printer.stop());
    await create('/printers', {
      name: 'Caja',
      host: '127.0.0.1',
      port: printer.port,
      role: 'receipt',
      width: 48,
    });
    const waiterCall = callerFor(app, await login(app, waiter.name, waiter.pin));
    const ordered = await waiterCall('POST', '/orders/with-dishes', {
      order: { table_id: table.id },
      dishes: [
        { dish_id: pastor, seat: 1 },
        { dish_id: agua, seat: 1 },
        { dish_id: pastor, seat: 2 },
      ],
    });
    assert.equal(ordered.statusCode, 201, ordered.body);
    const orderId = ordered.json().id as string;

    // The cashier makes the bill and shows the guest check: its link as a QR code under it.
    const browser = await launchBrowser(t);
    const till = await openDevice(browser, baseUrl);
    await logInThroughScreen(till.page, cashier.name, cashier.pin);
    await till.page.goto(`/app/till/${orderId}`);
    await till.page.getByRole('button', { name: /^One bill for everything/ }).click();
    await till.page.getByRole('heading', { name: 'Guest check of Bill 1' }).waitFor();
    await till.page.getByRole('button', { name: 'Show the guest check' }).click();
    await till.page.getByRole('img', { name: "QR code of the bill's guest page" }).waitFor();
    const link = till.page.locator('a.guest-link-url');
    const url = (await link.getAttribute('href')) ?? '';
    assert.match(url, new RegExp(`^${baseUrl}/g/[A-Za-z0-9_-]{43}$`));
    assert.equal(await link.textContent(), url);
    await assertAccessible(till.page, 'till with the guest link');
    await saveScreenshot(till.page, 'guest-pay-till-link');
    // Printed, the guest check carries a link of its own as an ESC/POS QR code (GS ( k), its address under it.
    await till.page.getByRole('button', { name: 'Print the guest check' }).click();
    await till.page.getByText('The guest check is on its way to the printer.').waitFor();
    for (let waited = 0; printer.jobs.length === 0 && waited < 15_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const paper = printer.jobs[0] ?? Buffer.alloc(0);
    assert.ok(paper.includes(Buffer.from([0x1d, 0x28, 0x6b])), 'a QR code on the printed guest check');
    assert.match(paper.toString('latin1'), new RegExp(`${baseUrl}/g/`));

    // A phone in Spanish at 360 px: the bill as the check shows it, nothing of the staff's.
    const es = await guestPhone(browser, baseUrl, 'es-MX', 360);
    await es.page.goto(url);
    await es.page.getByRole('heading', { level: 1, name: 'La Esquina' }).waitFor();
    await es.page.getByText('Mesa 7 · Le atendió Rosa', { exact: true }).waitFor();
    assert.equal(await es.page.getByText('López').count(), 0, 'the first name only');
    await es.page.getByText('Comensal 2').waitFor();
    const balance = es.page.locator('.guest-balance');
    assert.match((await balance.textContent()) ?? '', /Saldo\$286\.00/);
    await es.page.getByText('IVA incluido').waitFor();
    await assertAccessible(es.page, 'guest page in Spanish');
    assert.deepEqual(await englishOn(es.page), []);
    await saveScreenshot(es.page, 'guest-pay-es-bill');

    // She pays her part, 100.00, with 15 % tip; a tip beyond the limit is refused on the page.
    await es.page.getByRole('button', { name: 'Pagar mi parte' }).click();
    await es.page.getByRole('button', { name: 'Otro monto' }).click();
    await es.page.getByLabel('¿Cuánto va a pagar?').fill('100');
    await es.page.getByRole('button', { name: 'Otra' }).click();
    await es.page.getByLabel('Monto de la propina').fill('100.01');
    await es.page.getByText('La propina puede ser de hasta 100 % de lo que paga ($100.00).').waitFor();
    assert.ok(await es.page.getByRole('button', { name: /^Pagar .* con Lightning$/ }).isDisabled());
    await es.page.getByRole('button', { name: '15 %' }).click();
    await es.page.getByText('A pagar: $100.00 + propina $15.00 = $115.00').waitFor();
    await es.page.getByRole('button', { name: 'Pagar $115.00 con Lightning' }).click();
    const esInvoice = await invoiceShown(
      es.page,
      'Código QR de la solicitud de pago Lightning',
      'Solicitud de pago Lightning',
    );
    const wallet = es.page.getByRole('link', { name: 'Abrir en mi billetera' });
    assert.equal(await wallet.getAttribute('href'), `lightning:${esInvoice}`);
    await es.page.getByRole('button', { name: 'Copiar la solicitud de pago' }).waitFor();
    await es.page.getByText('Esperando su pago…').waitFor();
    await assertAccessible(es.page, 'guest invoice in Spanish');
    assert.deepEqual(await englishOn(es.page), []);
    await saveScreenshot(es.page, 'guest-pay-es-invoice');

    // A friend's phone in English sees her part on its way and pays all the rest, 10 % tip.
    const en = await guestPhone(browser, baseUrl, 'en-US', 390);
    await en.page.goto(url);
    await en.page.getByText('Someone at your table is paying $100.00 right now.').waitFor();
    await en.page.getByText('Table 7 · Served by Rosa', { exact: true }).waitFor();
    await saveScreenshot(en.page, 'guest-pay-en-bill');
    await en.page.getByRole('button', { name: '10 %' }).click();
    await en.page.getByText('To pay: $186.00 + tip $18.60 = $204.60').waitFor();
    await en.page.getByRole('button', { name: 'Pay all with Lightning' }).click();
    const enInvoice = await invoiceShown(en.page, 'QR code of the Lightning invoice', 'Lightning invoice');
    await en.page.getByRole('link', { name: 'Open in my wallet' }).waitFor();
    await assertAccessible(en.page, 'guest invoice in English');
    await saveScreenshot(en.page, 'guest-pay-en-invoice');

    // Each pays from a wallet; each page turns paid by itself, only for its own payment.
    await simulator.receivePayment(esInvoice);
    await es.page.getByText('Pagado, ¡gracias!').waitFor();
    await balance.getByText('$186.00').waitFor();
    assert.equal(await en.page.getByText('Paid, thank you!').count(), 0, 'the friend has not paid yet');
    await en.page.getByText('Waiting for your payment…').waitFor();
    await simulator.receivePayment(enInvoice);
    await en.page.getByText('Paid, thank you!').waitFor();
    await en.page.getByRole('button', { name: 'See the receipt' }).click();
    await en.page.getByRole('heading', { name: 'Receipt' }).waitFor();
    assert.match((await en.page.locator('.guest-receipt').textContent()) ?? '', /Lightning/);
    await assertAccessible(en.page, 'guest paid in English');
    await saveScreenshot(en.page, 'guest-pay-en-paid');
    // Every phone follows the table's payments: hers shows the friend's too.
    await balance.getByText('$0.00').waitFor();
    await assertAccessible(es.page, 'guest paid in Spanish');
    assert.deepEqual(await englishOn(es.page), []);
    await saveScreenshot(es.page, 'guest-pay-es-paid');

    // The till sees the bill paid live; the order closes and frees the table.
    await till.page.getByText('This order is fully paid.').waitFor({ timeout: 15_000 });
    await saveScreenshot(till.page, 'guest-pay-till-paid');
    await seeOrderClosedItself(till.page);
    const tips = (await call('GET', `/orders/${orderId}/tickets`)).json() as { tips: number }[];
    assert.deepEqual(
      tips.map((ticket) => ticket.tips),
      [33.6],
    );

    // The link opened again shows the bill paid and its receipt; a made-up link is no longer valid.
    const later = await guestPhone(browser, baseUrl, 'es-MX', 360);
    await later.page.goto(url);
    await later.page.getByText('Esta cuenta ya está pagada').waitFor();
    await later.page.getByRole('heading', { name: 'Ticket' }).waitFor();
    assert.deepEqual(await englishOn(later.page), []);
    await saveScreenshot(later.page, 'guest-pay-es-already-paid');
    await later.page.goto('/g/not-a-token');
    await later.page.getByRole('heading', { name: 'Este enlace ya no es válido' }).waitFor();
    const english = await guestPhone(browser, baseUrl, 'en-US', 390);
    await english.page.goto('/g/not-a-token');
    await english.page.getByRole('heading', { name: 'This link is no longer valid' }).waitFor();

    for (const device of [till, es, en]) assert.deepEqual(device.consoleErrors, []);
  });

  it('shows the guest check without a link where guest links are off (no POS_PUBLIC_URL)', async (t) => {
    const { app, db, baseUrl } = await startWebServer(t, target);
    const cashier = await insertUser(db, { role: 'cashier', name: 'Carla', pin: '5678' });
    const admin = await insertUser(db, { role: 'admin', name: 'Olga' });
    const call = callerFor(app, await login(app, admin.name, admin.pin));
    const category = await call('POST', '/categories', { name: 'Tacos', type: 'dish' });
    const dish = await call('POST', '/dishes', {
      name: 'Tacos al pastor',
      price: 125.5,
      category_id: category.json().id,
    });
    const ordered = await call('POST', '/orders/with-dishes', {
      order: {},
      dishes: [{ dish_id: dish.json().id }],
    });
    assert.equal(ordered.statusCode, 201, ordered.body);
    const browser = await launchBrowser(t);
    const till = await openDevice(browser, baseUrl);
    await logInThroughScreen(till.page, cashier.name, cashier.pin);
    await till.page.goto(`/app/till/${ordered.json().id}`);
    await till.page.getByRole('button', { name: /^One bill for everything/ }).click();
    await till.page.getByRole('button', { name: 'Show the guest check' }).click();
    await till.page.locator('pre.receipt-text').waitFor();
    await till.page.getByRole('link', { name: 'Download the receipt' }).waitFor();
    assert.equal(await till.page.locator('.guest-link').count(), 0);
    assert.equal(await till.page.getByRole('alert').count(), 0, 'no error either');
  });
});
