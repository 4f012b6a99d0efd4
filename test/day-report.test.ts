import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { billableOrder, createBill } from './helpers/checkout-factories';
import { type Caller, callerFor } from './helpers/orders-factories';
import { buildWalletTestApp } from './helpers/wallet-factories';

async function pay(call: Caller, ticketId: string, body: Record<string, unknown>): Promise<string> {
  const paid = await call('POST', `/tickets/${ticketId}/payments`, body);
  assert.equal(paid.statusCode, 201, paid.body);
  return paid.json().id as string;
}

async function openShift(call: Caller, openingCash: number): Promise<string> {
  const opened = await call('POST', '/shifts', { opening_cash: openingCash });
  assert.equal(opened.statusCode, 201, opened.body);
  return opened.json().id as string;
}

describeEachDatabase('day report', (target) => {
  it('shows the liquidity fees the node took from Lightning payments as a cost, in the day and Z reports', async (t) => {
    // 1 BTC = 2,000,000.00: the 60.00 bill is 3,000 sat, the 10.00 bill 500 sat.
    const { app, db, simulator } = await buildWalletTestApp(t, target, {
      env: { POS_RATE_SOURCE: 'fixed:2000000' },
      simulator: { liquidityFeeSat: 226 },
    });
    const { call: waiter, orderId, dishIds } = await billableOrder(app, db, [6000, 1000]);
    const cashier = callerFor(app, (await loggedInUser(app, db, 'cashier')).cookies);
    const manager = callerFor(app, (await loggedInUser(app, db, 'manager')).cookies);
    const shiftId = await openShift(cashier, 0);
    const payByLightning = async (dishId: string | undefined, liquidityFeeSat?: number) => {
      const ticketId = await createBill(waiter, orderId, { order_dish_ids: [dishId] });
      const payment = (await cashier('POST', `/tickets/${ticketId}/lightning`, {})).json();
      const options = liquidityFeeSat === undefined ? {} : { liquidityFeeSat };
      await simulator.receivePayment(payment.lightning.invoice, options);
      assert.equal((await cashier('GET', `/payments/${payment.id}`)).json().status, 'settled');
    };
    await payByLightning(dishIds[0]);
    // A liquidity purchase larger than the 500 sat paid: -1,000 sat arrive, the bill is paid all the same.
    await payByLightning(dishIds[1], 1500);

    // (226,000 + 1,500,000) msat at 2,000,000.00 per 10^11 msat: 4.52 + 30.00.
    const expected = { lightning_sats: 2774 - 1000, lightning_fees_msat: 1_726_000, lightning_fees: 34.52 };
    const figures = (report: Record<string, unknown>) => ({
      lightning_sats: report.lightning_sats,
      lightning_fees_msat: report.lightning_fees_msat,
      lightning_fees: report.lightning_fees,
    });
    const z = (await cashier('GET', `/shifts/${shiftId}/report`)).json();
    assert.deepEqual(figures(z), expected);
    assert.deepEqual(z.payments_by_method, [{ method: 'lightning', payments: 2, amount: 70, tips: 0 }]);
    const day = (await manager('GET', '/reports/day/2026-11-22')).json();
    assert.deepEqual(figures(day), expected);
    assert.equal(day.payments_total, 70);
  });

  it('counts the money taken and given back outside any shift, with the net of /reports/sales', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target, {
      env: { POS_TIMEZONE: 'America/Mexico_City' },
    });
    const { call: waiter, admin, orderId, dishIds } = await billableOrder(app, db, [1000, 2000, 3000]);
    const cashier = callerFor(app, (await loggedInUser(app, db, 'cashier')).cookies);
    const manager = callerFor(app, (await loggedInUser(app, db, 'manager')).cookies);

    // Before any shift opens: the admin takes a card payment for the 10.00 dish.
    const early = await createBill(waiter, orderId, { order_dish_ids: [dishIds[0]] });
    const card = await pay(admin, early, { method: 'card', amount: 10, tip: 1 });
    clock.advance(1000);
    const shiftId = await openShift(cashier, 50);
    const rest = await createBill(waiter, orderId, {});
    await pay(cashier, rest, { method: 'cash', amount: 30 });
    await pay(cashier, rest, { method: 'card', amount: 20, tip: 2 });
    // The admin, who has no shift, refunds 4.00 of the early card payment.
    const refunded = await admin('POST', `/payments/${card}/refund`, { amount: 4, reason: 'Cold' });
    assert.equal(refunded.statusCode, 201, refunded.body);
    const closed = await cashier('POST', `/shifts/${shiftId}/close`, { counted_cash: 80 });
    assert.equal(closed.statusCode, 200, closed.body);

    const z = (await cashier('GET', `/shifts/${shiftId}/report`)).json();
    assert.deepEqual([z.payments_total, z.refunds], [50, 0], 'the Z report sees only the shift’s money');

    const response = await manager('GET', '/reports/day/2026-11-22');
    assert.equal(response.statusCode, 200, response.body);
    const day = response.json();
    const [sales] = (
      await manager('GET', '/reports/sales?from=2026-11-22&to=2026-11-22&group_by=day')
    ).json();
    assert.equal(day.net_sales, sales.net, 'the day report and /reports/sales agree');
    assert.deepEqual(
      [
        day.orders,
        day.bills,
        day.items,
        day.gross_sales,
        day.discounts,
        day.refunds,
        day.net_sales,
        day.tips_total,
      ],
      [1, 2, 3, 60, 0, 4, 56, 3],
    );
    assert.deepEqual(day.payments_by_method, [
      { method: 'card', payments: 2, amount: 30, tips: 3 },
      { method: 'cash', payments: 1, amount: 30, tips: 0 },
    ]);
    assert.deepEqual([day.payments_total, day.refunds_recorded], [60, 4]);
    assert.deepEqual(
      day.shifts.map((line: Record<string, unknown>) => [
        line.shift_id,
        line.status,
        line.payments,
        line.payments_total,
        line.tips,
        line.refunds,
        line.expected_cash,
        line.counted_cash,
        line.difference,
      ]),
      [
        [shiftId, 'closed', 2, 50, 2, 0, 80, 80, 0],
        [null, null, 1, 10, 1, 4, null, null, null],
      ],
    );

    // Another day has nothing; a day that does not exist is refused; a waiter may not read it.
    const quiet = (await manager('GET', '/reports/day/2026-11-23')).json();
    assert.deepEqual([quiet.bills, quiet.payments_total, quiet.shifts], [0, 0, []]);
    const bad = await manager('GET', '/reports/day/2026-02-30');
    assert.equal(bad.statusCode, 400, bad.body);
    const notADate = await manager('GET', '/reports/day/yesterday');
    assert.equal(notADate.statusCode, 400, notADate.body);
    const waiterOnly = callerFor(app, (await loggedInUser(app, db, 'waiter')).cookies);
    assert.equal((await waiterOnly('GET', '/reports/day/2026-11-22')).statusCode, 403);
  });
});

describeEachDatabase('shift close', (target) => {
  it('lets a cashier close her own shift, not another’s; a manager closes anyone’s', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const ana = callerFor(app, (await loggedInUser(app, db, 'cashier')).cookies);
    const bea = callerFor(app, (await loggedInUser(app, db, 'cashier')).cookies);
    const manager = callerFor(app, (await loggedInUser(app, db, 'manager')).cookies);
    const anaShift = await openShift(ana, 20);
    const beaShift = await openShift(bea, 30);

    const foreign = await ana('POST', `/shifts/${beaShift}/close`, { counted_cash: 30 });
    assert.equal(foreign.statusCode, 403, foreign.body);
    assert.deepEqual(foreign.json(), { message: 'Unauthorized API access' });
    assert.equal((await bea('GET', '/shifts/current')).json().status, 'open', 'untouched');

    const own = await ana('POST', `/shifts/${anaShift}/close`, { counted_cash: 19 });
    assert.equal(own.statusCode, 200, own.body);
    assert.deepEqual(
      [own.json().status, own.json().expected_cash, own.json().difference],
      ['closed', 20, -1],
    );
    const byManager = await manager('POST', `/shifts/${beaShift}/close`, { counted_cash: 30 });
    assert.equal(byManager.statusCode, 200, byManager.body);
  });

  it('hides the expected cash of an open shift from the cashier under a blind close', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { admin, call: waiter, orderId } = await billableOrder(app, db, [1500]);
    const cashier = callerFor(app, (await loggedInUser(app, db, 'cashier')).cookies);
    const manager = callerFor(app, (await loggedInUser(app, db, 'manager')).cookies);
    assert.equal((await admin('GET', '/settings')).json().blind_shift_close, false, 'off by default');
    const setting = await admin('PUT', '/settings', { blind_shift_close: true });
    assert.equal(setting.statusCode, 200, setting.body);
    assert.equal(setting.json().blind_shift_close, true);

    const shiftId = await openShift(cashier, 100);
    await pay(cashier, await createBill(waiter, orderId, {}), { method: 'cash', amount: 15 });
    for (const url of ['/shifts/current', `/shifts/${shiftId}`, `/shifts/${shiftId}/report`])
      assert.equal((await cashier('GET', url)).json().expected_cash, null, url);
    assert.equal((await cashier('GET', '/shifts')).json()[0].expected_cash, null);
    assert.equal(
      (await manager('GET', `/shifts/${shiftId}`)).json().expected_cash,
      115,
      'shifts.manage sees it',
    );
    const payOut = await cashier('POST', `/shifts/${shiftId}/cash-movements`, {
      amount: -500,
      reason: 'Ice',
    });
    assert.equal(payOut.statusCode, 400);
    assert.deepEqual(
      payOut.json(),
      { message: 'Pay-out exceeds the cash expected in the drawer' },
      'no figure',
    );

    const closed = await cashier('POST', `/shifts/${shiftId}/close`, { counted_cash: 110 });
    assert.equal(closed.statusCode, 200, closed.body);
    assert.deepEqual(
      [closed.json().expected_cash, closed.json().counted_cash, closed.json().difference],
      [115, 110, -5],
    );
    assert.equal(
      (await cashier('GET', `/shifts/${shiftId}/report`)).json().expected_cash,
      115,
      'shown once closed',
    );
  });
});
