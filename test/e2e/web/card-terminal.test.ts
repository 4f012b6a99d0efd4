import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { login } from '../../helpers/auth';
import { databaseTargets } from '../../helpers/database';
import { insertTable, insertUser } from '../../helpers/factories';
import { callerFor } from '../../helpers/orders-factories';
import { MercadoPagoSimulator } from '../../mp-sim/simulator';
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
const CAJA_1 = 'NEWLAND_N950__N950NCB000000001';

describe('app web: la terminal de tarjetas Mercado Pago', { skip: skipWithoutChromium }, () => {
  it('cobra la mesa en la terminal con propina: la pantalla pide pagar, la tarjeta se rechaza, se reintenta y se paga', async (t) => {
    const simulator = await MercadoPagoSimulator.start({ atTerminalAfterMs: 300 });
    const { app, db, baseUrl, clock } = await startPlainWebServer(t, target, {
      env: {
        POS_MP_ACCESS_TOKEN: simulator.accessToken,
        POS_MP_WEBHOOK_SECRET: simulator.webhookSecret,
        POS_MP_API_URL: simulator.url,
      },
    });
    // Registered after the server's clean-up: the server's watch job stops before the simulator does.
    t.after(() => simulator.stop());
    // The server reads the terminal back every few seconds of its clock: here that clock is the real one,
    // as in a restaurant, for the simulator (which expires charges) runs on real time too.
    const ticking = setInterval(() => clock.set(Date.now()), 200);
    t.after(() => clearInterval(ticking));
    clock.set(Date.now());
    const sim = async (path: string, body: unknown = {}) => {
      const response = await fetch(`${simulator.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(response.status, 200, await response.text());
    };
    await sim('/sim/notification-url', { url: `${baseUrl}/terminals/mercadopago/webhook` });

    const manager = await insertUser(db, { role: 'manager', name: 'Marta' });
    const call = callerFor(app, await login(app, manager.name, manager.pin));
    const create = async (url: string, body: unknown) => {
      const response = await call('POST', url, body);
      assert.equal(response.statusCode, 201, response.body);
      return response.json().id as string;
    };
    const chosen = await call('PUT', '/settings/terminals', { default_terminal_id: CAJA_1 });
    assert.equal(chosen.statusCode, 200, chosen.body);
    const mains = await create('/categories', { name: 'Tacos', type: 'dish' });
    const pastor = await create('/dishes', { name: 'Tacos al pastor', price: 12.5, category_id: mains });
    const agua = await create('/dishes', { name: 'Agua de horchata', price: 8.25, category_id: mains });
    const table = await insertTable(db, { name: '7' });
    const orderId = await create('/orders/with-dishes', {
      order: { table_id: table.id },
      dishes: [{ dish_id: pastor }, { dish_id: agua }],
    });
    const cashier = await insertUser(db, { role: 'cashier', name: 'Carla' });
    const opened = await callerFor(app, await login(app, cashier.name, cashier.pin))('POST', '/shifts', {
      opening_cash: 500,
    });
    assert.equal(opened.statusCode, 201, opened.body);
    const screen = await insertUser(db, { role: 'display', name: 'Mostrador' });

    const browser = await launchBrowser(t);
    const till = await openDevice(browser, baseUrl, 'phone', 'es-MX');
    const display = await openDevice(browser, baseUrl, 'tablet', 'es-MX');
    await logInThroughScreen(till.page, cashier.name, cashier.pin);
    await till.page.goto('/app/till');
    await till.page.getByRole('button', { name: 'Conectar la pantalla del cliente' }).click();
    const shown = await till.page.getByText(/^Pantalla del cliente: código \d{6}/).textContent();
    const code = /\d{6}/.exec(shown ?? '')?.[0] ?? '';

    await display.page.goto('/app/');
    await display.page.getByRole('button', { name: screen.name, exact: true }).click();
    await display.page.getByLabel('PIN').fill(screen.pin);
    const enter = display.page.getByRole('button', { name: 'Entrar' });
    if (await enter.isVisible()) await enter.click().catch(() => undefined);
    await display.page.getByLabel('Código').fill(code);
    await display.page.getByRole('button', { name: 'Conectar' }).click();
    await display.page.getByText('Caja de Carla').waitFor();

    // One bill of 20.75 with a 10 % tip (2.08): the terminal charges 22.83.
    await till.page.goto(`/app/till/${orderId}`);
    await till.page.getByRole('button', { name: /^Una cuenta por todo/ }).click();
    await till.page.getByRole('heading', { name: 'Cobrar Cuenta 1' }).waitFor();
    await till.page.getByRole('button', { name: '10 %' }).click();
    await till.page.getByRole('button', { name: 'Terminal', exact: true }).click();
    // Two terminals are integrated: the restaurant's default is chosen, the other one may be.
    assert.equal(await till.page.getByLabel('Terminal', { exact: true }).inputValue(), CAJA_1);
    await saveScreenshot(till.page, 'terminal-till-ready');
    await till.page.getByRole('button', { name: 'Cobrar con terminal: $22.83' }).click();
    await till.page.getByText('Acerque, inserte o deslice la tarjeta en la terminal').waitFor();
    await till.page.getByRole('button', { name: 'Cancelar cobro' }).waitFor();
    await assertAccessible(till.page, 'caja esperando a la terminal');
    await saveScreenshot(till.page, 'terminal-till-waiting');
    await display.page.getByText('Pague en la terminal').waitFor();
    await display.page.locator('.display-terminal').getByText('$22.83').waitFor();
    await assertAccessible(display.page, 'pantalla del cliente: pague en la terminal');
    await saveScreenshot(display.page, 'terminal-display-pay');

    // A wrong amount is withdrawn from the till while the terminal shows it; the next attempt is a new charge.
    await till.page.getByRole('button', { name: 'Cancelar cobro' }).click();
    await till.page.getByRole('button', { name: 'Reintentar' }).waitFor();
    await saveScreenshot(till.page, 'terminal-till-canceled');
    await till.page.getByRole('button', { name: 'Reintentar' }).click();
    await till.page.getByText('Acerque, inserte o deslice la tarjeta en la terminal').waitFor();
    await display.page.getByText('Pague en la terminal').waitFor();

    // The bank declines the card: the till says why and offers another attempt.
    await sim(`/sim/terminals/${CAJA_1}/decline`);
    const reason = till.page.locator('.terminal-pay [role="alert"]');
    await reason.waitFor();
    const why = (await reason.textContent()) ?? '';
    assert.notEqual(why.trim(), '');
    await till.page.getByRole('button', { name: 'Otro método' }).waitFor();
    await saveScreenshot(till.page, 'terminal-till-declined');
    await display.page.getByText(why).waitFor();
    await saveScreenshot(display.page, 'terminal-display-declined');

    await till.page.getByRole('button', { name: 'Reintentar' }).click();
    await till.page.getByText('Acerque, inserte o deslice la tarjeta en la terminal').waitFor();
    await display.page.getByText('Pague en la terminal').waitFor();
    // The terminal asks for something (a PIN, another tap): both screens say to check it.
    await sim(`/sim/terminals/${CAJA_1}/action-required`);
    await till.page.getByText('Revisa la terminal').waitFor();
    await display.page.getByText('Revise la terminal').waitFor();
    await saveScreenshot(display.page, 'terminal-display-check');
    await sim(`/sim/terminals/${CAJA_1}/tap`, { brand: 'master', type: 'debit', last_four: '4321' });
    await till.page
      .getByText(/Pagado con Mastercard •••• 4321, autorización \S+/)
      .first()
      .waitFor();
    await till.page.getByText('Cuenta 1 está pagada.').waitFor();
    await display.page.getByText('Pago aprobado. ¡Gracias!').waitFor();
    await saveScreenshot(till.page, 'terminal-till-paid');
    await saveScreenshot(display.page, 'terminal-display-paid');

    const bill = await call('GET', `/orders/${orderId}/tickets`);
    assert.equal(bill.statusCode, 200, bill.body);
    const [ticket] = bill.json() as { balance: number; status: number }[];
    assert.equal(ticket?.balance, 0);

    // The cashier's Z report so far: the terminal's payment under its brand, with Mercado Pago's fee.
    await till.page.goto('/app/till');
    const byBrand = till.page.getByRole('table', { name: 'Terminal de tarjetas por marca' });
    await byBrand.getByRole('row', { name: /Mastercard 1 \$20\.75 \$2\.08 \$0\.\d\d/ }).waitFor();
    await till.page.getByText(/^Comisiones de Mercado Pago: \$0\.\d\d$/).waitFor();
    await saveScreenshot(till.page, 'terminal-till-z-report');

    // The manager sees each terminal's mode and makes the second till's terminal the default.
    const office = await openDevice(browser, baseUrl, 'tablet', 'es-MX');
    await logInThroughScreen(office.page, manager.name, manager.pin);
    await office.page.goto('/app/manager/terminal');
    await office.page.getByRole('heading', { name: 'Terminal de tarjetas' }).waitFor();
    await office.page
      .getByText('Independiente: cámbiala a modo integrado en la app de Mercado Pago')
      .waitFor();
    assert.equal(await office.page.getByRole('cell', { name: 'Integrada' }).count(), 2);
    await office.page.getByLabel('PAX A910 · SMARTPOS0000000002').check();
    await office.page.getByText('Terminal predeterminada guardada').waitFor();
    await assertAccessible(office.page, 'gerencia: terminal de tarjetas');
    await saveScreenshot(office.page, 'terminal-manager');
    const terminals = await call('GET', '/terminals');
    assert.deepEqual(
      (terminals.json() as { id: string; is_default: boolean }[])
        .filter((one) => one.is_default)
        .map((one) => one.id),
      ['PAX_A910__SMARTPOS0000000002'],
    );

    // A refund of the terminal's payment goes back to the card through Mercado Pago, which answers later.
    await office.page.goto(`/app/till/${orderId}`);
    await office.page.getByRole('button', { name: 'Pagos y ticket de Cuenta 1' }).click();
    await office.page.getByRole('button', { name: /^Reembolsar el pago con Terminal de \$20\.75$/ }).click();
    await office.page.getByLabel('Motivo del reembolso').fill('Cobro duplicado');
    await office.page.getByRole('button', { name: 'Reembolsar', exact: true }).click();
    await office.page.getByText('Devolución enviada a Mercado Pago: en proceso.').waitFor();
    await saveScreenshot(office.page, 'terminal-refund-sent');

    assert.deepEqual(till.consoleErrors, []);
    assert.deepEqual(display.consoleErrors, []);
    assert.deepEqual(office.consoleErrors, []);
  });
});
