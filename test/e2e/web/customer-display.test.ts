import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { login } from '../../helpers/auth';
import { databaseTargets } from '../../helpers/database';
import { insertUser } from '../../helpers/factories';
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
import { showLightningInvoice } from './kitchen-till-steps';

const [target] = databaseTargets as [(typeof databaseTargets)[number]];

describe('web app: the customer display', { skip: skipWithoutChromium }, () => {
  it('pairs with the till by its code, shows the restaurant, the bill, the Lightning QR, thanks, then the restaurant again', async (t) => {
    const { app, db, baseUrl, simulator } = await startWebServer(t, target);
    const manager = await insertUser(db, { role: 'manager', name: 'Marta' });
    const call = callerFor(app, await login(app, manager.name, manager.pin));
    const create = async (url: string, body: unknown) => {
      const response = await call('POST', url, body);
      assert.equal(response.statusCode, 201, response.body);
      return response.json().id as string;
    };
    const named = await call('PUT', '/settings', { business_name: 'La Esquina' });
    assert.equal(named.statusCode, 200, named.body);
    const mains = await create('/categories', { name: 'Mains', type: 'dish' });
    const pizza = await create('/dishes', { name: 'Margherita', price: 12.5, category_id: mains });
    const orderId = await create('/orders/with-dishes', { order: {}, dishes: [{ dish_id: pizza }] });
    const cashier = await insertUser(db, { role: 'cashier', name: 'Carla' });
    const screen = await insertUser(db, { role: 'display', name: 'Mostrador' });

    const browser = await launchBrowser(t);
    const till = await openDevice(browser, baseUrl);
    const display = await openDevice(browser, baseUrl, 'tablet', 'es-MX');
    await logInThroughScreen(till.page, cashier.name, cashier.pin);
    await till.page.goto('/app/till');
    await till.page.getByRole('button', { name: 'Connect the customer display' }).click();
    const shown = await till.page.getByText(/^Customer display: code \d{6}/).textContent();
    const code = /\d{6}/.exec(shown ?? '')?.[0] ?? '';
    await saveScreenshot(till.page, 'till-display-code');

    // The display lands on its own screen, with no link to a staff screen.
    // Its navigation is empty, so the login is waited for by the screen it lands on.
    await display.page.goto('/app/');
    await display.page.getByRole('button', { name: screen.name, exact: true }).click();
    await display.page.getByLabel('PIN').fill(screen.pin);
    const enter = display.page.getByRole('button', { name: 'Entrar' });
    if (await enter.isVisible()) await enter.click().catch(() => undefined);
    await display.page.getByRole('heading', { name: 'Conectar esta pantalla a una caja' }).waitFor();
    assert.equal(await display.page.getByRole('link', { name: 'Sala' }).count(), 0);
    await display.page.getByLabel('Código').fill(code);
    await display.page.getByRole('button', { name: 'Conectar' }).click();
    await display.page.getByText('Caja de Carla').waitFor();
    await display.page.getByText('Bienvenido').waitFor();
    // Idle, the guest sees the restaurant's name and nothing of the staff's: no bar, name or log-out.
    await display.page.getByText('La Esquina').waitFor();
    assert.equal(await display.page.locator('header').count(), 0);
    assert.equal(await display.page.getByText(screen.name).count(), 0);
    assert.equal(await display.page.getByRole('button').count(), 0);
    await assertAccessible(display.page, 'customer display, idle');
    await saveScreenshot(display.page, 'display-idle');

    await till.page.goto(`/app/till/${orderId}`);
    await till.page.getByRole('button', { name: /^One bill for everything/ }).click();
    await till.page.getByRole('heading', { name: 'Pay Bill 1' }).waitFor();
    await display.page
      .locator('.display-balance')
      .getByText(/12\.50/)
      .waitFor();
    await saveScreenshot(display.page, 'display-bill');

    const invoice = await showLightningInvoice(till.page);
    await display.page.getByRole('img', { name: 'Código QR de la factura Lightning' }).waitFor();
    await display.page.getByText('Escanee para pagar con Lightning').waitFor();
    await assertAccessible(display.page, 'customer display with the Lightning QR');
    await saveScreenshot(display.page, 'display-lightning');

    await simulator.receivePayment(invoice);
    await till.page.getByText('Paid with Lightning').waitFor({ timeout: 15_000 });
    await display.page.getByText('¡Gracias!').waitFor();
    await saveScreenshot(display.page, 'display-thanks');
    // The till still shows the paid bill; the display thanks for a few seconds, then idles.
    await display.page.getByText('La Esquina').waitFor({ timeout: 15_000 });
    assert.equal(await display.page.getByText('¡Gracias!').count(), 0);
    await display.page.reload();
    await display.page.getByText('La Esquina').waitFor();
    assert.equal(await display.page.getByText('¡Gracias!').count(), 0);
    await saveScreenshot(display.page, 'display-idle-after-payment');
    assert.deepEqual(till.consoleErrors, []);
    assert.deepEqual(display.consoleErrors, []);
  });
});
