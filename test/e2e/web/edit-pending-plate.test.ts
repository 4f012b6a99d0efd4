import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { login } from '../../helpers/auth';
import { databaseTargets } from '../../helpers/database';
import { insertSpace, insertTable, insertUser } from '../../helpers/factories';
import { tacoStandMenu } from '../../helpers/modifier-factories';
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
import { goToFloor, menuDish, openFreeTable, orderedDishes, waitForDishStatuses } from './floor-order-steps';

describe('web app: changing a plate before it goes to the kitchen', { skip: skipWithoutChromium }, () => {
  // Unlike most screen tests, each engine: the save reprices the plate and rewrites its options
  // snapshot, and the stored row is what the kitchen and the bill read.
  for (const target of databaseTargets) {
    it(`edits pending tacos to other options, seat and course; a sent plate has no edit [${target.name}]`, async (t) => {
      const { app, db, baseUrl } = await startPlainWebServer(t, target);
      const manager = await insertUser(db, { name: 'Mara', role: 'manager' });
      const waiter = await insertUser(db, { name: 'Wendy', role: 'waiter' });
      const call = callerFor(app, await login(app, manager.name, manager.pin));
      const space = await insertSpace(db, { name: 'Terrace' });
      await insertTable(db, { name: '4', spaceId: space.id });
      await tacoStandMenu(call, { flourDelta: 5, groupOrder: 'tortilla first' });

      const browser = await launchBrowser(t);
      const floor = await openDevice(browser, baseUrl);
      const page = floor.page;
      await logInThroughScreen(page, waiter.name, waiter.pin);
      await goToFloor(page);
      await openFreeTable(page, '4', 4);
      await page.getByRole('heading', { level: 1, name: 'Table 4' }).waitFor();
      const orderId = new URL(page.url()).pathname.split('/').pop() as string;

      // Tacos with corn, as they first came out.
      await menuDish(page, 'Tacos al pastor').click();
      const adding = page.getByRole('dialog', { name: 'Tacos al pastor' });
      await adding.getByLabel('Corn').check();
      await adding.getByRole('button', { name: 'Add 1 × Tacos al pastor' }).click();
      await adding.waitFor({ state: 'detached' });
      const tacoLine = orderedDishes(page).filter({ hasText: 'Tacos al pastor' });
      await tacoLine.getByText('Corn', { exact: true }).waitFor();

      // The guest wants flour and pineapple, on seat 3, after the starters.
      await tacoLine.getByRole('button', { name: 'Edit Tacos al pastor' }).click();
      const panel = page.getByRole('dialog', { name: 'Tacos al pastor' });
      await panel.waitFor();
      assert.equal(await panel.getByLabel('Corn').isChecked(), true, 'the plate comes prefilled');
      assert.equal(await panel.getByLabel('Seat').inputValue(), '');
      assert.equal(await panel.getByLabel('Course').inputValue(), '1');
      assert.equal(
        await panel.getByRole('button', { name: 'One more' }).count(),
        0,
        'one plate: no quantity',
      );
      await panel.getByText('$85.00').waitFor();
      await panel.getByLabel('Flour').check();
      await panel.getByLabel('Extra pineapple').check();
      await panel.getByLabel('Seat').selectOption({ label: 'Seat 3' });
      await panel.getByLabel('Course').selectOption({ label: 'Course 2' });
      await panel.getByText('$100.00').waitFor();
      await assertAccessible(page, 'edit plate panel');
      await saveScreenshot(page, 'order-edit-plate');
      await panel.getByRole('button', { name: 'Save', exact: true }).click();
      await panel.waitFor({ state: 'detached' });
      await page.getByRole('status').filter({ hasText: 'Tacos al pastor changed' }).waitFor();
      await tacoLine.getByText('Flour, Extra pineapple', { exact: true }).waitFor();
      await tacoLine.getByText('$100.00').waitFor();
      await tacoLine.getByText('Seat 3 · Course 2').waitFor();
      assert.equal(await orderedDishes(page).count(), 1, 'the plate changed, none was added');

      const plate = await db
        .selectFrom('order_dishes')
        .select(['id', 'price_at_order_cents', 'seat', 'course'])
        .where('order_id', '=', orderId)
        .executeTakeFirstOrThrow();
      assert.deepEqual([Number(plate.price_at_order_cents), plate.seat, plate.course], [10_000, 3, 2]);
      const snapshot = await db
        .selectFrom('order_dish_modifiers')
        .select(['group_name', 'name', 'price_delta_cents'])
        .where('order_dish_id', '=', plate.id)
        .orderBy('position')
        .execute();
      assert.deepEqual(
        snapshot.map((option) => [option.group_name, option.name, Number(option.price_delta_cents)]),
        [
          ['Tortilla', 'Flour', 500],
          ['Extras', 'Extra pineapple', 1000],
        ],
      );

      // A dish without options still moves to another seat and course.
      await menuDish(page, 'Agua de jamaica').click();
      const drinkLine = orderedDishes(page).filter({ hasText: 'Agua de jamaica' });
      await drinkLine.getByRole('button', { name: 'Edit Agua de jamaica' }).click();
      const drinkPanel = page.getByRole('dialog', { name: 'Agua de jamaica' });
      assert.equal(await drinkPanel.locator('fieldset.plate-group').count(), 0);
      await drinkPanel.getByLabel('Seat').selectOption({ label: 'Seat 1' });
      await drinkPanel.getByLabel('Course').selectOption({ label: 'Course 2' });
      await drinkPanel.getByRole('button', { name: 'Save', exact: true }).click();
      await drinkLine.getByText('Seat 1 · Course 2').waitFor();
      await drinkLine.getByText('$30.00').waitFor();

      // Sent: the kitchen has the plates, whose options no longer change.
      await page.getByRole('button', { name: 'Fire course 2' }).click();
      await page.getByRole('status').filter({ hasText: 'Sent to the kitchen: 2' }).waitFor();
      await waitForDishStatuses(page, 'sent', 2);
      assert.equal(
        await orderedDishes(page)
          .getByRole('button', { name: /^Edit / })
          .count(),
        0,
      );

      assert.deepEqual(floor.consoleErrors, []);
    });
  }
});
