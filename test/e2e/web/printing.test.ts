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

  it('in Spanish, the cashier prints her corte X and Z from the till, the manager the day report and a Z from the shifts', async (t) => {
    const printer = await FakePrinter.start();
    t.after(() => printer.stop());
    const { app, db, baseUrl } = await startPlainWebServer(t, target);
    const admin = await insertUser(db, { role: 'admin', name: 'Alma' });
    const cashier = await insertUser(db, { role: 'cashier', name: 'Carla', pin: '5678' });
    const manager = await insertUser(db, { role: 'manager', name: 'Marta' });
    const asAdmin = callerFor(app, await login(app, admin.name, admin.pin));
    const asCashier = callerFor(app, await login(app, cashier.name, cashier.pin));
    const create = async (call: typeof asAdmin, url: string, body: unknown) => {
      const response = await call('POST', url, body);
      assert.equal(response.statusCode, 201, response.body);
      return response.json().id as string;
    };
    assert.equal((await asAdmin('PUT', '/settings', { business_name: 'Casa Pepe' })).statusCode, 200);
    const mains = await create(asAdmin, '/categories', { name: 'Platos', type: 'dish' });
    const pizza = await create(asAdmin, '/dishes', { name: 'Margarita', price: 12.5, category_id: mains });
    await create(asCashier, '/shifts', { opening_cash: 100 });
    for (let index = 0; index < 2; index++) {
      const orderId = await create(asAdmin, '/orders/with-dishes', {
        order: { guests: 2 },
        dishes: [{ dish_id: pizza }],
      });
      const bill = await create(asCashier, `/orders/${orderId}/tickets`, {});
      await create(asCashier, `/tickets/${bill}/payments`, { method: 'cash', amount: 12.5 });
    }

    const browser = await launchBrowser(t);
    const office = await openDevice(browser, baseUrl, 'tablet', 'es-MX');
    await logInThroughScreen(office.page, manager.name, manager.pin);
    await office.page.goto('/app/manager/sales');
    await office.page.getByLabel('Día', { exact: true }).fill('2026-11-22');
    const day = office.page.locator('section.day-report');
    // No receipt printer yet: the server's refusal, in Spanish.
    await day.getByRole('button', { name: /^Imprimir/ }).click();
    await day.getByText('No hay impresora de tickets configurada.').waitFor();
    await create(asAdmin, '/printers', {
      name: 'Caja',
      host: '127.0.0.1',
      port: printer.port,
      role: 'receipt',
      width: 42,
    });
    await day.getByRole('button', { name: /^Imprimir/ }).click();
    await day.getByText('Enviado a la impresora').waitFor();
    await assertAccessible(office.page, 'day report printed');
    await saveScreenshot(office.page, 'printing-day-report');
    const [dayPaper] = await jobsOf(printer, 1);
    assert.match(dayPaper ?? '', /REPORTE DEL D/);
    assert.match(dayPaper ?? '', /Ventas netas +\$25\.00/);
    assert.match(dayPaper ?? '', /Comensales +4\n/);
    assert.match(dayPaper ?? '', /Promedio por comensal +\$6\.25/);
    assert.match(dayPaper ?? '', /Carla \(abierto\) +\$25\.00/);

    const till = await openDevice(browser, baseUrl, 'tablet', 'es-MX');
    await logInThroughScreen(till.page, cashier.name, cashier.pin);
    await till.page.goto('/app/till');
    const shift = till.page.locator('section.till-shift');
    await shift.getByRole('button', { name: /^Imprimir/ }).click();
    await shift.getByText('Enviado a la impresora').waitFor();
    const [, soFar] = await jobsOf(printer, 2);
    assert.match(soFar ?? '', /CORTE X \(TURNO ABIERTO\)/);
    assert.match(soFar ?? '', /Cajero Carla/);
    await till.page.getByLabel('Efectivo contado en la caja').fill('120');
    await till.page.getByRole('button', { name: 'Cerrar mi turno' }).click();
    await till.page.getByRole('region', { name: 'Turno cerrado' }).waitFor();
    await shift.getByRole('button', { name: /^Imprimir/ }).click();
    await shift.getByText('Enviado a la impresora').waitFor();
    await assertAccessible(till.page, 'till Z report printed');
    await saveScreenshot(till.page, 'printing-z-report-till');
    const [, , z] = await jobsOf(printer, 3);
    assert.match(z ?? '', / CORTE Z\n/);
    assert.match(z ?? '', /Comensales +4\n/);
    assert.match(z ?? '', /Efectivo esperado +\$125\.00/);
    assert.match(z ?? '', /Diferencia +-\$5\.00/);

    await office.page.locator('nav.manager-nav a[href="/app/manager/shifts"]').click();
    await office.page.getByRole('button', { name: /^Corte de caja \(Z\) Carla/ }).click();
    const zReport = office.page.locator('section.z-report');
    await zReport.getByRole('button', { name: /^Imprimir Corte/ }).click();
    await zReport.getByText('Enviado a la impresora').waitFor();
    await assertAccessible(office.page, 'manager Z report printed');
    await saveScreenshot(office.page, 'printing-z-report-manager');
    const [, , , again] = await jobsOf(printer, 4);
    assert.match(again ?? '', / CORTE Z\n/);
    // The browser logs the refused print asked for above, and the shifts screen's look for the
    // manager's own shift (she has none).
    const expected = [
      /status of 400 .*\/reports\/day\/2026-11-22\/print\)$/,
      /status of 404 .*\/shifts\/current\)$/,
    ];
    assert.deepEqual(
      office.consoleErrors.filter((error) => !expected.some((pattern) => pattern.test(error))),
      [],
    );
    assert.deepEqual(till.consoleErrors, []);
  });
});
