import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { login } from '../../helpers/auth';
import { databaseTargets } from '../../helpers/database';
import { insertTable, insertUser } from '../../helpers/factories';
import { type Caller, callerFor } from '../../helpers/orders-factories';
import {
  assertAccessible,
  launchBrowser,
  logInThroughScreen,
  openDevice,
  saveScreenshot,
  skipWithoutChromium,
  startWebServer,
} from './browser';
import { goToFloor, tableTile } from './floor-order-steps';
import { seeOrderClosedItself } from './kitchen-till-steps';

// The screens are the same whatever the database.
const [target] = databaseTargets as [(typeof databaseTargets)[number]];

/** Tacos at 60.00 on a table of its own, ordered by the waiter; answers the order's id. */
async function orderAt(waiter: Caller, tableId: string, dishId: string) {
  const ordered = await waiter('POST', '/orders/with-dishes', {
    order: { table_id: tableId },
    dishes: [{ dish_id: dishId }],
  });
  assert.equal(ordered.statusCode, 201, ordered.body);
  return ordered.json().id as string;
}

async function created(call: Caller, url: string, body: unknown = {}) {
  const response = await call('POST', url, body);
  assert.equal(response.statusCode, 201, response.body);
  return response.json();
}

async function restaurant(t: Parameters<typeof startWebServer>[0]) {
  const server = await startWebServer(t, target, { withGuestLinks: true });
  const { app, db } = server;
  const admin = await insertUser(db, { role: 'admin', name: 'Olga' });
  const waiter = await insertUser(db, { role: 'waiter', name: 'Rosa' });
  const cashier = await insertUser(db, { role: 'cashier', name: 'Carla', pin: '5678' });
  const call = callerFor(app, await login(app, admin.name, admin.pin));
  const waiterCall = callerFor(app, await login(app, waiter.name, waiter.pin));
  const cashierCall = callerFor(app, await login(app, cashier.name, cashier.pin));
  const category = await created(call, '/categories', { name: 'Tacos', type: 'dish' });
  const dish = await created(call, '/dishes', {
    name: 'Orden de tacos',
    price: 60,
    category_id: category.id,
  });
  return { ...server, admin, waiter, cashier, call, waiterCall, cashierCall, dishId: dish.id as string };
}

describe('web app: paid tables and guest invoices at the till', { skip: skipWithoutChromium }, () => {
  it('shows a paid table as paid until it is freed, and frees the table the phones paid by itself', async (t) => {
    const { app, db, baseUrl, simulator, waiter, call, waiterCall, cashierCall, dishId } =
      await restaurant(t);
    const three = await insertTable(db, { name: '3' });
    const four = await insertTable(db, { name: '4' });
    const atThree = await orderAt(waiterCall, three.id, dishId);
    const atFour = await orderAt(waiterCall, four.id, dishId);
    assert.equal((await call('PUT', '/settings', { close_paid_orders: false })).statusCode, 200);

    const browser = await launchBrowser(t);
    const floor = await openDevice(browser, baseUrl);
    await logInThroughScreen(floor.page, waiter.name, waiter.pin);
    await goToFloor(floor.page);
    await tableTile(floor.page, '3', 'Occupied').waitFor();

    // The restaurant clears its tables by hand: the card paid table 3, the tile says so at once.
    const billThree = await created(cashierCall, `/orders/${atThree}/tickets`);
    await created(cashierCall, `/tickets/${billThree.id}/payments`, { method: 'card', amount: 60 });
    await tableTile(floor.page, '3', 'Paid').waitFor();
    assert.equal(await floor.page.locator('.floor-table[data-status="paid"]').count(), 1);
    await tableTile(floor.page, '4', 'Occupied').waitFor();
    await assertAccessible(floor.page, 'floor with a paid table');
    await saveScreenshot(floor.page, 'floor-paid-table');
    assert.equal((await call('POST', `/orders/${atThree}/close`)).statusCode, 200);
    await tableTile(floor.page, '3', 'Free').waitFor();

    // With close_paid_orders on (the default), the guests' phones pay table 4 and it frees itself.
    assert.equal((await call('PUT', '/settings', { close_paid_orders: true })).statusCode, 200);
    const billFour = await created(cashierCall, `/orders/${atFour}/tickets`);
    const link = await created(cashierCall, `/tickets/${billFour.id}/guest-link`);
    const phone = (amount: number) =>
      app.inject({
        method: 'POST',
        url: `/guest/${link.token}/lightning`,
        payload: { amount },
        remoteAddress: '203.0.113.4',
      });
    const invoices = [(await phone(35)).json(), (await phone(25)).json()];
    for (const invoice of invoices) await simulator.receivePayment(invoice.bolt11);
    await tableTile(floor.page, '4', 'Free').waitFor();
    assert.equal((await call('GET', `/orders/${atFour}`)).json().status, 'completed');
    await saveScreenshot(floor.page, 'floor-freed-by-phones');
    assert.deepEqual(floor.consoleErrors, []);
  });

  it("lists a guest's pending invoice at the till, cancels it, charges by Lightning, and refunds it by Lightning", async (t) => {
    const { app, db, baseUrl, simulator, admin, cashier, waiterCall, cashierCall, dishId } =
      await restaurant(t);
    const five = await insertTable(db, { name: '5' });
    const orderId = await orderAt(waiterCall, five.id, dishId);
    const bill = await created(cashierCall, `/orders/${orderId}/tickets`);
    const link = await created(cashierCall, `/tickets/${bill.id}/guest-link`);
    const guest = await app.inject({
      method: 'POST',
      url: `/guest/${link.token}/lightning`,
      payload: {},
      remoteAddress: '203.0.113.5',
    });
    assert.equal(guest.statusCode, 201, guest.body);

    const browser = await launchBrowser(t);
    const till = await openDevice(browser, baseUrl);
    await logInThroughScreen(till.page, cashier.name, cashier.pin);
    await till.page.goto(`/app/till/${orderId}`);
    await till.page.getByRole('button', { name: 'Pay Bill 1' }).click();
    const pending = till.page.locator('.bill-payments tr[data-source="guest"][data-status="pending"]');
    await pending.getByText('Lightning (guest)').waitFor();
    await till.page.getByRole('button', { name: 'Lightning', exact: true }).click();
    await till.page
      .getByRole('alert')
      .filter({
        hasText: `A guest's Lightning invoice is pending on this bill: payment ${guest.json().payment_id}`,
      })
      .waitFor();
    await assertAccessible(till.page, "till with a guest's pending invoice");
    await saveScreenshot(till.page, 'till-guest-invoice-pending');

    await till.page
      .getByRole('button', { name: /^Cancel the Lightning payment request of \D*60\.00$/ })
      .click();
    await till.page.getByRole('status').filter({ hasText: 'Payment request canceled' }).waitFor();
    await till.page.locator('.bill-payments tr[data-source="guest"][data-status="expired"]').waitFor();
    await till.page.getByRole('button', { name: 'Try again' }).click();
    await till.page.getByRole('img', { name: 'QR code of the Lightning invoice' }).waitFor();
    const invoice = await till.page.getByLabel('Invoice (BOLT11)').inputValue();
    await simulator.receivePayment(invoice);
    await seeOrderClosedItself(till.page);
    await saveScreenshot(till.page, 'till-paid-after-canceling-guest-invoice');

    // The manager refunds the Lightning payment from the till with the customer's payment request.
    const manager = await openDevice(browser, baseUrl);
    await logInThroughScreen(manager.page, admin.name, admin.pin);
    await manager.page.goto(`/app/till/${orderId}`);
    await manager.page.getByRole('button', { name: 'Payments and receipt of Bill 1' }).click();
    await manager.page.getByRole('button', { name: /^Refund the Lightning payment of \D*60\.00$/ }).click();
    await manager.page.getByLabel('Amount to refund').fill('20');
    await manager.page.getByLabel('Reason for the refund').fill('Tacos fríos');
    const customerInvoice = simulator.node.createInvoice({
      amountSat: 1000,
      description: 'reembolso',
      expirySeconds: null,
      externalId: null,
    }).serialized;
    await manager.page.getByLabel("Customer's Lightning payment request (BOLT11)").fill(customerInvoice);
    await assertAccessible(manager.page, 'till refunding a Lightning payment');
    await saveScreenshot(manager.page, 'till-lightning-refund');
    await manager.page.getByRole('button', { name: 'Refund', exact: true }).click();
    await manager.page.getByRole('status').filter({ hasText: 'Refund recorded.' }).waitFor();
    await manager.page.locator('.bill-payments tr[data-status="partially_refunded"]').waitFor();
    assert.ok(simulator.received.includes('POST /payinvoice'), 'the node paid the customer');
    const refunds = await db.selectFrom('refunds').select(['amount_cents', 'amount_sat']).execute();
    assert.deepEqual(
      refunds.map((row) => [Number(row.amount_cents), Number(row.amount_sat)]),
      [[2000, 1000]],
    );
    // Chromium logs the refused request itself; the screen showed its answer.
    assert.deepEqual(
      till.consoleErrors.map((error) => error.replace(/\(http.*\)$/, '')),
      ['Failed to load resource: the server responded with a status of 409 (Conflict) '],
    );
    assert.deepEqual(manager.consoleErrors, []);
  });
});
