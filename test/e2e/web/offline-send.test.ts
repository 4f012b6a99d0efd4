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
import { goToFloor, menuDish, openFreeTable, orderedDishes, waitForDishStatuses } from './floor-order-steps';

const [target] = databaseTargets as [(typeof databaseTargets)[number]];

describe('web app: a send to the kitchen survives a server that is away', {
  skip: skipWithoutChromium,
}, () => {
  it('keeps the send pending while the server is unreachable, sends it again with the same key, and the plates reach the kitchen once', async (t) => {
    const { baseUrl, db } = await startPlainWebServer(t, target);
    const waiter = await insertUser(db, { role: 'waiter' });
    const space = await insertSpace(db, { name: 'Dining room' });
    await insertTable(db, { name: '7', spaceId: space.id });
    const drinks = await insertCategory(db, { name: 'Drinks', type: 'dish' });
    await insertDish(db, { name: 'Beer', priceCents: 450, categoryId: drinks.id });

    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl);
    await logInThroughScreen(page, waiter.name, waiter.pin);
    await goToFloor(page);
    await openFreeTable(page, '7');
    await menuDish(page, 'Beer').waitFor();
    const orderId = new URL(page.url()).pathname.split('/').at(-1) as string;
    for (let n = 1; n <= 2; n++) {
      await menuDish(page, 'Beer').click();
      await orderedDishes(page)
        .nth(n - 1)
        .waitFor();
    }
    await waitForDishStatuses(page, 'Pending', 2);
    const changesBefore = await dishesChangedEvents(db, orderId);

    // The server is away: every send is refused at the connection. When it is back, the first
    // attempt reaches it but its answer is lost (the worst case for a doubled send).
    let serverAway = true;
    let answerLost = false;
    const keys: string[] = [];
    await page.route(`**/orders/${orderId}/send`, async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (serverAway) return route.abort('connectionrefused');
      if (!answerLost) {
        answerLost = true;
        await route.fetch();
        return route.abort('connectionreset');
      }
      return route.continue();
    });

    await page.getByRole('button', { name: /^Send to kitchen/ }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /Changes are kept and sent again when it is back. Changes waiting: 1$/ })
      .waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /^Sending to the kitchen…/ })
      .waitFor();
    while (keys.length < 2) await page.waitForTimeout(100);
    // Pending, not failed: no error under the banner, the plates still wait.
    assert.equal(await page.locator('.order-screen .error').count(), 0);
    await waitForDishStatuses(page, 'Pending', 2);
    await saveScreenshot(page, 'offline-send-pending');
    await assertAccessible(page, 'order screen, send pending');

    serverAway = false;
    await page
      .getByRole('status')
      .filter({ hasText: /^(Sent to the kitchen: 2|Every dish is already in the kitchen\.)$/ })
      .waitFor({ timeout: 30_000 });
    await waitForDishStatuses(page, 'Sent', 2);
    await page
      .getByRole('alert')
      .filter({ hasText: /Changes are kept/ })
      .waitFor({ state: 'detached' });
    await saveScreenshot(page, 'offline-send-landed');

    assert.ok(answerLost, 'one attempt reached the server and lost its answer');
    assert.ok(keys.length >= 4, `sent ${keys.length} times`);
    assert.ok(keys[0] && keys.every((key) => key === keys[0]), 'every attempt carries the same key');
    assert.equal(await page.locator('.order-screen .error').count(), 0, 'no stale error');
    const stored = await db
      .selectFrom('order_dishes')
      .select('status')
      .where('order_id', '=', orderId)
      .execute();
    assert.deepEqual(
      stored.map((dish) => dish.status),
      ['sent', 'sent'],
    );
    assert.equal(await dishesChangedEvents(db, orderId), changesBefore + 1, 'sent to the kitchen once');
    assert.deepEqual(
      consoleErrors.filter((error) => !error.includes('net::ERR_')),
      [],
    );
  });
});

async function dishesChangedEvents(
  db: Awaited<ReturnType<typeof startPlainWebServer>>['db'],
  orderId: string,
): Promise<number> {
  const rows = await db
    .selectFrom('events')
    .select('payload')
    .where('type', '=', 'order.dishes_changed')
    .execute();
  return rows.filter(
    (row) => (JSON.parse(row.payload) as { data: { order: { id: string } } }).data.order.id === orderId,
  ).length;
}
