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
import { lineOf, readyLine } from './kitchen-till-steps';

const [target] = databaseTargets as [(typeof databaseTargets)[number]];

describe('web app: kitchen cards grouped by order', { skip: skipWithoutChromium }, () => {
  it('shows four beers of one order as one "4 ×" line, readies all four with one tap, and a bump clears them off', async (t) => {
    const { baseUrl, db } = await startPlainWebServer(t, target);
    const manager = await insertUser(db, { name: 'Mara', role: 'manager' });
    const cook = await insertUser(db, { name: 'Kiko', role: 'kitchen' });
    const space = await insertSpace(db, { name: 'Terrace' });
    const table = await insertTable(db, { name: '5', spaceId: space.id });
    const drinks = await insertCategory(db, { name: 'Drinks', type: 'dish' });
    const beer = await insertDish(db, { name: 'Beer', priceCents: 400, categoryId: drinks.id });
    const tacos = await insertDish(db, { name: 'Tacos', priceCents: 1200, categoryId: drinks.id });

    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl);
    await logInThroughScreen(page, manager.name, manager.pin);
    // Four beers and a plate of tacos, one of them with a note: that beer is a line of its own.
    const created = await page.request.post('/orders/with-dishes', {
      data: {
        order: { table_id: table.id },
        dishes: [
          ...[1, 2, 3, 4].map(() => ({ dish_id: beer.id })),
          { dish_id: beer.id, notes: 'No ice' },
          { dish_id: tacos.id },
        ],
      },
    });
    assert.equal(created.status(), 201, await created.text());
    const orderId = ((await created.json()) as { id: string }).id;
    const sent = await page.request.post(`/orders/${orderId}/send`);
    assert.equal(sent.status(), 200, await sent.text());

    const kitchen = await openDevice(browser, baseUrl);
    await logInThroughScreen(kitchen.page, cook.name, cook.pin);
    await kitchen.page.waitForURL((url) => url.pathname === '/app/kitchen');
    const card = kitchen.page.locator(`.kitchen-order[data-order-id="${orderId}"]`);
    await card.getByRole('heading', { name: /^Table 5 Order / }).waitFor();
    const beers = card.locator('.kitchen-dish[data-count="4"]');
    await beers.waitFor();
    assert.equal(await beers.locator('.dish-count').textContent(), '4 ×');
    assert.equal(await beers.locator('.dish-name').textContent(), 'Beer');
    assert.equal(await card.locator('.kitchen-dish').count(), 3, '4 × Beer, 1 × Beer (No ice), 1 × Tacos');
    const plainBeers = await db
      .selectFrom('order_dishes')
      .select('id')
      .where('order_id', '=', orderId)
      .where('dish_id', '=', beer.id)
      .where('notes', '=', '')
      .execute();
    assert.equal(plainBeers.length, 4);
    const beerIds = ((await beers.getAttribute('data-ids')) ?? '').split(' ').sort();
    assert.deepEqual(beerIds, plainBeers.map((plate) => plate.id).sort());

    // One line, two taps: every plate of the group is ready in the database.
    // The four beers' own line: the card's lines follow the plates' ids, so the first line is any of the three.
    await readyLine(kitchen.page, beerIds[0] as string);
    const ready = lineOf(kitchen.page, beerIds[0] as string, 'ready');
    assert.equal(await ready.getAttribute('data-count'), '4');
    const statuses = await db
      .selectFrom('order_dishes')
      .select(['id', 'status'])
      .where('order_id', '=', orderId)
      .execute();
    for (const plate of statuses)
      assert.equal(plate.status, beerIds.includes(plate.id) ? 'ready' : 'sent', plate.id);
    await assertAccessible(kitchen.page, 'kitchen with grouped cards');
    await saveScreenshot(kitchen.page, 'kitchen-grouped');

    // The bump takes the four off this screen, for good on this device; they stay ready to serve.
    await kitchen.page.getByRole('button', { name: 'Done 4 × Beer' }).click();
    await ready.waitFor({ state: 'detached' });
    await kitchen.page.reload();
    await card.locator('.kitchen-dish').nth(1).waitFor();
    assert.equal(await card.locator('.kitchen-dish').count(), 2, 'the bumped beers stay off after a reload');
    assert.equal(await card.getByText('Beer', { exact: true }).count(), 1, 'only the beer with no ice');
    const stillReady = await db
      .selectFrom('order_dishes')
      .select('status')
      .where('id', 'in', beerIds)
      .execute();
    assert.deepEqual(
      stillReady.map((plate) => plate.status),
      ['ready', 'ready', 'ready', 'ready'],
    );
    await saveScreenshot(kitchen.page, 'kitchen-grouped-bumped');
    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(kitchen.consoleErrors, []);
  });
});
