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
  it('corrects a mistyped digit with the delete key, logs in as the last digit is tapped, and lands the cashier on the till, the cook on the kitchen, the waiter on the floor', async (t) => {
    const { baseUrl, db } = await startPlainWebServer(t, target);
    const people = [
      { user: await insertUser(db, { name: 'Carla', role: 'cashier', pin: '4821' }), home: '/app/till' },
      { user: await insertUser(db, { name: 'Kiko', role: 'kitchen', pin: '739105' }), home: '/app/kitchen' },
      { user: await insertUser(db, { name: 'Wen', role: 'waiter', pin: '5150' }), home: '/app/floor' },
      { user: await insertUser(db, { name: 'Mara', role: 'manager', pin: '8080' }), home: '/app/floor' },
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
});
