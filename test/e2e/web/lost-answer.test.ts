import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { databaseTargets } from '../../helpers/database';
import { insertCategory, insertDish, insertSpace, insertTable, insertUser } from '../../helpers/factories';
import {
  launchBrowser,
  logInThroughScreen,
  openDevice,
  skipWithoutChromium,
  startPlainWebServer,
} from './browser';
import { goToFloor, menuDish, openFreeTable, orderedDishes } from './floor-order-steps';

const [target] = databaseTargets as [(typeof databaseTargets)[number]];

/** A waiter's tablet on the order screen of table 4, just opened; the menu has a paella. */
async function waiterAtFreeTable(t: TestContext) {
  const { baseUrl, db } = await startPlainWebServer(t, target);
  const waiter = await insertUser(db, { role: 'waiter' });
  const space = await insertSpace(db, { name: 'Dining room' });
  await insertTable(db, { name: '4', spaceId: space.id });
  const mains = await insertCategory(db, { name: 'Mains', type: 'dish' });
  await insertDish(db, { name: 'Paella', priceCents: 1850, categoryId: mains.id });

  const browser = await launchBrowser(t);
  const { page } = await openDevice(browser, baseUrl);
  await logInThroughScreen(page, waiter.name, waiter.pin);
  await goToFloor(page);
  await openFreeTable(page, '4');
  return { db, page };
}

describe('web app: a waiter’s order is never lost nor doubled', { skip: skipWithoutChromium }, () => {
  it('sends a dish again with the same Idempotency-Key when the answer is lost, and the server keeps one', async (t) => {
    const { db, page } = await waiterAtFreeTable(t);
    await menuDish(page, 'Paella').waitFor();
    const orderId = new URL(page.url()).pathname.split('/').at(-1) as string;

    // The first attempt reaches the server, which stores the dish; its answer never reaches the
    // tablet (the connection drops), as on a flaky Wi-Fi.
    const keys: string[] = [];
    await page.route(`**/orders/${orderId}/dishes`, async (route) => {
      const request = route.request();
      if (request.method() !== 'POST') return route.continue();
      keys.push(request.headers()['idempotency-key'] ?? '');
      if (keys.length === 1) {
        await route.fetch();
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    const retried = page.waitForResponse(
      (response) =>
        response.url().endsWith(`/orders/${orderId}/dishes`) && response.request().method() === 'POST',
    );
    await menuDish(page, 'Paella').click();
    const answer = await retried;
    // The retry is answered with the first attempt's stored answer.
    assert.equal(answer.status(), 201);
    await orderedDishes(page).filter({ hasText: 'Paella' }).waitFor();

    assert.equal(keys.length, 2, 'sent twice');
    assert.ok(keys[0] && keys[0] === keys[1], 'with the same key');
    const stored = await db.selectFrom('order_dishes').select('id').where('order_id', '=', orderId).execute();
    assert.equal(stored.length, 1);
    assert.equal(await orderedDishes(page).count(), 1);
  });

  it('tells the waiter the plates were sent when the answer to Send was lost and the retry replays it', async (t) => {
    const { db, page } = await waiterAtFreeTable(t);
    await menuDish(page, 'Paella').click();
    await menuDish(page, 'Paella').click();
    await orderedDishes(page).nth(1).waitFor();
    const orderId = new URL(page.url()).pathname.split('/').at(-1) as string;

    let attempts = 0;
    await page.route(`**/orders/${orderId}/send`, async (route) => {
      attempts++;
      if (attempts > 1) return route.continue();
      await route.fetch();
      return route.abort('connectionreset');
    });
    await page.getByRole('button', { name: /^Send/ }).click();
    await page.getByRole('status').filter({ hasText: 'Sent to the kitchen: 2' }).waitFor();
    assert.equal(attempts, 2);
    const stored = await db
      .selectFrom('order_dishes')
      .select('status')
      .where('order_id', '=', orderId)
      .execute();
    assert.deepEqual(
      stored.map((row) => row.status),
      ['sent', 'sent'],
    );
  });
});
