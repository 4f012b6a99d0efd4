import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { databaseTargets } from '../../helpers/database';
import { insertUser } from '../../helpers/factories';
import {
  assertAccessible,
  launchBrowser,
  logInThroughScreen,
  openDevice,
  saveMetric,
  saveScreenshot,
  skipWithoutChromium,
  startPlainWebServer,
  WEB_ROOT,
} from './browser';

// The screens are the same whatever the database; the whole-service walk runs on both.
const [target] = databaseTargets as [(typeof databaseTargets)[number]];

describe('web app: first start and login', { skip: skipWithoutChromium }, () => {
  it('creates the first admin on a new box, logs out, and logs in again with name and PIN', async (t) => {
    const { baseUrl, db } = await startPlainWebServer(t, target);
    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl);

    await page.goto('/app/');
    await page.getByRole('heading', { name: 'Set up the restaurant' }).waitFor();
    await assertAccessible(page, 'first start');
    await saveScreenshot(page, 'setup');
    await page.getByLabel('Name').fill('Olga');
    await page.getByLabel('PIN').fill('2468');
    await page.getByLabel('Wallet password').fill('a long wallet password');
    // A restaurant here is in Mexico unless its owner says otherwise.
    assert.equal(await page.getByLabel('Country').inputValue(), 'MX');
    await page.getByText('Prices include 16% IVA').waitFor();
    await page.getByRole('button', { name: 'Create administrator' }).click();
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/app/floor');
    const settings = await db
      .selectFrom('business_settings')
      .select(['tax_rate_bp', 'timezone', 'locale'])
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      { ...settings, tax_rate_bp: Number(settings.tax_rate_bp) },
      {
        tax_rate_bp: 1600,
        timezone: 'America/Mexico_City',
        locale: 'es-MX',
      },
    );

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Who are you?' }).waitFor();
    await assertAccessible(page, 'login');
    await saveScreenshot(page, 'login');
    await logInThroughScreen(page, 'Olga', '2468');
    assert.deepEqual(consoleErrors, []);
  });

  it("lands the next user on their role's screen after a logout, not on the screen the last one left open", async (t) => {
    const { db, baseUrl } = await startPlainWebServer(t, target);
    const manager = await insertUser(db, { name: 'Marta', role: 'manager' });
    const cook = await insertUser(db, { name: 'Cata', role: 'kitchen' });
    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl);
    await logInThroughScreen(page, manager.name, manager.pin);
    await page.goto('/app/manager');
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
    // A manager reads the screen before leaving: logging out while its first reads are under way
    // answers them 401, which the console reports as errors.
    await page.waitForLoadState('networkidle');

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: cook.name, exact: true }).click();
    await page.getByLabel('PIN').fill(cook.pin);
    const logIn = page.getByRole('button', { name: 'Log in' });
    if (await logIn.isVisible()) await logIn.click().catch(() => undefined);
    await page.waitForURL((url) => url.pathname === '/app/kitchen');
    await saveScreenshot(page, 'login-next-user-home');
    assert.deepEqual(consoleErrors, []);
  });

  it('loads the first screen with under 150 KB of gzipped JavaScript, and reports how soon it is usable', async (t) => {
    const { baseUrl, db } = await startPlainWebServer(t, target);
    await insertUser(db, { name: 'Olga', role: 'admin' });
    const browser = await launchBrowser(t);
    const { page } = await openDevice(browser, baseUrl);

    await page.goto('/app/');
    await page.getByRole('button', { name: 'Olga', exact: true }).waitFor();
    const usableAfterMs = await page.evaluate(() => Math.round(performance.now()));
    const scripts = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => new URL(entry.name).pathname)
        .filter((path) => path.endsWith('.js')),
    );
    const gzippedBytes = scripts
      .map((path) => gzipSync(readFileSync(join(WEB_ROOT, path.replace(/^\/app\//, '')))).length)
      .reduce((sum, size) => sum + size, 0);

    t.diagnostic(
      `first screen: ${scripts.length} scripts, ${(gzippedBytes / 1024).toFixed(1)} KB gzipped, usable after ${usableAfterMs} ms`,
    );
    saveMetric('first-screen', { scripts, gzippedBytes, usableAfterMs });
    assert.ok(scripts.length > 0);
    assert.ok(gzippedBytes < 150 * 1024, `${gzippedBytes} bytes gzipped`);
  });

  it('says so when the PIN is wrong, keeps the session across a reload, and speaks Spanish', async (t) => {
    const { baseUrl, db } = await startPlainWebServer(t, target);
    const waiter = await insertUser(db, { role: 'waiter' });
    const browser = await launchBrowser(t);
    const { page } = await openDevice(browser, baseUrl);

    await page.goto('/app/');
    await page.getByRole('button', { name: waiter.name, exact: true }).click();
    await page.getByLabel('PIN').fill('0000');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid credentials' }).waitFor();

    await page.getByLabel('PIN').fill(waiter.pin);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
    await page.reload();
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();

    await page.getByLabel('Language').selectOption('es');
    await page.getByRole('button', { name: 'Salir' }).waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'es-MX');
  });

  it('opens from its offline shell when the server cannot be reached, says so, and resumes when it is back', async (t) => {
    const { baseUrl, db } = await startPlainWebServer(t, target);
    const admin = await insertUser(db, { role: 'admin' });
    const browser = await launchBrowser(t);
    const { page } = await openDevice(browser, baseUrl);
    await logInThroughScreen(page, admin.name, admin.pin);
    await page.waitForFunction('navigator.serviceWorker.controller !== null');

    // Offline, the browser logs each failed request as a console error: expected here, not asserted.
    await page.context().setOffline(true);
    await page.reload();
    await page.getByRole('alert').filter({ hasText: 'The server cannot be reached' }).waitFor();
    await assertAccessible(page, 'offline');
    await saveScreenshot(page, 'offline');

    await page.context().setOffline(false);
    await page.getByRole('navigation', { name: 'Screens' }).waitFor({ timeout: 10_000 });
  });
});
