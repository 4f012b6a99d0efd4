import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseTargets } from '../../helpers/database';
import { insertUser } from '../../helpers/factories';
import {
  assertAccessible,
  launchBrowser,
  openDevice,
  saveScreenshot,
  skipWithoutChromium,
  startPlainWebServer,
} from './browser';

const [target] = databaseTargets as [(typeof databaseTargets)[number]];

describe('web app: the PIN pad and each role’s own screen', { skip: skipWithoutChromium }, () => {
  it('corrects a mistyped digit with the delete key, and lands the cashier on the till, the cook on the kitchen, the waiter on the floor', async (t) => {
    const { baseUrl, db } = await startPlainWebServer(t, target);
    const people = [
      { user: await insertUser(db, { name: 'Carla', role: 'cashier', pin: '4821' }), home: '/app/till' },
      { user: await insertUser(db, { name: 'Kiko', role: 'kitchen', pin: '739105' }), home: '/app/kitchen' },
      { user: await insertUser(db, { name: 'Wen', role: 'waiter', pin: '5150' }), home: '/app/floor' },
      { user: await insertUser(db, { name: 'Mara', role: 'manager', pin: '8080' }), home: '/app/floor' },
    ];
    const browser = await launchBrowser(t);

    for (const { user, home } of people) {
      const { page, consoleErrors } = await openDevice(browser, baseUrl);
      await page.goto('/app/');
      await page.getByRole('button', { name: user.name, exact: true }).click();
      const pad = page.locator('.pin-pad');
      const erase = page.getByRole('button', { name: 'Delete the last digit' });
      assert.equal(await erase.isDisabled(), true, 'nothing to delete yet');
      // A wrong last digit, taken back with the delete key, then the right one.
      for (const digit of user.pin.slice(0, -1))
        await pad.getByRole('button', { name: digit, exact: true }).click();
      await pad.getByRole('button', { name: user.pin.at(-1) === '9' ? '0' : '9', exact: true }).click();
      await erase.click();
      await pad.getByRole('button', { name: user.pin.at(-1) as string, exact: true }).click();
      assert.equal(await page.getByLabel('PIN').inputValue(), user.pin);
      if (user.role === 'cashier') {
        await assertAccessible(page, 'PIN pad with its delete key');
        await saveScreenshot(page, 'pin-pad-delete-key');
      }
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
      await page.waitForURL((url) => url.pathname === home);
      assert.deepEqual(consoleErrors, [], `${user.role}: console errors`);
      await page.context().close();
    }
  });
});
