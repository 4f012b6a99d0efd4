import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { it } from 'node:test';
import { MoneyLedger } from '../bench/crash/money-ledger';
import { verifyMoneyInDatabase } from '../bench/crash/money-verify';
import { tapAtTerminal } from '../bench/crash/money-writers';
import { CARD_TERMINAL_WATCH } from '../src/app';
import { manualClock } from '../src/core/clock';
import { CHECK_AFTER_MS } from '../src/payments/card-terminal-settlement.service';
import { describeEachDatabase } from './helpers/app';
import { billableOrder, createBill } from './helpers/checkout-factories';
import { appOnSharedDatabase } from './helpers/cli';
import { MercadoPagoSimulator } from './mp-sim/simulator';

const CAJA_1 = 'NEWLAND_N950__N950NCB000000001';
const NOTHING = { lost: [], halfWritten: [], settledTwice: [] };

/**
 * The crash test's own check of the database against what the server acknowledged: if it passed
 * whatever the tables held, the crash test's "0 lost" would mean nothing.
 */
describeEachDatabase('the crash test ledger check', (target) => {
  it('finds nothing on a database that keeps its word, and a planted loss or half-write when there is one', async (t) => {
    const { app, db, databaseUrl } = await appOnSharedDatabase(t, target);
    const { call, orderId } = await billableOrder(app, db);
    const ticketId = await createBill(call, orderId, {});
    const paid = await call('POST', `/tickets/${ticketId}/payments`, { method: 'cash', amount: 60 });
    assert.equal(paid.statusCode, 201, paid.body);
    const paymentId = paid.json().id as string;
    const ledger = new MoneyLedger();
    ledger.payments.set(paymentId, { ticketId, amountCents: 6000, method: 'cash' });
    ledger.ack('cash payment');

    assert.deepEqual(await verifyMoneyInDatabase(databaseUrl, ledger), NOTHING);

    // An acknowledged payment that never reached the database.
    const missing = crypto.randomUUID();
    ledger.payments.set(missing, { ticketId, amountCents: 500, method: 'card' });
    const lostFindings = await verifyMoneyInDatabase(databaseUrl, ledger);
    assert.deepEqual(lostFindings.lost, [`payment ${missing} (card) not in the database`]);
    ledger.payments.delete(missing);

    // A bill whose paid no longer matches its payments: written by half.
    await db.updateTable('tickets').set({ paid_cents: 5000 }).where('id', '=', ticketId).execute();
    const halfFindings = await verifyMoneyInDatabase(databaseUrl, ledger);
    assert.ok(
      halfFindings.halfWritten.some((finding) => finding.startsWith(`bill ${ticketId}: paid 5000`)),
      halfFindings.halfWritten.join('\n'),
    );
  });

  it('holds a card tapped at the terminal to one settlement, and finds a charge settled twice', async (t) => {
    const sim = await MercadoPagoSimulator.start({ atTerminalAfterMs: null, refundSettleAfterMs: null });
    t.after(() => sim.stop());
    const clock = manualClock(Date.UTC(2026, 10, 22, 18, 0, 0));
    const { app, db, databaseUrl } = await appOnSharedDatabase(t, target, {
      env: {
        POS_MP_ACCESS_TOKEN: sim.accessToken,
        POS_MP_WEBHOOK_SECRET: sim.webhookSecret,
        POS_MP_API_URL: sim.url,
      },
      clock,
      startJobs: false,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    sim.notifier.url = `http://127.0.0.1:${port}/terminals/mercadopago/webhook`;
    const { call, admin, orderId } = await billableOrder(app, db);
    const ticketId = await createBill(call, orderId, {});
    const charged = await call(
      'POST',
      `/tickets/${ticketId}/card-terminal`,
      { amount: 60, terminal_id: CAJA_1 },
      { 'idempotency-key': 'crash-ledger-1' },
    );
    assert.equal(charged.statusCode, 201, charged.body);
    const paymentId = charged.json().payment_id as string;
    const ledger = new MoneyLedger();
    ledger.ack('terminal charge');
    assert.ok(tapAtTerminal(sim, ledger, CAJA_1, { ticketId, amountCents: 6000 }));
    await sim.notificationsSettled();
    clock.advance(CHECK_AFTER_MS);
    await app.jobs.run(CARD_TERMINAL_WATCH);
    assert.equal((await call('GET', `/payments/${paymentId}`)).json().status, 'settled');
    // A refund Mercado Pago has not processed yet has taken nothing off the payment or the bill.
    const refund = await admin('POST', `/payments/${paymentId}/refund`, { amount: 10, reason: 'Plato frío' });
    assert.equal(refund.statusCode, 201, refund.body);
    assert.equal(refund.json().status, 'pending');
    const ordersByReference = () => {
      const orders = new Map<string, number>();
      for (const order of sim.snapshot().orders)
        orders.set(order.external_reference, (orders.get(order.external_reference) ?? 0) + 1);
      return orders;
    };

    assert.deepEqual(
      await verifyMoneyInDatabase(databaseUrl, ledger, { terminalOrders: ordersByReference() }),
      NOTHING,
    );

    // The provider made two orders for the one charge: the guest paid twice.
    const twoOrders = new Map([[paymentId, 2]]);
    const providerFindings = await verifyMoneyInDatabase(databaseUrl, ledger, { terminalOrders: twoOrders });
    assert.deepEqual(providerFindings.settledTwice, [
      `terminal charge ${paymentId}: 2 orders at the provider for it`,
    ]);

    // A second payment row for the same provider order: the charge settled twice in the bill.
    const row = await db
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', paymentId)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('payments')
      .values({ ...row, id: crypto.randomUUID() })
      .execute();
    const twiceFindings = await verifyMoneyInDatabase(databaseUrl, ledger, {
      terminalOrders: ordersByReference(),
    });
    assert.deepEqual(twiceFindings.settledTwice, [
      `terminal charge ${paymentId}: 2 payment rows for its order ${row.provider_order_id}`,
    ]);
  });
});
