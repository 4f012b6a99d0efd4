import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { login } from '../../helpers/auth';
import { databaseTargets } from '../../helpers/database';
import { insertUser } from '../../helpers/factories';
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
  closeShiftBlind,
  LOCALE,
  openShiftAtTill,
  recordCashMovement,
  turnOnBlindClose,
} from './drawer-steps';

// The screens are the same whatever the database.
const [target] = databaseTargets as [(typeof databaseTargets)[number]];

describe('web app: the cashier’s drawer from the till (es-MX)', { skip: skipWithoutChromium }, () => {
  it('the manager turns on the blind count; the cashier opens her shift with a float, puts cash in, takes cash out and closes blind', async (t) => {
    const { app, db, baseUrl } = await startPlainWebServer(t, target);
    const manager = await insertUser(db, { role: 'manager', name: 'Marta', pin: '8080' });
    const cashier = await insertUser(db, { role: 'cashier', name: 'Carla', pin: '4821' });
    const browser = await launchBrowser(t);

    const office = await openDevice(browser, baseUrl, 'tablet', LOCALE.es);
    await logInThroughScreen(office.page, manager.name, manager.pin);
    await turnOnBlindClose(office.page, 'es');
    await saveScreenshot(office.page, 'till-drawer-0-blind-setting');
    const asCashier = callerFor(app, await login(app, cashier.name, cashier.pin));
    assert.equal((await asCashier('GET', '/settings')).json().blind_shift_close, true);

    const till = await openDevice(browser, baseUrl, 'tablet', LOCALE.es);
    await logInThroughScreen(till.page, cashier.name, cashier.pin);
    await till.page.goto('/app/till');
    await till.page.getByText('No tienes un turno abierto.').waitFor();
    await assertAccessible(till.page, 'till without a shift');
    await saveScreenshot(till.page, 'till-drawer-1-no-shift');
    await openShiftAtTill(till.page, 'es', '500');
    await recordCashMovement(till.page, 'es', 'in', '200', 'Cambio del banco');
    await recordCashMovement(till.page, 'es', 'out', '50', 'Hielo de la tienda');
    await assertAccessible(till.page, 'till with the drawer');
    await saveScreenshot(till.page, 'till-drawer-2-movements');
    // Blind: the 650.00 expected (500 + 200 − 50) is nowhere before the count.
    assert.equal(await till.page.getByText('650.00').count(), 0, 'expected cash hidden before the count');

    const [shift] = (await asCashier('GET', '/shifts')).json();
    assert.deepEqual(
      [
        shift.status,
        shift.opening_cash,
        // Both made in one millisecond of the test server's standing clock: their order is not the point.
        shift.cash_movements
          .map((movement: { amount: number }) => movement.amount)
          .sort((a: number, b: number) => a - b),
      ],
      ['open', 500, [-50, 200]],
    );

    const closed = await closeShiftBlind(till.page, 'es', '640');
    assert.match(closed, /Efectivo esperado\s+\S*650\.00/);
    assert.match(closed, /Efectivo contado en la caja\s+\S*640\.00/);
    assert.match(closed, /Diferencia\s+[-−]\S*10\.00/);
    await saveScreenshot(till.page, 'till-drawer-3-closed');
    // Closed: the till offers to open the next shift.
    await till.page.getByRole('button', { name: 'Abrir turno', exact: true }).waitFor();
    assert.deepEqual([...office.consoleErrors, ...till.consoleErrors], []);
  });
});
