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
import { goToFloor, menuDish, openFreeTable, orderedDishes } from './floor-order-steps';

const [target] = databaseTargets as [(typeof databaseTargets)[number]];

describe('web app: sending a plate that ran out since it was added', { skip: skipWithoutChromium }, () => {
  it('asks "out of stock: send anyway?" and sends only on yes', async (t) => {
    const { baseUrl, db } = await startPlainWebServer(t, target);
    const waiter = await insertUser(db, { role: 'waiter' });
    const space = await insertSpace(db, { name: 'Comedor' });
    await insertTable(db, { name: '7', spaceId: space.id });
    const mains = await insertCategory(db, { name: 'Platos fuertes', type: 'dish' });
    const tacos = await insertDish(db, { name: 'Tacos al pastor', priceCents: 9500, categoryId: mains.id });
    await insertDish(db, { name: 'Pozole', priceCents: 12000, categoryId: mains.id });

    const browser = await launchBrowser(t);
    const { page } = await openDevice(browser, baseUrl);
    await logInThroughScreen(page, waiter.name, waiter.pin);
    await goToFloor(page);
    await openFreeTable(page, '7');
    await menuDish(page, 'Tacos al pastor').click();
    await menuDish(page, 'Tacos al pastor').click();
    await menuDish(page, 'Pozole').click();
    await orderedDishes(page).nth(2).waitFor();
    await page.getByLabel('Language').selectOption({ label: 'Español' });
    const orderId = new URL(page.url()).pathname.split('/').at(-1) as string;
    const statuses = async () =>
      (await db.selectFrom('order_dishes').select('status').where('order_id', '=', orderId).execute())
        .map((row) => row.status)
        .sort();

    // Another tablet sold the last ones (or the kitchen 86ed it) after the waiter typed the plates.
    await db.updateTable('dishes').set({ is_available: 0 }).where('id', '=', tacos.id).execute();
    const send = page.getByRole('button', { name: /^Enviar a cocina/ });
    await send.click();
    const question = page.getByRole('dialog', { name: 'Sin existencias: ¿enviar de todos modos?' });
    await question.getByRole('listitem').filter({ hasText: '2 × Tacos al pastor' }).waitFor();
    assert.equal(await question.getByText('Pozole').count(), 0, 'only the plates out of stock are named');
    await saveScreenshot(page, 'send-out-of-stock-es');
    await question.getByRole('button', { name: 'No enviar' }).click();
    await question.waitFor({ state: 'hidden' });
    assert.deepEqual(await statuses(), ['pending', 'pending', 'pending'], 'nothing sent on no');

    await send.click();
    await question.getByRole('button', { name: 'Enviar de todos modos' }).click();
    await page.getByRole('status').filter({ hasText: 'Enviados a cocina: 3' }).waitFor();
    assert.deepEqual(await statuses(), ['sent', 'sent', 'sent']);
  });
});
