import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { login } from '../../helpers/auth';
import { databaseTargets } from '../../helpers/database';
import { insertDish, insertTable, insertUser } from '../../helpers/factories';
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
import { assertOrderReadOnly } from './drawer-steps';

const [target] = databaseTargets as [(typeof databaseTargets)[number]];

describe('web app: the PIN pad and each role’s own screen', { skip: skipWithoutChromium }, () => {
  it('corrects a mistyped digit with the delete key, logs in as the last digit is tapped, and lands the cashier on the till, the cook on the kitchen, the waiter on the floor, the manager on the dashboard', async (t) => {
    const { baseUrl, db } = await startPlainWebServer(t, target);
    const people = [
      { user: await insertUser(db, { name: 'Carla', role: 'cashier', pin: '4821' }), home: '/app/till' },
      { user: await insertUser(db, { name: 'Kiko', role: 'kitchen', pin: '739105' }), home: '/app/kitchen' },
      { user: await insertUser(db, { name: 'Wen', role: 'waiter', pin: '5150' }), home: '/app/floor' },
      {
        user: await insertUser(db, { name: 'Mara', role: 'manager', pin: '8080' }),
        home: '/app/manager/dashboard',
      },
    ];
    // A PIN set before its length was kept: the pad cannot know when it is complete.
    await db.updateTable('users').set({ pin_length: null }).where('name', '=', 'Mara').execute();
    const browser = await launchBrowser(t);

    for (const { user, home } of people) {
      const { page, consoleErrors } = await openDevice(browser, baseUrl);
      await page.goto('/app/');
      await page.getByRole('button', { name: user.name, exact: true }).click();
      const pad = page.locator('.pin-pad');
      const tap = (digit: string) => pad.getByRole('button', { name: digit, exact: true }).click();
      const erase = page.getByRole('button', { name: 'Delete the last digit' });
      assert.equal(await erase.isDisabled(), true, 'nothing to delete yet');
      // A wrong second digit, taken back with the delete key, then the rest of the PIN.
      const [first = '', second = ''] = user.pin;
      await tap(first);
      await tap(second === '9' ? '0' : '9');
      await erase.click();
      assert.equal(await page.getByLabel('PIN').inputValue(), first);
      if (user.role === 'cashier') {
        await assertAccessible(page, 'PIN pad with its delete key');
        await saveScreenshot(page, 'pin-pad-delete-key');
      }
      for (const digit of user.pin.slice(1)) await tap(digit);
      if (user.name === 'Mara') {
        assert.equal(await page.getByLabel('PIN').inputValue(), user.pin, 'a PIN of unknown length waits');
        await page.getByRole('button', { name: 'Log in' }).click();
      }
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
      await page.waitForURL((url) => url.pathname === home);
      assert.deepEqual(consoleErrors, [], `${user.role}: console errors`);
      await page.context().close();
    }
  });

  it('shows the kitchen no till, no prices and no Add or Send: from its permissions, whatever its role is named', async (t) => {
    const { app, baseUrl, db } = await startPlainWebServer(t, target);
    const waiter = await insertUser(db, { name: 'Wen', role: 'waiter', pin: '5150' });
    // The kitchen role renamed: the screens follow what it may do, not what it is called.
    await db.updateTable('roles').set({ name: 'cocina' }).where('name', '=', 'kitchen').execute();
    const cook = await insertUser(db, { name: 'Kiko', role: 'cocina', pin: '739105' });
    const dish = await insertDish(db, { name: 'Pozole', priceCents: 9850 });
    const table = await insertTable(db, { name: 'T9' });
    const call = callerFor(app, await login(app, waiter.name, waiter.pin));
    const created = await call('POST', '/orders/with-dishes', {
      order: { table_id: table.id },
      dishes: [{ dish_id: dish.id }],
    });
    assert.equal(created.statusCode, 201, created.body);
    const orderId: string = created.json().id;
    assert.equal((await call('POST', `/orders/${orderId}/send`, {})).statusCode, 200);

    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl);
    await logInThroughScreen(page, cook.name, cook.pin);
    const screens = page.getByRole('navigation', { name: 'Screens' });
    assert.deepEqual(await screens.getByRole('link').allInnerTexts(), ['Floor', 'Kitchen']);
    await page.goto('/app/kitchen');
    await page.getByText('Pozole').first().waitFor();
    assert.doesNotMatch(
      await page.locator('main').innerText(),
      /\$|98\.50/,
      'no money on the kitchen screen',
    );
    await assertOrderReadOnly(page, orderId, '98.50');
    await page.getByText('Pozole').first().waitFor();
    await assertAccessible(page, 'order read by the kitchen');
    await saveScreenshot(page, 'role-home-kitchen-order');
    assert.deepEqual(consoleErrors, []);

    // The waiter's order screen still has all of it.
    const floor = await openDevice(browser, baseUrl);
    await logInThroughScreen(floor.page, waiter.name, waiter.pin);
    await floor.page.goto(`/app/orders/${orderId}`);
    await floor.page.locator('.order-total').getByText('98.50').waitFor();
    await floor.page.locator('.order-menu').waitFor();
    assert.deepEqual(
      await floor.page.getByRole('navigation', { name: 'Screens' }).getByRole('link').allInnerTexts(),
      ['Floor', 'Kitchen', 'Till'],
    );
  });
});
