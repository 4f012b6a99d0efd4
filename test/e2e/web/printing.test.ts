import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { login } from '../../helpers/auth';
import { databaseTargets } from '../../helpers/database';
import { insertTable, insertUser } from '../../helpers/factories';
import { FakePrinter } from '../../helpers/fake-printer';
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

// The screens are the same whatever the database.
const [target] = databaseTargets as [(typeof databaseTargets)[number]];

/** Waits until the fake printer has taken `count` jobs; the print queue sends them in the background. */
async function jobsOf(printer: FakePrinter, count: number): Promise<string[]> {
  for (let waited = 0; printer.jobs.length < count && waited < 15_000; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.equal(printer.jobs.length, count, 'jobs the printer received');
  return printer.jobs.map((job) => job.toString('latin1'));
}

describe('web app: printing from the till', { skip: skipWithoutChromium }, () => {
  it('a manager adds a receipt printer and a payment method; the cashier prints a guest check, a receipt and a reprint', async (t) => {
    const printer = await FakePrinter.start();
    t.after(() => printer.stop());
    const { app, db, baseUrl, clock } = await startPlainWebServer(t, target);
    const manager = await insertUser(db, { role: 'manager', name: 'Marta' });
    const cashier = await insertUser(db, { role: 'cashier', name: 'Carla', pin: '5678' });
    const call = callerFor(app, await login(app, manager.name, manager.pin));
    const create = async (url: string, body: unknown) => {
      const response = await call('POST', url, body);
      assert.equal(response.statusCode, 201, response.body);
      return response.json().id as string;
    };
    const mains = await create('/categories', { name: 'Mains', type: 'dish' });
    const pizza = await create('/dishes', { name: 'Margherita', price: 12.5, category_id: mains });
    const table = await insertTable(db, { name: '7' });
    const orderId = await create('/orders/with-dishes', {
      order: { table_id: table.id },
      dishes: [{ dish_id: pizza }, { dish_id: pizza }],
    });

    const browser = await launchBrowser(t);
    const desk = await openDevice(browser, baseUrl);
    await logInThroughScreen(desk.page, manager.name, manager.pin);
    await desk.page.goto('/app/manager/printers');
    await desk.page.getByRole('heading', { name: 'Printers', exact: true }).waitFor();
    await desk.page.getByLabel('Name', { exact: true }).first().fill('Till');
    await desk.page.getByLabel('Host or IP address').fill('127.0.0.1');
    await desk.page.getByLabel('Port').fill(String(printer.port));
    await desk.page.getByLabel('Prints').selectOption('receipt');
    await desk.page.getByRole('button', { name: 'Add printer' }).click();
    await desk.page.getByRole('cell', { name: `127.0.0.1:${printer.port}` }).waitFor();
    await desk.page.getByLabel('Code (lowercase letters, digits, - and _)').fill('voucher');
    await desk.page.locator('#method-name').fill('Voucher');
    await desk.page.getByRole('button', { name: 'Add payment method' }).click();
    await desk.page.getByRole('cell', { name: 'voucher', exact: true }).waitFor();
    await assertAccessible(desk.page, 'manager printers and payment methods');
    await saveScreenshot(desk.page, 'printing-manager');

    const till = await openDevice(browser, baseUrl);
    await logInThroughScreen(till.page, cashier.name, cashier.pin);
    await till.page.goto(`/app/till/${orderId}`);
    await till.page.getByRole('button', { name: /^One bill for everything/ }).click();
    await till.page.getByRole('heading', { name: 'Guest check of Bill 1' }).waitFor();
    await till.page.getByRole('button', { name: 'Print the guest check' }).click();
    await till.page.getByText('The guest check is on its way to the printer.').waitFor();
    await till.page.getByRole('button', { name: 'Reprint' }).waitFor();
    await assertAccessible(till.page, 'till with the guest check printed');
    await saveScreenshot(till.page, 'printing-guest-check');
    const [guestCheck] = await jobsOf(printer, 1);
    // The restaurant's paper is in Mexican Spanish: the guest check is a "precuenta".
    assert.match(guestCheck ?? '', /\*\*\* PRECUENTA \*\*\*/);
    assert.match(guestCheck ?? '', /Saldo pendiente +\$25\.00/);

    await till.page.getByRole('button', { name: 'Voucher', exact: true }).click();
    await till.page.getByRole('button', { name: /^Charge \D*25\.00 by Voucher$/ }).click();
    await till.page.getByRole('heading', { name: 'Receipt of Bill 1' }).waitFor();
    await till.page.getByRole('button', { name: 'Print the receipt' }).click();
    await till.page.getByText('The receipt is on its way to the printer.').waitFor();
    // A printer prints its jobs by the time they were made; the server's clock stands still in this
    // test, and a cashier's second tap comes later than the first.
    clock.advance(1000);
    await till.page.getByRole('button', { name: 'Reprint' }).click();
    await till.page.getByText('The receipt is on its way to the printer.').waitFor();
    await assertAccessible(till.page, 'till with the receipt reprinted');
    await saveScreenshot(till.page, 'printing-receipt');
    const [, receipt, reprint] = await jobsOf(printer, 3);
    assert.doesNotMatch(receipt ?? '', /PRECUENTA|REIMPRESI/);
    assert.match(receipt ?? '', /Voucher +\$25\.00/);
    // The reprint is the same receipt marked as such, its Ó in code page 850.
    const mark = `${' '.repeat(14)}*** REIMPRESI\x1bt\x02\xe0N ***\n\x1bt\x00`;
    assert.ok(reprint?.includes(mark), reprint);
    assert.equal(reprint?.replace(mark, ''), receipt);

    // The manager sees each job printed.
    await desk.page.getByRole('button', { name: 'Jobs Till' }).click();
    await desk.page.getByRole('heading', { name: 'Print jobs of Till' }).waitFor();
    // The queue marks a job printed just after the printer took it: Refresh until the three show so.
    const printedRows = desk.page.locator('tr.job-printed');
    for (let tries = 0; (await printedRows.count()) < 3 && tries < 50; tries++) {
      await desk.page.getByRole('button', { name: 'Refresh' }).click();
      await desk.page.waitForTimeout(100);
    }
    assert.equal(await printedRows.count(), 3);
    await assertAccessible(desk.page, 'manager print jobs');
    await saveScreenshot(desk.page, 'printing-jobs');

    // Edit keeps what is not shown as typed; a kitchen printer with its station, then deleted.
    await desk.page.getByRole('button', { name: 'Edit Till' }).click();
    await desk.page.getByLabel('Name', { exact: true }).first().fill('Till counter');
    await desk.page.getByLabel(/^Characters per line/).selectOption('42');
    await desk.page.getByRole('button', { name: 'Save printer' }).click();
    await desk.page.getByRole('cell', { name: 'Till counter', exact: true }).waitFor();
    await desk.page.getByLabel('Name', { exact: true }).first().fill('Grill');
    await desk.page.getByLabel('Host or IP address').fill('192.168.1.51');
    // The station is on the form from the start, to choose once the printer prints chits.
    const station = desk.page.getByLabel('Kitchen station (kitchen printers only)');
    assert.ok(await station.isDisabled());
    await desk.page.getByLabel('Prints').selectOption('kitchen');
    await station.selectOption('bar');
    await desk.page.getByRole('button', { name: 'Add printer' }).click();
    await desk.page.getByRole('cell', { name: 'Kitchen chits · bar' }).waitFor();
    const stored = (await call('GET', '/printers')).json() as {
      name: string;
      port: number;
      width: number;
      station: string | null;
    }[];
    assert.deepEqual(
      stored
        .map(({ name, port, width, station }) => ({ name, port, width, station }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      [
        { name: 'Grill', port: 9100, width: 48, station: 'bar' },
        { name: 'Till counter', port: printer.port, width: 42, station: null },
      ],
    );
    await desk.page.getByRole('button', { name: 'Delete Grill' }).click();
    await desk.page.getByRole('button', { name: 'Confirm delete Grill' }).click();
    await desk.page.getByRole('cell', { name: 'Kitchen chits · bar' }).waitFor({ state: 'detached' });
    assert.equal((await call('GET', '/printers')).json().length, 1);
    assert.deepEqual(desk.consoleErrors, []);
    assert.deepEqual(till.consoleErrors, []);
  });
});
