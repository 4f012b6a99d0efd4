import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDatabase } from './helpers/app';
import { billableOrder, createBill, storedEvents } from './helpers/checkout-factories';
import type { DatabaseTarget } from './helpers/database';
import { buildWalletTestApp } from './helpers/wallet-factories';

type TestContext = Parameters<typeof buildWalletTestApp>[0];

/** A 60.00 bill paid with Lightning at 1 BTC = 2,000,000.00 (3,000 sat). */
async function paidLightningBill(
  t: TestContext,
  target: DatabaseTarget,
  options: { password?: 'limited'; toFeeCredit?: boolean } = {},
) {
  const built = await buildWalletTestApp(t, target, {
    env: {
      POS_RATE_SOURCE: 'fixed:2000000',
      // The simulator's default http-password-limited-access: it reads and makes invoices, never pays.
      ...(options.password === 'limited' && { PHOENIXD_PASSWORD: 'sim-limited-password' }),
    },
  });
  const { call, admin, orderId } = await billableOrder(built.app, built.db);
  const ticketId = await createBill(call, orderId, {});
  const payment = (await call('POST', `/tickets/${ticketId}/lightning`, {})).json();
  await built.simulator.receivePayment(payment.lightning.invoice, {
    toFeeCredit: options.toFeeCredit ?? false,
  });
  assert.equal((await call('GET', `/payments/${payment.id}`)).json().status, 'settled');
  const customerInvoice = (amountSat: number) =>
    built.simulator.node.createInvoice({
      amountSat,
      description: 'refund',
      expirySeconds: null,
      externalId: null,
    }).serialized;
  return { ...built, call, admin, ticketId, paymentId: payment.id as string, customerInvoice };
}

describeEachDatabase('lightning refunds', (target) => {
  it('pays the customer invoice through the node at the original rate; a keyed retry pays nothing more', async (t) => {
    const { db, simulator, admin, ticketId, paymentId, customerInvoice } = await paidLightningBill(t, target);
    const body = { amount: 20, reason: 'cold soup', invoice: customerInvoice(1000) };
    const headers = { 'idempotency-key': 'refund-1' };
    const refunded = await admin('POST', `/payments/${paymentId}/refund`, body, headers);
    assert.equal(refunded.statusCode, 201, refunded.body);
    assert.equal(refunded.json().payment_status, 'partially_refunded');
    const retried = await admin('POST', `/payments/${paymentId}/refund`, body, headers);
    assert.deepEqual(retried.json(), refunded.json());
    assert.equal(simulator.received.filter((call) => call === 'POST /payinvoice').length, 1);
    const sent = simulator.node.outgoing.filter((payment) => payment.subType === 'lightning');
    assert.equal(sent.length, 1);
    const refund = await db.selectFrom('refunds').selectAll().executeTakeFirstOrThrow();
    assert.deepEqual([Number(refund.amount_cents), Number(refund.amount_sat)], [2000, 1000]);
    assert.equal(refund.node_payment_id, sent[0]?.paymentId);
    const ticket = await db
      .selectFrom('tickets')
      .selectAll()
      .where('id', '=', ticketId)
      .executeTakeFirstOrThrow();
    assert.deepEqual([ticket.status, Number(ticket.paid_cents)], [2, 4000]);
    assert.equal((await storedEvents(db)).filter((event) => event.type === 'payment.refunded').length, 1);
  });

  it('answers 504 when the node times out, and a retry with the same key never pays twice', async (t) => {
    const { db, simulator, admin, paymentId, customerInvoice } = await paidLightningBill(t, target);
    const body = { reason: 'wrong table', invoice: customerInvoice(3000) };
    const headers = { 'idempotency-key': 'refund-timeout' };
    simulator.setMode({ kind: 'slow', delayMs: 3000 });
    const timedOut = await admin('POST', `/payments/${paymentId}/refund`, body, headers);
    assert.deepEqual(
      [timedOut.statusCode, timedOut.json()],
      [504, { message: 'Payment outcome unknown: check outgoing payments' }],
    );
    simulator.setMode({ kind: 'up' });
    const retried = await admin('POST', `/payments/${paymentId}/refund`, body, headers);
    assert.equal(retried.statusCode, 504);
    assert.equal(simulator.received.filter((call) => call === 'POST /payinvoice').length, 1);
    // The money probably left: the refund stays taken, so no second refund can pay it again.
    const payment = await db
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', paymentId)
      .executeTakeFirstOrThrow();
    assert.deepEqual([payment.status, Number(payment.refunded_cents)], ['refunded', 6000]);
  });

  it('gives the refund back when the node refuses the payment', async (t) => {
    const { db, simulator, admin, paymentId, customerInvoice } = await paidLightningBill(t, target);
    simulator.node.failNextPayment('no route');
    const refused = await admin('POST', `/payments/${paymentId}/refund`, {
      reason: 'x',
      invoice: customerInvoice(3000),
    });
    assert.deepEqual([refused.statusCode, refused.json()], [400, { message: 'Payment failed: no route' }]);
    const payment = await db
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', paymentId)
      .executeTakeFirstOrThrow();
    assert.deepEqual([payment.status, Number(payment.refunded_cents)], ['settled', 0]);
    assert.equal((await db.selectFrom('refunds').selectAll().execute()).length, 0);
  });

  it('names the password when the node refuses to pay with the limited-access one, and gives the refund back', async (t) => {
    const { db, simulator, admin, paymentId, customerInvoice } = await paidLightningBill(t, target, {
      password: 'limited',
    });
    const refused = await admin('POST', `/payments/${paymentId}/refund`, {
      reason: 'x',
      invoice: customerInvoice(3000),
    });
    assert.equal(refused.statusCode, 503);
    assert.match(refused.json().message, /http-password-limited-access/);
    assert.ok(simulator.received.includes('POST /payinvoice'));
    assert.deepEqual(simulator.node.outgoing, []);
    assert.equal((await db.selectFrom('refunds').selectAll().execute()).length, 0);
  });

  it('says so when the refund fails because the sats went to fee credit', async (t) => {
    const { simulator, admin, paymentId, customerInvoice } = await paidLightningBill(t, target, {
      toFeeCredit: true,
    });
    simulator.node.setBalance(0);
    const refused = await admin('POST', `/payments/${paymentId}/refund`, {
      reason: 'x',
      invoice: customerInvoice(3000),
    });
    assert.equal(refused.statusCode, 400);
    assert.equal(
      refused.json().message,
      'Payment failed: not enough funds in wallet to afford payment. The node can send 0 sat; ' +
        '3000 sat it received went to its fee credit, which pays future liquidity fees and cannot be sent',
    );
  });

  it('needs the customer invoice for a Lightning refund', async (t) => {
    const { admin, paymentId } = await paidLightningBill(t, target);
    const refused = await admin('POST', `/payments/${paymentId}/refund`, { reason: 'x' });
    assert.deepEqual(
      [refused.statusCode, refused.json()],
      [400, { message: "A Lightning refund needs the customer's invoice" }],
    );
  });
});
