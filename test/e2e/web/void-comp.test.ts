import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { login } from '../../helpers/auth';
import { databaseTargets } from '../../helpers/database';
import { insertCategory, insertDish, insertSpace, insertTable, insertUser } from '../../helpers/factories';
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
import {
  adjustmentSection,
  adjustPlate,
  compWholeBill,
  openDayReport,
  plateRow,
  VOID_COMP_WORDS,
} from './void-comp-steps';

const es = VOID_COMP_WORDS.es;

/** A tablet whose browser speaks Mexican Spanish, signed in through the login screen. */
async function spanishTablet(browser: Browser, baseUrl: string, name: string, pin: string) {
  const device = await openDevice(browser, baseUrl, 'tablet', 'es-MX');
  await logInThroughScreen(device.page, name, pin);
  return device;
}

for (const target of databaseTargets) {
  describe(`web app: voids and comps with a manager's PIN [${target.name}]`, {
    skip: skipWithoutChromium,
  }, () => {
    it('a waiter voids and comps plates and a cashier comps a bill on their own tablets; the day report shows them by reason and person', async (t) => {
      const { app, db, baseUrl } = await startPlainWebServer(t, target);
      const waiter = await insertUser(db, { name: 'Wendy', role: 'waiter', pin: '1111' });
      const manager = await insertUser(db, { name: 'Marta', role: 'manager', pin: '2468' });
      const cashier = await insertUser(db, { name: 'Lucía', role: 'cashier', pin: '1357' });
      const space = await insertSpace(db, { name: 'Terraza' });
      const five = await insertTable(db, { name: '5', spaceId: space.id });
      const six = await insertTable(db, { name: '6', spaceId: space.id });
      const mains = await insertCategory(db, { name: 'Platos', type: 'dish' });
      const tacos = await insertDish(db, { name: 'Tacos', priceCents: 12000, categoryId: mains.id });
      const pozole = await insertDish(db, { name: 'Pozole', priceCents: 15000, categoryId: mains.id });
      const flan = await insertDish(db, { name: 'Flan', priceCents: 6000, categoryId: mains.id });
      const waiterApi = callerFor(app, await login(app, waiter.name, waiter.pin));
      const sentOrder = async (tableId: string, dishIds: string[]) => {
        const created = await waiterApi('POST', '/orders/with-dishes', {
          order: { table_id: tableId },
          dishes: dishIds.map((id) => ({ dish_id: id })),
        });
        assert.equal(created.statusCode, 201, created.body);
        const orderId = created.json().id as string;
        assert.equal((await waiterApi('POST', `/orders/${orderId}/send`)).statusCode, 200);
        return orderId;
      };
      const tableFive = await sentOrder(five.id, [tacos.id, pozole.id, flan.id]);
      const tableSix = await sentOrder(six.id, [flan.id]);
      const browser = await launchBrowser(t);
      const approval = { name: manager.name, pin: manager.pin };

      // The waiter's tablet, in Spanish: a wrong PIN is refused in the dialog, in Spanish.
      const { page: tablet, consoleErrors } = await spanishTablet(browser, baseUrl, waiter.name, waiter.pin);
      await tablet.goto(`/app/orders/${tableFive}`);
      await plateRow(tablet, es, 'Tacos').waitFor();
      const dialog = await adjustPlate(tablet, es, {
        dish: 'Tacos',
        kind: 'void',
        reason: 'Frío',
        approval: { name: manager.name, pin: '0000' },
        expectDone: false,
      });
      await dialog.getByRole('alert').filter({ hasText: 'PIN o usuario incorrecto.' }).waitFor();
      await assertAccessible(tablet, 'void dialog with a manager approval');
      await saveScreenshot(tablet, 'void-comp-1-wrong-pin-es');
      await adjustPlate(tablet, es, { dish: 'Tacos', kind: 'void', reason: 'Frío', approval });
      await adjustPlate(tablet, es, { dish: 'Pozole', kind: 'comp', reason: 'Cumpleaños', approval });
      await plateRow(tablet, es, 'Tacos').getByText('Anuló Wendy · autorizó Marta').waitFor();
      // On its bill now: the till's, neither voided nor comped again here.
      const billedPlate = plateRow(tablet, es, 'Pozole');
      await billedPlate.getByRole('button', { name: 'Cortesía Pozole' }).waitFor({ state: 'detached' });
      assert.equal(await billedPlate.getByRole('button').count(), 0);
      await saveScreenshot(tablet, 'void-comp-2-order-es');

      // The cashier's tablet, in English: the whole bill of table 6 given away.
      const till = await openDevice(browser, baseUrl);
      await logInThroughScreen(till.page, cashier.name, cashier.pin);
      await compWholeBill(till.page, VOID_COMP_WORDS.en, {
        orderId: tableSix,
        reason: 'Regular guest',
        approval,
        onFilled: async () => {
          await assertAccessible(till.page, 'till with a comp and a manager approval');
          await saveScreenshot(till.page, 'void-comp-3-till-comp-en');
        },
      });
      await saveScreenshot(till.page, 'void-comp-4-till-comped-en');
      const bill = await db
        .selectFrom('tickets')
        .select(['status', 'total_cents', 'created_by', 'discount_approved_by'])
        .where('order_id', '=', tableSix)
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        { ...bill, status: Number(bill.status), total_cents: Number(bill.total_cents) },
        { status: 2, total_cents: 0, created_by: cashier.id, discount_approved_by: manager.id },
      );

      // The manager's day report, in Spanish.
      const { page: office, consoleErrors: officeErrors } = await spanishTablet(
        browser,
        baseUrl,
        manager.name,
        manager.pin,
      );
      const report = await openDayReport(office, es, '2026-11-22');
      const voids = adjustmentSection(report, 'voids');
      await voids.getByRole('heading', { name: /^Platillos anulados: 1 · \$120\.00$/ }).waitFor();
      await voids.getByRole('row', { name: /^Frío 1 \$120\.00$/ }).waitFor();
      await voids.getByRole('row', { name: /^Wendy Marta 1 \$120\.00$/ }).waitFor();
      const comps = adjustmentSection(report, 'comps');
      await comps.getByRole('heading', { name: /: 2 · \$210\.00$/ }).waitFor();
      await comps.getByRole('row', { name: /^Cumpleaños 1 \$150\.00$/ }).waitFor();
      await comps.getByRole('row', { name: /^Regular guest 1 \$60\.00$/ }).waitFor();
      await comps.getByRole('row', { name: /^Wendy Marta 1 \$150\.00$/ }).waitFor();
      await comps.getByRole('row', { name: /^Lucía Marta 1 \$60\.00$/ }).waitFor();
      await assertAccessible(office, 'day report with voids and comps');
      await report.scrollIntoViewIfNeeded();
      await saveScreenshot(office, 'void-comp-5-day-report-es');
      // The wrong PIN's 401 is the one error the waiter's browser logs (a failed request).
      assert.deepEqual(
        consoleErrors.filter((error) => !error.includes('401')),
        [],
      );
      assert.deepEqual([...till.consoleErrors, ...officeErrors], []);
    });
  });
}
