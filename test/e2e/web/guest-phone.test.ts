import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { login } from '../../helpers/auth';
import { createBill } from '../../helpers/checkout-factories';
import { databaseTargets } from '../../helpers/database';
import { insertTable, insertUser } from '../../helpers/factories';
import { callerFor } from '../../helpers/orders-factories';
import {
  assertAccessible,
  launchBrowser,
  saveScreenshot,
  skipWithoutChromium,
  startWebServer,
} from './browser';
import { englishOn } from './spanish-strings';

// The screens are the same whatever the database.
const [target] = databaseTargets as [(typeof databaseTargets)[number]];

type Server = Awaited<ReturnType<typeof startWebServer>>;

/**
 * A pending bill of one table, two plates of 125.50 on seats 1 and 2, with its guest link: returns the
 * link's address. `bySeat`: one bill per seat, the link to seat 2's.
 */
async function billWithLink({ app, db }: Server, bySeat = false): Promise<string> {
  const admin = await insertUser(db, { role: 'admin', name: 'Olga' });
  const call = callerFor(app, await login(app, admin.name, admin.pin));
  const post = async (url: string, body?: unknown) => {
    const response = await call('POST', url, body);
    assert.equal(response.statusCode, 201, response.body);
    return response.json() as { id: string; url: string };
  };
  const settings = await call('PUT', '/settings', { business_name: 'La Esquina', tax_rate: 16 });
  assert.equal(settings.statusCode, 200, settings.body);
  const tacos = await post('/categories', { name: 'Tacos', type: 'dish' });
  const pastor = await post('/dishes', { name: 'Tacos al pastor', price: 125.5, category_id: tacos.id });
  const table = await insertTable(db, { name: '7' });
  const order = await post('/orders/with-dishes', {
    order: { table_id: table.id },
    dishes: [
      { dish_id: pastor.id, seat: 1 },
      { dish_id: pastor.id, seat: 2 },
    ],
  });
  if (bySeat) {
    const bills = await post(`/orders/${order.id}/tickets`, { by_seat: true });
    return (await post(`/tickets/${(bills as { ids?: string[] }).ids?.[1]}/guest-link`)).url;
  }
  const ticketId = await createBill(call, order.id);
  return (await post(`/tickets/${ticketId}/guest-link`)).url;
}

/** A guest's phone at 360 px, in the phone's own time zone (not the restaurant's). */
async function phone(browser: Browser, baseUrl: string, locale: 'es-MX' | 'en-US', timezoneId = 'UTC') {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 360, height: 800 },
    locale,
    timezoneId,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const consoleErrors: string[] = [];
  page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
  return { context, page, consoleErrors };
}

describe("web app: the guest's phone", { skip: skipWithoutChromium }, () => {
  it('starts without a tip, names the tab in its language, and says when the phone is offline', async (t) => {
    const server = await startWebServer(t, target, { withGuestLinks: true });
    const url = await billWithLink(server);
    const browser = await launchBrowser(t);

    const es = await phone(browser, server.baseUrl, 'es-MX');
    await es.page.goto(url);
    await es.page.getByRole('heading', { level: 1, name: 'La Esquina' }).waitFor();
    assert.equal(await es.page.title(), 'Su cuenta');
    assert.equal(
      await es.page.getByRole('button', { name: 'Sin propina' }).getAttribute('aria-pressed'),
      'true',
    );
    assert.equal(await es.page.getByRole('button', { name: '10 %' }).getAttribute('aria-pressed'), 'false');
    await es.page.getByText('A pagar: $251.00 + propina $0.00 = $251.00').waitFor();
    await es.page.getByRole('button', { name: 'Pagar todo con Lightning' }).waitFor();
    await checkSpanishPage(es.page, 'guest page without a tip', 'guest-phone-es-no-tip');
    // The guest chooses a tip.
    await es.page.getByRole('button', { name: '15 %' }).click();
    await es.page.getByText('A pagar: $251.00 + propina $37.65 = $288.65').waitFor();

    // The phone loses its network: it says so, and the notice goes once it is back.
    await es.context.setOffline(true);
    const offline = es.page.getByText('Sin conexión. Esta página se actualiza sola en cuanto vuelva.');
    await offline.waitFor();
    await checkSpanishPage(es.page, 'guest page offline', 'guest-phone-es-offline');
    await es.context.setOffline(false);
    await offline.waitFor({ state: 'detached' });

    const en = await phone(browser, server.baseUrl, 'en-US');
    await en.page.goto(url);
    await en.page.getByRole('heading', { level: 1, name: 'La Esquina' }).waitFor();
    assert.equal(await en.page.title(), 'Your bill');
    assert.equal(await en.page.getByRole('button', { name: 'No tip' }).getAttribute('aria-pressed'), 'true');
    for (const device of [es, en]) assert.deepEqual(device.consoleErrors, []);
  });

  it('keeps its pending invoice across a reload, and every phone follows the payment live', async (t) => {
    const server = await startWebServer(t, target, { withGuestLinks: true });
    const url = await billWithLink(server);
    const browser = await launchBrowser(t);
    const es = await phone(browser, server.baseUrl, 'es-MX');
    await es.page.goto(url);
    await es.page.getByRole('button', { name: 'Pagar mi parte' }).click();
    await es.page.getByRole('button', { name: 'Otro monto' }).click();
    await es.page.getByLabel('¿Cuánto va a pagar?').fill('100');
    await es.page.getByRole('button', { name: 'Pagar $100.00 con Lightning' }).click();
    const qr = es.page.getByRole('img', { name: 'Código QR de la solicitud de pago Lightning' });
    await qr.waitFor();
    const bolt11 = await es.page.getByLabel('Solicitud de pago Lightning').inputValue();

    const friend = await phone(browser, server.baseUrl, 'es-MX');
    await friend.page.goto(url);
    const notice = friend.page.getByText('Alguien de su mesa está pagando $100.00 en este momento.');
    await notice.waitFor();

    await es.page.reload();
    await qr.waitFor();
    assert.equal(await es.page.getByLabel('Solicitud de pago Lightning').inputValue(), bolt11);
    await es.page.getByText('Esperando su pago…').waitFor();
    assert.equal(await es.page.getByText('Alguien de su mesa está pagando').count(), 0, 'her own invoice');
    await assertAccessible(es.page, 'guest invoice after a reload');
    await saveScreenshot(es.page, 'guest-phone-es-invoice-after-reload');

    await server.simulator.receivePayment(bolt11);
    await es.page.getByText('Pagado, ¡gracias!').waitFor();
    await notice.waitFor({ state: 'detached' });
    await friend.page.getByText('Saldo$151.00').waitFor();
    await saveScreenshot(friend.page, 'guest-phone-es-friend-after-payment');
    // Paid, the invoice is no longer kept: a reload shows the bill to pay the rest.
    await es.page.reload();
    await es.page.getByRole('button', { name: 'Pagar todo con Lightning' }).waitFor();
    for (const device of [es, friend]) assert.deepEqual(device.consoleErrors, []);
  });

  it("pays a part as an even share or one seat's plates, and shows each phone only its own tip", async (t) => {
    const server = await startWebServer(t, target, { withGuestLinks: true });
    const url = await billWithLink(server);
    const browser = await launchBrowser(t);
    const es = await phone(browser, server.baseUrl, 'es-MX');
    await es.page.goto(url);
    await es.page.getByRole('button', { name: 'Pagar mi parte' }).click();
    // An even share first: 251.00 in two, then in three, where the last pays the cent left over.
    assert.equal(
      await es.page.getByRole('button', { name: 'Partes iguales' }).getAttribute('aria-pressed'),
      'true',
    );
    await es.page.getByText('Cada quien paga $125.50').waitFor();
    assert.equal(await es.page.getByRole('button', { name: 'Una persona menos' }).isDisabled(), true);
    await es.page.getByRole('button', { name: 'Una persona más' }).click();
    await es.page.getByText('3 personas').waitFor();
    await es.page.getByText('Cada quien paga $83.66').waitFor();
    await es.page.getByText('Quien pague al final paga el resto, $83.68, con «Pagar todo».').waitFor();
    await es.page.getByRole('button', { name: 'Pagar $83.66 con Lightning' }).waitFor();
    await checkSpanishPage(es.page, 'guest page splitting evenly', 'guest-phone-es-split-evenly');

    // Then one seat's plates, with the amount the server worked out.
    await es.page.getByRole('button', { name: 'Lo de un comensal' }).click();
    await es.page.getByRole('button', { name: 'Comensal 2 $125.50' }).click();
    await es.page.getByRole('button', { name: '10 %' }).click();
    await es.page.getByText('A pagar: $125.50 + propina $12.55 = $138.05').waitFor();
    await checkSpanishPage(es.page, "guest page paying one seat's plates", 'guest-phone-es-by-seat');
    await es.page.getByRole('button', { name: 'Pagar $138.05 con Lightning' }).click();
    await es.page.getByRole('img', { name: 'Código QR de la solicitud de pago Lightning' }).waitFor();
    await server.simulator.receivePayment(
      await es.page.getByLabel('Solicitud de pago Lightning').inputValue(),
    );
    await es.page.getByText('Pagado, ¡gracias!').waitFor();
    await es.page.locator('.guest-own-tip').getByText('$12.55').waitFor();

    // A friend pays the rest with a 20 % tip: each phone shows its own tip, not the table's.
    const en = await phone(browser, server.baseUrl, 'en-US');
    await en.page.goto(url);
    await en.page.getByRole('button', { name: '20 %' }).click();
    await en.page.getByRole('button', { name: 'Pay all with Lightning' }).click();
    await en.page.getByRole('img', { name: 'QR code of the Lightning invoice' }).waitFor();
    await server.simulator.receivePayment(await en.page.getByLabel('Lightning invoice').inputValue());
    await en.page.getByText('Paid, thank you!').waitFor();
    assert.equal(await en.page.locator('.guest-own-tip').textContent(), 'Your tip$25.10');
    await en.page.getByRole('button', { name: 'See the receipt' }).click();
    const receipt = (await en.page.locator('pre.guest-receipt').textContent()) ?? '';
    assert.match(receipt, /Lightning +\$125\.50/);
    // Nor the sats, which at the rate would tell each wallet's tip.
    assert.doesNotMatch(receipt, /Propina|Tip|sat|\$12\.55|\$25\.10|\$37\.65/);
    await assertAccessible(en.page, 'guest page paid with its own tip');
    await saveScreenshot(en.page, 'guest-phone-en-own-tip');
    await es.page.reload();
    await es.page.getByText('Esta cuenta ya está pagada').waitFor();
    assert.equal(await es.page.locator('.guest-own-tip').textContent(), 'Su propina$12.55');
    await saveScreenshot(es.page, 'guest-phone-es-own-tip-after-reload');
    for (const device of [es, en]) assert.deepEqual(device.consoleErrors, []);
  });

  it('names a bill by seat after its seat, as the till and the paper do', async (t) => {
    const server = await startWebServer(t, target, { withGuestLinks: true });
    const url = await billWithLink(server, true);
    const browser = await launchBrowser(t);
    const es = await phone(browser, server.baseUrl, 'es-MX');
    await es.page.goto(url);
    await es.page.getByText('Mesa 7 · Comensal 2 · Le atendió Olga', { exact: true }).waitFor();
    // One seat's bill has no seats to choose between.
    await es.page.getByRole('button', { name: 'Pagar mi parte' }).click();
    assert.equal(await es.page.getByRole('button', { name: 'Lo de un comensal' }).count(), 0);
    await saveScreenshot(es.page, 'guest-phone-es-bill-of-seat');
    const en = await phone(browser, server.baseUrl, 'en-US');
    await en.page.goto(url);
    await en.page.getByText('Table 7 · Seat 2 · Served by Olga', { exact: true }).waitFor();
  });

  it('does not offer Lightning without a node, and says so before any tap', async (t) => {
    const server = await startWebServer(t, target, { withGuestLinks: true, env: { PHOENIXD_PASSWORD: '' } });
    const url = await billWithLink(server);
    const browser = await launchBrowser(t);
    const es = await phone(browser, server.baseUrl, 'es-MX');
    await es.page.goto(url);
    await es.page
      .getByText('Los pagos con Lightning no están disponibles por ahora. Pregunte a su mesero.')
      .waitFor();
    assert.equal(await es.page.getByRole('button', { name: /Lightning|Pagar mi parte/ }).count(), 0);
    await es.page.getByText('Saldo$251.00').waitFor();
    await checkSpanishPage(es.page, 'guest page without a Lightning node', 'guest-phone-es-no-lightning');
    assert.deepEqual(es.consoleErrors, []);
  });

  it("shows the self-invoice deadline in the restaurant's time zone, the paper's date", async (t) => {
    const server = await startWebServer(t, target, { withGuestLinks: true });
    const url = await billWithLink(server);
    const browser = await launchBrowser(t);
    // A phone in Madrid; the restaurant in Mexico City, where the deadline is 30 November at 23:30.
    const es = await phone(browser, server.baseUrl, 'es-MX', 'Europe/Madrid');
    const token = url.split('/g/')[1] ?? '';
    // The bill as the API answers once paid and offered for self-invoicing: the page's part only.
    await es.page.route(`**/guest/${token}`, async (route) => {
      const answer = await route.fetch();
      const bill = await answer.json();
      await route.fulfill({
        response: answer,
        json: {
          ...bill,
          status: 2,
          timezone: 'America/Mexico_City',
          invoice: {
            status: 'available',
            self_invoice_url: 'https://factura.example.mx/abc',
            expires_at: Date.parse('2026-12-01T05:30:00Z'),
            uuid: null,
          },
        },
      });
    });
    await es.page.goto(url);
    await es.page.getByText('Puede solicitarla hasta el 30 de noviembre de 2026.').waitFor();
    await saveScreenshot(es.page, 'guest-phone-es-self-invoice-deadline');
  });
});

/** A Spanish guest page as a guest meets it: accessible, no English left, and a screenshot to look at. */
async function checkSpanishPage(page: Page, what: string, screenshot: string): Promise<void> {
  await assertAccessible(page, what);
  assert.deepEqual(await englishOn(page), []);
  await saveScreenshot(page, screenshot);
}
