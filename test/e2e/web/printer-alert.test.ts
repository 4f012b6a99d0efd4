import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { login } from '../../helpers/auth';
import { databaseTargets } from '../../helpers/database';
import { insertTable, insertUser } from '../../helpers/factories';
import { FakePrinter, switchedOffPort } from '../../helpers/fake-printer';
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
import { LOCALE, waitForPrinterAlert, waitForPrinterAlertGone } from './drawer-steps';

// The screens are the same whatever the database.
const [target] = databaseTargets as [(typeof databaseTargets)[number]];

describe('web app: a printer that does not print (es-MX)', { skip: skipWithoutChromium }, () => {
  it('the kitchen and the till show that the kitchen printer is off, then out of paper, and the alert goes once tickets print', async (t) => {
    const { app, db, baseUrl, clock } = await startPlainWebServer(t, target);
    // The server's clock stands still in these tests (moving it would expire the sessions): the queue's
    // next retry is made due now instead of in its back-off.
    const letRetryComeDue = () =>
      db
        .updateTable('print_jobs')
        .set({ next_attempt_at: clock.now() })
        .where('state', '=', 'pending')
        .execute();
    const manager = await insertUser(db, { role: 'manager', name: 'Marta' });
    const cook = await insertUser(db, { role: 'kitchen', name: 'Chuy', pin: '9753' });
    const cashier = await insertUser(db, { role: 'cashier', name: 'Lucía', pin: '1357' });
    const call = callerFor(app, await login(app, manager.name, manager.pin));
    const create = async (url: string, body: unknown) => {
      const response = await call('POST', url, body);
      assert.equal(response.statusCode, 201, response.body);
      return response.json().id as string;
    };
    const port = await switchedOffPort();
    await create('/printers', { name: 'Cocina', host: '127.0.0.1', port, role: 'kitchen', width: 32 });
    const tacos = await create('/categories', { name: 'Tacos', type: 'dish' });
    const pastor = await create('/dishes', { name: 'Tacos al pastor', price: 125.5, category_id: tacos });
    let tables = 0;
    const sendPlate = async () => {
      tables += 1;
      const table = await insertTable(db, { name: String(tables) });
      const orderId = await create('/orders/with-dishes', {
        order: { table_id: table.id },
        dishes: [{ dish_id: pastor }],
      });
      const sent = await call('POST', `/orders/${orderId}/send`, {});
      assert.equal(sent.statusCode, 200, sent.body);
    };

    const browser = await launchBrowser(t);
    const kitchen = await openDevice(browser, baseUrl, 'tablet', LOCALE.es);
    await logInThroughScreen(kitchen.page, cook.name, cook.pin);
    await kitchen.page.goto('/app/kitchen');
    const till = await openDevice(browser, baseUrl, 'tablet', LOCALE.es);
    await logInThroughScreen(till.page, cashier.name, cashier.pin);
    await till.page.goto('/app/till');

    // The printer is off when the waiter sends a plate: the chit waits in the queue.
    await sendPlate();
    await waitForPrinterAlert(kitchen.page, 'es', 'Cocina');
    await waitForPrinterAlert(till.page, 'es', 'Cocina');
    await assertAccessible(kitchen.page, 'kitchen with the printer alert');
    await saveScreenshot(kitchen.page, 'printer-alert-1-kitchen-off');
    await saveScreenshot(till.page, 'printer-alert-2-till-off');

    // Switched on again: the chit prints and the alert goes away on both screens.
    const printer = await FakePrinter.start(port);
    t.after(() => printer.stop());
    await letRetryComeDue();
    await waitForPrinterAlertGone(kitchen.page, 'Cocina');
    await waitForPrinterAlertGone(till.page, 'Cocina');
    assert.equal(printer.jobs.length, 1, 'the waiting chit printed');

    // Out of paper: the next chit waits, and the alert says why.
    printer.isOutOfPaper = true;
    await sendPlate();
    await waitForPrinterAlert(kitchen.page, 'es', 'Cocina', 'outOfPaper');
    await waitForPrinterAlert(till.page, 'es', 'Cocina', 'outOfPaper');
    await saveScreenshot(kitchen.page, 'printer-alert-3-kitchen-no-paper');
    printer.isOutOfPaper = false;
    await letRetryComeDue();
    await waitForPrinterAlertGone(kitchen.page, 'Cocina');
    await waitForPrinterAlertGone(till.page, 'Cocina');
    assert.equal(printer.jobs.length, 2, 'the chit printed once paper was in');
    assert.deepEqual([...kitchen.consoleErrors, ...till.consoleErrors], []);
  });
});
