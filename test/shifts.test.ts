import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Db } from '../src/core/db/database';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser, login } from './helpers/auth';
import { billableOrder, createBill } from './helpers/checkout-factories';
import { databaseDigest } from './helpers/db-digest';
import { callerFor } from './helpers/orders-factories';
import { buildWalletTestApp, listenForWebhooks } from './helpers/wallet-factories';

/** 1 BTC = 2,000,000.00 in the base currency: 1.00 is 50 sat. */
const RATE_ENV = { POS_RATE_SOURCE: 'fixed:2000000' };

async function storedSum(
  db: Db,
  table: 'payments' | 'refunds',
  shiftId: string,
  column: 'amount_cents' | 'tip_cents',
) {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(column), eb.lit(0)).as('cents'))
    .where('shift_id', '=', shiftId)
    .executeTakeFirstOrThrow();
  return Number(row.cents) / 100;
}

describeEachDatabase('shifts', (target) => {
  it('closes with the cash the stored rows say, and a Z report that adds up', async (t) => {
    const { app, db, simulator } = await buildWalletTestApp(t, target, { env: RATE_ENV });
    await listenForWebhooks(app, simulator);
    const { call: waiter, admin: cashier, orderId, dishIds } = await billableOrder(app, db);
    const opened = await cashier('POST', '/shifts', { opening_cash: 100 });
    assert.equal(opened.statusCode, 201, opened.body);
    const shift = opened.json();
    assert.deepEqual([shift.status, shift.opening_cash, shift.expected_cash], ['open', 100, 100]);

    // Bill 1: the 10.00 dish, paid in cash with a 2.00 tip from a 20.00 note.
    const first = await createBill(waiter, orderId, { order_dish_ids: [dishIds[0]] });
    const cash = await cashier('POST', `/tickets/${first}/payments`, {
      method: 'cash',
      amount: 10,
      tip: 2,
      tendered: 20,
    });
    assert.equal(cash.statusCode, 201, cash.body);
    assert.equal(cash.json().change, 8);
    // Bill 2: the rest (50.00) less a 5.00 discount, in cash and Lightning.
    const second = await createBill(cashier, orderId, {
      discount: { type: 'amount', value: 5, reason: 'Regular' },
    });
    const part = await cashier('POST', `/tickets/${second}/payments`, {
      method: 'cash',
      amount: 20,
      tendered: 50,
    });
    assert.equal(part.statusCode, 201, part.body);
    const invoice = await cashier('POST', `/tickets/${second}/lightning`, {});
    assert.equal(invoice.statusCode, 201, invoice.body);
    await (await simulator.receivePayment(invoice.json().lightning.invoice)).webhooks;
    assert.equal((await cashier('GET', `/tickets/${second}`)).json().status, 2);
    // A cash payment by someone without a shift belongs to no shift.
    const third = await createBill(waiter, (await billableOrder(app, db, [700])).orderId);
    assert.equal(
      (await waiter('POST', `/tickets/${third}/payments`, { method: 'cash', amount: 7 })).statusCode,
      201,
    );

    const refund = await cashier('POST', `/payments/${cash.json().id}/refund`, {
      amount: 3,
      reason: 'Cold soup',
    });
    assert.equal(refund.statusCode, 201, refund.body);
    for (const movement of [
      { amount: -15, reason: 'Ice from the shop' },
      { amount: 5, reason: 'Change from the safe' },
    ]) {
      const recorded = await cashier('POST', `/shifts/${shift.id}/cash-movements`, movement);
      assert.equal(recorded.statusCode, 201, recorded.body);
    }
    // 100 + (10 + 2) + 20 − 3 − 15 + 5; tendered notes and change cancel out.
    assert.equal((await cashier('GET', '/shifts/current')).json().expected_cash, 119);

    const closed = await cashier('POST', `/shifts/${shift.id}/close`, {
      counted_cash: 118.5,
      notes: 'Short 50 cents',
    });
    assert.equal(closed.statusCode, 200, closed.body);
    assert.deepEqual(
      [
        closed.json().status,
        closed.json().expected_cash,
        closed.json().counted_cash,
        closed.json().difference,
      ],
      ['closed', 119, 118.5, -0.5],
    );

    const report = (await cashier('GET', `/shifts/${shift.id}/report`)).json();
    assert.deepEqual(
      [report.orders, report.bills, report.gross_sales, report.discounts, report.refunds, report.net_sales],
      [1, 2, 60, 5, 3, 52],
    );
    assert.deepEqual(report.payments_by_method, [
      { method: 'cash', payments: 2, amount: 30, tips: 2 },
      { method: 'lightning', payments: 1, amount: 25, tips: 0 },
    ]);
    assert.equal(report.lightning_sats, 1250);
    const waiterId = (
      await db.selectFrom('orders').select('user_id').where('id', '=', orderId).executeTakeFirstOrThrow()
    ).user_id;
    assert.deepEqual(
      report.tips_by_waiter.map((row: { user_id: string; tips: number }) => [row.user_id, row.tips]),
      [[waiterId, 2]],
    );
    // The parts against the stored rows.
    assert.equal(report.payments_total, await storedSum(db, 'payments', shift.id, 'amount_cents'));
    assert.equal(report.tips_total, await storedSum(db, 'payments', shift.id, 'tip_cents'));
    assert.equal(report.refunds, await storedSum(db, 'refunds', shift.id, 'amount_cents'));
    assert.equal(report.net_sales, report.gross_sales - report.discounts - report.refunds);
    assert.equal(
      report.payments_total,
      report.payments_by_method.reduce((sum: number, row: { amount: number }) => sum + row.amount, 0),
    );
    assert.deepEqual([report.expected_cash, report.counted_cash, report.difference], [119, 118.5, -0.5]);
    const stored = await db
      .selectFrom('shifts')
      .selectAll()
      .where('id', '=', shift.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual([Number(stored.expected_cash_cents), Number(stored.counted_cash_cents)], [11900, 11850]);
    const audited = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'shift.closed')
      .executeTakeFirstOrThrow();
    assert.equal(audited.target_id, shift.id);
    assert.deepEqual(JSON.parse(String(audited.after)), {
      status: 'closed',
      expected_cash: 119,
      counted_cash: 118.5,
      difference: -0.5,
      notes: 'Short 50 cents',
    });

    // Closed shifts never change, and later payments belong to no shift.
    const before = await databaseDigest(db);
    for (const [path, body] of [
      [`/shifts/${shift.id}/close`, { counted_cash: 119 }],
      [`/shifts/${shift.id}/cash-movements`, { amount: 1, reason: 'Late' }],
    ] as const) {
      const refused = await cashier('POST', path, body);
      assert.deepEqual([refused.statusCode, refused.json()], [409, { message: 'The shift is closed' }]);
    }
    assert.equal(await databaseDigest(db), before);
    assert.equal((await cashier('GET', '/shifts/current')).statusCode, 404);
  });

  it('refuses a pay-out beyond the expected cash unless a manager forces it, and shows it on the Z report', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const cashier = callerFor(app, (await loggedInUser(app, db, 'cashier')).cookies);
    const manager = callerFor(app, (await loggedInUser(app, db, 'manager')).cookies);
    const shift = (await cashier('POST', '/shifts', { opening_cash: 50 })).json();
    const path = `/shifts/${shift.id}/cash-movements`;
    assert.equal((await cashier('POST', path, { amount: -30, reason: 'Ice' })).statusCode, 201);

    const before = await databaseDigest(db);
    const tooMuch = await cashier('POST', path, { amount: -20.01, reason: 'Supplier' });
    assert.deepEqual(
      [tooMuch.statusCode, tooMuch.json()],
      [400, { message: 'Pay-out exceeds the cash expected in the drawer (20.00)' }],
    );
    const selfForced = await cashier('POST', path, { amount: -20.01, reason: 'Supplier', force: true });
    assert.deepEqual(
      [selfForced.statusCode, selfForced.json()],
      [403, { message: 'Unauthorized API access' }],
    );
    assert.equal(await databaseDigest(db), before);

    clock.advance(1000);
    assert.equal(
      (await cashier('POST', path, { amount: -20, reason: 'Exactly what is there' })).statusCode,
      201,
    );
    clock.advance(1000);
    const forced = await manager('POST', path, {
      amount: -45,
      reason: 'Supplier paid from the safe',
      force: true,
    });
    assert.equal(forced.statusCode, 201, forced.body);
    const view = (await cashier('GET', `/shifts/${shift.id}`)).json();
    assert.equal(view.expected_cash, -45);
    assert.deepEqual(
      view.cash_movements.map((movement: { amount: number; forced: boolean }) => [
        movement.amount,
        movement.forced,
      ]),
      [
        [-30, false],
        [-20, false],
        [-45, true],
      ],
    );
    const report = (await manager('GET', `/shifts/${shift.id}/report`)).json();
    assert.deepEqual(
      report.forced_pay_outs.map((movement: { id: string; amount: number; reason: string }) => [
        movement.id,
        movement.amount,
        movement.reason,
      ]),
      [[forced.json().id, -45, 'Supplier paid from the safe']],
    );
    const audited = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'shift.pay_out_forced')
      .executeTakeFirstOrThrow();
    assert.equal(audited.target_id, shift.id);
  });

  it('opens one shift per user, even when ten requests race', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const cashier = callerFor(app, (await loggedInUser(app, db, 'cashier')).cookies);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => cashier('POST', '/shifts', { opening_cash: 50 })),
    );
    const codes = answers.map((answer) => answer.statusCode).sort();
    assert.deepEqual(codes, [201, ...Array(9).fill(409)]);
    for (const refused of answers.filter((answer) => answer.statusCode === 409)) {
      assert.deepEqual(refused.json(), { message: 'A shift is already open' });
    }
    assert.equal(
      Number(
        (
          await db
            .selectFrom('shifts')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
      1,
    );
    const current = (await cashier('GET', '/shifts/current')).json();
    assert.equal(
      (await cashier('POST', `/shifts/${current.id}/close`, { counted_cash: 50 })).json().difference,
      0,
    );
    assert.equal((await cashier('POST', '/shifts', { opening_cash: 0 })).statusCode, 201);
  });

  it('refuses cash without an open shift when the restaurant counts its drawers', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, admin, orderId } = await billableOrder(app, db);
    assert.equal((await admin('PUT', '/settings', { require_shift_for_cash: true })).statusCode, 200);
    const ticketId = await createBill(call, orderId, {});
    const before = await databaseDigest(db);
    const refused = await call('POST', `/tickets/${ticketId}/payments`, { method: 'cash', amount: 10 });
    assert.deepEqual([refused.statusCode, refused.json()], [400, { message: 'Open a shift first' }]);
    assert.equal(await databaseDigest(db), before);

    const card = await call('POST', `/tickets/${ticketId}/payments`, { method: 'card', amount: 10 });
    assert.equal(card.statusCode, 201, card.body);
    const shift = (await call('POST', '/shifts', { opening_cash: 0 })).json();
    const cash = await call('POST', `/tickets/${ticketId}/payments`, { method: 'cash', amount: 50 });
    assert.equal(cash.statusCode, 201, cash.body);
    const stored = await db.selectFrom('payments').select(['id', 'shift_id']).execute();
    assert.deepEqual(Object.fromEntries(stored.map((row) => [row.id, row.shift_id])), {
      [card.json().id]: null,
      [cash.json().id]: shift.id,
    });
    assert.equal((await call('GET', '/shifts/current')).json().expected_cash, 50);
  });

  it("takes a manager's cash refund out of a drawer a shift answers for: hers, or the one she names", async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId } = await billableOrder(app, db);
    const manager = callerFor(app, (await loggedInUser(app, db, 'manager')).cookies);
    const drawer = (await call('POST', '/shifts', { opening_cash: 100 })).json();
    const ticketId = await createBill(call, orderId, {});
    const card = await call('POST', `/tickets/${ticketId}/payments`, { method: 'card', amount: 10 });
    const cash = (await call('POST', `/tickets/${ticketId}/payments`, { method: 'cash', amount: 50 })).json();

    const before = await databaseDigest(db);
    const refused = await manager('POST', `/payments/${cash.id}/refund`, { amount: 20, reason: 'Frío' });
    assert.deepEqual(
      [refused.statusCode, refused.json()],
      [
        400,
        {
          message:
            'A cash refund comes out of a drawer: open your shift, or name the shift whose drawer pays it',
        },
      ],
    );
    assert.equal(await databaseDigest(db), before, 'nothing refunded, no drawer short');

    const named = await manager('POST', `/payments/${cash.id}/refund`, {
      amount: 20,
      reason: 'Frío',
      shift_id: drawer.id,
    });
    assert.equal(named.statusCode, 201, named.body);
    assert.equal((await call('GET', '/shifts/current')).json().expected_cash, 130, 'the cashier’s corte');

    const own = (await manager('POST', '/shifts', { opening_cash: 50 })).json();
    const fromOwn = await manager('POST', `/payments/${cash.id}/refund`, { amount: 5, reason: 'Frío' });
    assert.equal(fromOwn.statusCode, 201, fromOwn.body);
    assert.equal((await manager('GET', '/shifts/current')).json().expected_cash, 45);
    assert.equal(await storedSum(db, 'refunds', own.id, 'amount_cents'), 5);

    const closed = await call('POST', `/shifts/${drawer.id}/close`, { counted_cash: 130 });
    assert.equal(closed.statusCode, 200, closed.body);
    assert.equal(closed.json().difference, 0);
    const onClosed = await manager('POST', `/payments/${cash.id}/refund`, {
      amount: 5,
      reason: 'Frío',
      shift_id: drawer.id,
    });
    assert.deepEqual([onClosed.statusCode, onClosed.json()], [409, { message: 'The shift is closed' }]);
    const cardWithDrawer = await manager('POST', `/payments/${card.json().id}/refund`, {
      reason: 'Error',
      shift_id: own.id,
    });
    assert.deepEqual(
      [cardWithDrawer.statusCode, cardWithDrawer.json()],
      [400, { message: 'Only cash refunds come out of a drawer' }],
    );
  });

  it('shows each user their own shifts and a manager everyone’s, by day', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target, {
      env: { POS_TIMEZONE: 'America/Mexico_City' },
    });
    const waiter = await loggedInUser(app, db, 'waiter');
    const kitchen = callerFor(app, (await loggedInUser(app, db, 'kitchen')).cookies);
    let mine = callerFor(app, waiter.cookies);

    assert.equal((await kitchen('POST', '/shifts', { opening_cash: 10 })).statusCode, 403);
    assert.equal((await mine('GET', '/shifts/current')).statusCode, 404);
    const first = (await mine('POST', '/shifts', { opening_cash: 10 })).json();
    await mine('POST', `/shifts/${first.id}/close`, { counted_cash: 10 });
    // 2026-11-22 18:00 UTC is noon in Mexico City; the next shift opens at 01:00 local the next day.
    clock.advance(13 * 60 * 60 * 1000);
    mine = callerFor(app, await login(app, waiter.user.name, waiter.user.pin));
    const other = callerFor(app, (await loggedInUser(app, db, 'waiter')).cookies);
    const manager = callerFor(app, (await loggedInUser(app, db, 'manager')).cookies);
    const second = (await other('POST', '/shifts', { opening_cash: 20 })).json();

    assert.equal((await other('GET', `/shifts/${first.id}`)).statusCode, 403);
    assert.equal((await other('POST', `/shifts/${first.id}/close`, { counted_cash: 1 })).statusCode, 403);
    assert.equal((await other('GET', `/shifts?user_id=${waiter.user.id}`)).statusCode, 403);
    assert.deepEqual(
      (await mine('GET', '/shifts')).json().map((shift: { id: string }) => shift.id),
      [first.id],
    );
    assert.deepEqual(
      (await manager('GET', '/shifts')).json().map((shift: { id: string }) => shift.id),
      [second.id, first.id],
    );
    assert.deepEqual(
      (await manager('GET', '/shifts?date=2026-11-23')).json().map((shift: { id: string }) => shift.id),
      [second.id],
    );
    assert.equal((await manager('GET', '/shifts?date=2026-11-21')).statusCode, 204);
    assert.equal((await manager('GET', `/shifts/${second.id}/report`)).json().shift.status, 'open');
    const byManager = await manager('POST', `/shifts/${second.id}/close`, { counted_cash: 19 });
    assert.deepEqual([byManager.json().difference, byManager.json().closed_by !== null], [-1, true]);
    assert.equal(
      (await mine('POST', `/shifts/${first.id}/cash-movements`, { amount: 0, reason: 'x' })).statusCode,
      400,
    );
  });
});
