import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseTargets } from '../../helpers/database';
import { insertCategory, insertDish, insertSpace, insertTable, insertUser } from '../../helpers/factories';
import {
  assertAccessible,
  launchBrowser,
  logInThroughScreen,
  openDevice,
  saveScreenshot,
  skipWithoutChromium,
  startPlainWebServer,
} from './browser';
import { openTableAndOrder } from './floor-order-steps';

const [target] = databaseTargets as [(typeof databaseTargets)[number]];

describe('web app: the kitchen hears of a voided plate', { skip: skipWithoutChromium }, () => {
  it('shows a loud alert naming the plate and its table until a cook acknowledges it', async (t) => {
    const { baseUrl, db } = await startPlainWebServer(t, target);
    const manager = await insertUser(db, { name: 'Mara', role: 'manager' });
    const cook = await insertUser(db, { name: 'Kiko', role: 'kitchen' });
    const space = await insertSpace(db, { name: 'Terrace' });
    await insertTable(db, { name: '3', spaceId: space.id });
    const mains = await insertCategory(db, { name: 'Mains', type: 'dish' });
    await insertDish(db, { name: 'Tacos', priceCents: 1200, categoryId: mains.id });
    await insertDish(db, { name: 'Pozole', priceCents: 1500, categoryId: mains.id });

    const browser = await launchBrowser(t);
    const kitchen = await openDevice(browser, baseUrl);
    await logInThroughScreen(kitchen.page, cook.name, cook.pin);
    await kitchen.page.waitForURL((url) => url.pathname === '/app/kitchen');

    const { page, consoleErrors } = await openDevice(browser, baseUrl);
    await logInThroughScreen(page, manager.name, manager.pin);
    const orderId = await openTableAndOrder(page, '3', [{ name: 'Tacos' }, { name: 'Pozole' }]);
    await kitchen.page.locator('.kitchen-dish').nth(1).waitFor();
    const tacos = await db
      .selectFrom('order_dishes')
      .innerJoin('dishes', 'dishes.id', 'order_dishes.dish_id')
      .select('order_dishes.id')
      .where('order_dishes.order_id', '=', orderId)
      .where('dishes.name', '=', 'Tacos')
      .executeTakeFirstOrThrow();
    const status = await page.evaluate(
      async ({ orderId, dishId }) =>
        (
          await fetch(`/orders/${orderId}/dishes/${dishId}/status`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ status: 'voided', reason: 'Guest changed their mind' }),
          })
        ).status,
      { orderId, dishId: tacos.id },
    );
    assert.equal(status, 200);

    const alert = kitchen.page
      .getByRole('alert')
      .filter({ hasText: 'Voided: Tacos, Table 3. Do not make it. (Guest changed their mind)' });
    await alert.waitFor();
    assert.equal(await kitchen.page.locator('.kitchen-dish').count(), 1, 'the voided plate left the queue');
    await assertAccessible(kitchen.page, 'kitchen with a void alert');
    await saveScreenshot(kitchen.page, 'kitchen-void-alert');
    await kitchen.page.getByRole('button', { name: 'Got it Tacos' }).click();
    await alert.waitFor({ state: 'detached' });
    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(kitchen.consoleErrors, []);
  });
});
