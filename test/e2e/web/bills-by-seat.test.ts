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
  startPlainWebServer,
} from './browser';

const [target] = databaseTargets as [(typeof databaseTargets)[number]];

describe('web app: the till bills by seat', { skip: skipWithoutChromium }, () => {
  it('makes one bill per seat and one for the plates without a seat, in Spanish', async (t) => {
    const { app, db, baseUrl } = await startPlainWebServer(t, target);
    const cashier = await insertUser(db, { role: 'manager', name: 'Marta' });
    const call = callerFor(app, await login(app, cashier.name, cashier.pin));
    const create = async (url: string, body: unknown) => {
      const response = await call('POST', url, body);
      assert.equal(response.statusCode, 201, response.body);
      return response.json().id as string;
    };
    const mains = await create('/categories', { name: 'Platos', type: 'dish' });
    const tacos = await create('/dishes', { name: 'Tacos', price: 90, category_id: mains });
    const soup = await create('/dishes', { name: 'Sopa', price: 60, category_id: mains });
    const bread = await create('/dishes', { name: 'Pan', price: 20, category_id: mains });
    await create('/shifts', { opening_cash: 50 });
    const orderId = await create('/orders/with-dishes', {
      order: {},
      dishes: [
        { dish_id: tacos, seat: 1 },
        { dish_id: soup, seat: 2 },
        { dish_id: tacos, seat: 2 },
        { dish_id: bread },
      ],
    });

    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl, 'tablet', 'es-MX');
    await logInThroughScreen(page, cashier.name, cashier.pin);
    await page.goto(`/app/till/${orderId}`);
    await page.getByRole('heading', { name: 'Hacer cuentas' }).waitFor();
    await assertAccessible(page, 'till offering bills by seat');
    await saveScreenshot(page, 'till-bill-by-seat');
    await page.getByRole('button', { name: 'Una cuenta por comensal' }).click();
    await page.locator('.till-bill').nth(2).waitFor();
    await saveScreenshot(page, 'till-bills-by-seat');

    const bills = (await call('GET', `/orders/${orderId}/tickets`)).json() as {
      total: number;
      order_dish_ids: string[];
    }[];
    assert.deepEqual(
      bills.map((bill) => [bill.total, bill.order_dish_ids.length]),
      [
        [90, 1],
        [150, 2],
        [20, 1],
      ],
    );
    // Each bill is named by its seat, the plates without a seat by the bill's place.
    assert.deepEqual(await page.locator('.till-bill-head strong').allTextContents(), [
      'Comensal 1',
      'Comensal 2',
      'Cuenta 3',
    ]);
    // The till opens the first seat's bill to pay.
    await page.getByRole('heading', { name: 'Cobrar Comensal 1' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Una cuenta por comensal' }).count(), 0);

    // Seat 1 pays 90.00 in cash with a 10 % tip and a 200 note: the receipt adds it up.
    await page.getByRole('button', { name: '10 %' }).click();
    await page.getByRole('button', { name: 'Efectivo', exact: true }).click();
    await page.getByLabel('Efectivo recibido').fill('200');
    await page.getByRole('button', { name: 'Cobrar en efectivo' }).click();
    await page.getByText('Efectivo cobrado. Cambio a devolver: $101.00').waitFor();
    await page.getByRole('heading', { name: 'Ticket de Comensal 1' }).waitFor();
    await page.getByRole('button', { name: 'Ver el ticket' }).click();
    const receipt = (await page.locator('pre.receipt-text').textContent()) ?? '';
    for (const line of [
      /^Comensal 1$/m,
      /^1 x Tacos +\$90\.00$/m,
      /^Efectivo +\$90\.00$/m,
      /^Propina +\$9\.00$/m,
      /^Total con propina +\$99\.00$/m,
      /^Efectivo recibido +\$200\.00$/m,
      /^Cambio +\$101\.00$/m,
    ]) {
      assert.match(receipt, line);
    }
    await page.locator('pre.receipt-text').scrollIntoViewIfNeeded();
    await assertAccessible(page, 'till with the cash receipt of a seat');
    await saveScreenshot(page, 'till-cash-receipt-by-seat');
    assert.deepEqual(consoleErrors, []);
  });
});
