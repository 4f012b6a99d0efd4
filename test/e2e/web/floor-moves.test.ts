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
import { goToFloor, mergeTables, moveParty, openTableAndOrder, tableTile } from './floor-order-steps';
import { openTableAtTill, payFirstBillCash, seeOrderClosedItself } from './kitchen-till-steps';

const [target] = databaseTargets as [(typeof databaseTargets)[number]];

describe('web app: the floor moves a party', { skip: skipWithoutChromium }, () => {
  it('moves a party to a free table, merges another table into it, and the till bills the sum', async (t) => {
    const { baseUrl, db } = await startPlainWebServer(t, target);
    const waiter = await insertUser(db, { name: 'Wen', role: 'waiter' });
    const cashier = await insertUser(db, { name: 'Caro', role: 'cashier' });
    const space = await insertSpace(db, { name: 'Terrace' });
    for (const name of ['3', '5', '6']) await insertTable(db, { name, spaceId: space.id });
    const mains = await insertCategory(db, { name: 'Mains', type: 'dish' });
    await insertDish(db, { name: 'Tacos', priceCents: 1200, categoryId: mains.id });
    await insertDish(db, { name: 'Pozole', priceCents: 950, categoryId: mains.id });

    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl);
    await logInThroughScreen(page, waiter.name, waiter.pin);
    await openTableAndOrder(page, '3', [{ name: 'Tacos' }, { name: 'Pozole' }], 4);
    await goToFloor(page);
    await tableTile(page, '3', 'Occupied').getByText('4 guests').waitFor();

    // The party moves to table 5: the tiles follow from the server's events.
    await moveParty(page, '3', '5', async () => {
      await assertAccessible(page, 'floor move');
      await saveScreenshot(page, 'floor-move');
    });
    const five = tableTile(page, '5', 'Occupied');
    await five.filter({ hasText: '$21.50' }).waitFor();
    await five.getByText('4 guests').waitFor();

    // Another order at table 6 joins table 5's.
    await openTableAndOrder(page, '6', [{ name: 'Tacos' }]);
    await mergeTables(page, '5', '6', async () => {
      await assertAccessible(page, 'floor merge');
      await saveScreenshot(page, 'floor-merge');
    });
    await five.filter({ hasText: '$33.50' }).waitFor();
    await assertAccessible(page, 'floor after the merge');

    // The cashier bills table 5 at the till in one bill, takes cash and closes the order.
    const till = await openDevice(browser, baseUrl);
    await logInThroughScreen(till.page, cashier.name, cashier.pin);
    await openTableAtTill(till.page, '5');
    await till.page.getByRole('button', { name: /^One bill for everything \(\$33\.50\)/ }).click();
    await payFirstBillCash(till.page);
    await seeOrderClosedItself(till.page);

    await tableTile(page, '5', 'Free').waitFor();
    for (const name of ['3', '6']) await tableTile(page, name, 'Free').waitFor();
    assert.equal(await page.locator('.floor-table[data-status="occupied"]').count(), 0);
    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(till.consoleErrors, []);
  });
});
