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
import { goToFloor, openTableAndOrder, tableTile } from './floor-order-steps';
import { markDishesReady } from './kitchen-till-steps';

const [target] = databaseTargets as [(typeof databaseTargets)[number]];

describe('web app: the floor during a service', { skip: skipWithoutChromium }, () => {
  it('shows on an occupied table its waiter, how long it is seated and a live "ready" badge', async (t) => {
    const { baseUrl, db } = await startPlainWebServer(t, target);
    const waiter = await insertUser(db, { name: 'Wen', role: 'waiter' });
    const cook = await insertUser(db, { name: 'Kiko', role: 'kitchen' });
    const space = await insertSpace(db, { name: 'Terrace' });
    await insertTable(db, { name: '3', spaceId: space.id });
    await insertTable(db, { name: '4', spaceId: space.id });
    await insertTable(db, { name: 'Table 7', spaceId: space.id });
    const mains = await insertCategory(db, { name: 'Mains', type: 'dish' });
    await insertDish(db, { name: 'Tacos', priceCents: 1200, categoryId: mains.id });

    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl);
    await logInThroughScreen(page, waiter.name, waiter.pin);
    await openTableAndOrder(page, '3', [{ name: 'Tacos' }, { name: 'Tacos' }]);
    await goToFloor(page);
    const tile = tableTile(page, '3', 'Occupied');
    await tile.getByText('Waiter: Wen').waitFor();
    // The order by the code its chit and the kitchen screen print.
    const order = await db.selectFrom('orders').select('id').executeTakeFirstOrThrow();
    await tile.getByText(`Order ${order.id.slice(0, 6).toUpperCase()}`, { exact: true }).waitFor();
    // Counted on the device's clock from the order's opening (the test server's clock is a fixed one).
    await tile.getByText(/^Seated (\d+ min|\d+ h \d\d) ago$/).waitFor();
    assert.equal(await tile.locator('.floor-table-ready').count(), 0, 'nothing ready yet');
    // No guest count on these orders: the tile says nothing of guests rather than a made-up one.
    assert.equal(await tile.getByText(/guests/).count(), 0);

    const kitchen = await openDevice(browser, baseUrl);
    await logInThroughScreen(kitchen.page, cook.name, cook.pin);
    await markDishesReady(kitchen.page, 'kitchen', 2);

    // Live: the floor hears the kitchen without a reload.
    await tile.locator('.floor-table-ready', { hasText: '2 ready' }).waitFor();
    assert.equal(await tableTile(page, '4', 'Free').locator('.floor-table-meta').count(), 0);
    // A table whose name says the word already is not called "Table Table 7", not even to a screen reader.
    const named = (await page.locator('[data-table="Table 7"]').textContent()) ?? '';
    assert.equal(named.includes('Table Table'), false, named);
    await assertAccessible(page, 'floor with a ready table');
    await saveScreenshot(page, 'floor-tiles-ready');
    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(kitchen.consoleErrors, []);
  });
});
