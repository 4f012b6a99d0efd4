import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseTargets } from '../../helpers/database';
import { insertCategory, insertDish, insertSpace, insertTable, insertUser } from '../../helpers/factories';
import {
  launchBrowser,
  logInThroughScreen,
  openDevice,
  saveScreenshot,
  skipWithoutChromium,
  startPlainWebServer,
} from './browser';
import { movePlatesThroughScreen, openTableAndOrder, orderedDishes } from './floor-order-steps';

const [target] = databaseTargets as [(typeof databaseTargets)[number]];

describe('web app: moving plates between orders', { skip: skipWithoutChromium }, () => {
  it('moves a sent plate from table 3 to table 5 from the order screen; both totals follow', async (t) => {
    const { baseUrl, db } = await startPlainWebServer(t, target);
    const waiter = await insertUser(db, { name: 'Wen', role: 'waiter' });
    const space = await insertSpace(db, { name: 'Terrace' });
    for (const name of ['3', '5']) await insertTable(db, { name, spaceId: space.id });
    const mains = await insertCategory(db, { name: 'Mains', type: 'dish' });
    await insertDish(db, { name: 'Tacos', priceCents: 1200, categoryId: mains.id });
    await insertDish(db, { name: 'Pozole', priceCents: 1500, categoryId: mains.id });

    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl);
    await logInThroughScreen(page, waiter.name, waiter.pin);
    const five = await openTableAndOrder(page, '5', [{ name: 'Tacos' }]);
    const three = await openTableAndOrder(page, '3', [{ name: 'Tacos' }, { name: 'Pozole' }]);

    await page.getByRole('button', { name: 'Move plates…' }).click();
    await page
      .getByRole('dialog', { name: 'Move plates to another order' })
      .getByLabel('To the order of')
      .waitFor();
    await saveScreenshot(page, 'move-plates-panel');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await movePlatesThroughScreen(page, ['Pozole'], 'Table 5 · Wen');

    await orderedDishes(page).filter({ hasText: 'Pozole' }).waitFor({ state: 'detached' });
    assert.equal(await orderedDishes(page).count(), 1);
    await page.getByText('$12.00', { exact: true }).first().waitFor();
    const totals = await db
      .selectFrom('orders')
      .select(['id', 'total_cents'])
      .where('id', 'in', [three, five])
      .execute();
    assert.deepEqual(Object.fromEntries(totals.map((row) => [row.id, Number(row.total_cents)])), {
      [three]: 1200,
      [five]: 2700,
    });
    const moved = await db
      .selectFrom('order_dishes')
      .select(['order_id', 'status'])
      .where('order_id', '=', five)
      .execute();
    assert.deepEqual(moved.map((row) => row.status).sort(), ['sent', 'sent'], 'kept its kitchen status');
    assert.deepEqual(consoleErrors, []);
  });
});
