import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { buildApp, LIGHTNING_CATCH_UP, LIGHTNING_SWEEP } from '../src/app';
import type { Db } from '../src/core/db/database';
import type { RateSource } from '../src/rates/exchange-rate';
import { describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { billableOrder, createBill, storedEvents } from './helpers/checkout-factories';
import type { DatabaseTarget } from './helpers/database';
import { databaseDigest } from './helpers/db-digest';
import { callerFor } from './helpers/orders-factories';
import { buildWalletTestApp, listenForWebhooks } from './helpers/wallet-factories';
import { PaymentRefusedError } from './phoenixd-sim/sim-node';

/** 1 BTC = 2,000,000.00 in the base currency: 1.00 is 50 sat, the 60.00 bill 3,000 sat. */
const PRICE = 2_000_000;
const RATE_ENV = { POS_RATE_SOURCE: `fixed:${PRICE}` };
/**
 * The node buys inbound liquidity with every payment and takes this fee from it, as real phoenixd
 * does: the 3,000-sat bill arrives as 2,774 sat, and is paid in full all the same.
 */
const FEE_SAT = 226;
const NET_SAT = 3000 - FEE_SAT;

type TestContext = Parameters<typeof buildWalletTestApp>[0];

async function lightningBill(
  t: TestContext,
  target: DatabaseTarget,
  options: { env?: Record<string, string>; startJobs?: boolean } = {},
) {
  const built = await buildWalletTestApp(t, target, {
    ...options,
    env: { ...RATE_ENV, ...options.env },
    simulator: { liquidityFeeSat: FEE_SAT },
  });
  const bill = await billableOrder(built.app, built.db);
  const ticketId = await createBill(bill.call, bill.orderId, {});
  return { ...built, ...bill, ticketId };
}

function storedPayment(db: Db, id: string) {
  return db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

function cursorOf(db: Db) {
  return db.selectFrom('lightning_catch_up').selectAll().executeTakeFirstOrThrow();
}

function storedTicket(db: Db, id: string) {
  return db.selectFrom('tickets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Sessions do not outlive the clock moving by minutes; a waiter who logs in again. */
async function freshWaiter(app: FastifyInstance, db: Db) {
  return callerFor(app, (await loggedInUser(app, db, 'staff')).cookies);
}

async function eventTypes(db: Db): Promise<string[]> {
  return (await storedEvents(db)).map((event) => event.type);
}

const count = (items: string[], item: string) => items.filter((candidate) => candidate === item).length;

describeEachDatabase('lightning bills', (target) => {
  it('asks the node for an invoice and settles the bill through the webhook', async (t) => {
    const { app, db, simulator, call, ticketId } = await lightningBill(t, target);
    await listenForWebhooks(app, simulator);
    const created = await call('POST', `/tickets/${ticketId}/lightning`, {});
    assert.equal(created.statusCode, 201, created.body);
    const payment = created.json();
    assert.deepEqual(
      [payment.status, payment.amount, payment.tip, payment.method],
      ['pending', 60, 0, 'lightning'],
    );
    assert.deepEqual([payment.lightning.amount_sat, payment.lightning.rate], [3000, PRICE]);
    assert.equal(payment.lightning.expires_at, '2026-11-22T18:15:00.000Z');
    const atNode = simulator.node.incoming.get(payment.lightning.payment_hash);
    assert.equal(atNode?.externalId, payment.id);
    assert.equal(atNode?.requestedSat, 3000);
    assert.equal(atNode?.description, 'Restaurant bill');

    const [webhook] = await (await simulator.receivePayment(payment.lightning.invoice)).webhooks;
    assert.equal(webhook?.status, 200);
    const row = await storedPayment(db, payment.id);
    assert.deepEqual(
      [row.status, Number(row.received_sat), Number(row.fees_msat)],
      ['settled', NET_SAT, FEE_SAT * 1000],
    );
    const ticket = (await call('GET', `/tickets/${ticketId}`)).json();
    assert.deepEqual([ticket.status, ticket.paid, ticket.balance], [2, 60, 0]);
    assert.deepEqual(
      (await eventTypes(db)).slice(-4),
      ['payment.pending', 'payment.settled', 'ticket.paid', 'order.updated'],
      'the paid order closes itself',
    );
  });

  it('settles through the sweep when the webhook is lost', async (t) => {
    const { app, db, simulator, call, ticketId } = await lightningBill(t, target);
    await listenForWebhooks(app, simulator);
    simulator.webhookMode = 'drop';
    const payment = (await call('POST', `/tickets/${ticketId}/lightning`, { tip: 5 })).json();
    assert.equal(payment.lightning.amount_sat, 3250);
    await simulator.receivePayment(payment.lightning.invoice);
    assert.equal((await storedPayment(db, payment.id)).status, 'pending');
    await app.jobs.run(LIGHTNING_SWEEP);
    assert.equal((await storedPayment(db, payment.id)).status, 'settled');
    const ticket = await storedTicket(db, ticketId);
    assert.deepEqual([ticket.status, Number(ticket.paid_cents), Number(ticket.tips_cents)], [2, 6000, 500]);
  });

  it('settles through the sweep on its own timer within 15 s', async (t) => {
    const { app, db, simulator, call, ticketId } = await lightningBill(t, target, { startJobs: true });
    await listenForWebhooks(app, simulator);
    simulator.webhookMode = 'drop';
    const payment = (await call('POST', `/tickets/${ticketId}/lightning`, {})).json();
    await simulator.receivePayment(payment.lightning.invoice);
    const paidAt = Date.now();
    while ((await storedPayment(db, payment.id)).status === 'pending') {
      assert.ok(Date.now() - paidAt < 15_000, 'the sweep did not settle the payment within 15 s');
      await sleep(100);
    }
    assert.equal((await storedTicket(db, ticketId)).status, 2);
  });

  it('settles at once when the payment is looked up', async (t) => {
    const { app, db, simulator, call, ticketId } = await lightningBill(t, target);
    await listenForWebhooks(app, simulator);
    simulator.webhookMode = 'drop';
    const payment = (await call('POST', `/tickets/${ticketId}/lightning`, {})).json();
    assert.equal((await call('GET', `/payments/${payment.id}`)).json().status, 'pending');
    await simulator.receivePayment(payment.lightning.invoice);
    const looked = (await call('GET', `/payments/${payment.id}`)).json();
    assert.deepEqual(
      [looked.status, looked.lightning.received_sat, looked.lightning.fees_msat],
      ['settled', NET_SAT, FEE_SAT * 1000],
    );
    assert.equal((await storedTicket(db, ticketId)).status, 2);
  });

  it('settles once when webhooks, sweeps and lookups race', async (t) => {
    const { app, db, simulator, call, ticketId } = await lightningBill(t, target);
    const payment = (await call('POST', `/tickets/${ticketId}/lightning`, {})).json();
    await simulator.receivePayment(payment.lightning.invoice);
    await listenForWebhooks(app, simulator);
    const results = await Promise.all([
      simulator.redeliverLastWebhook(),
      app.jobs.run(LIGHTNING_SWEEP),
      call('GET', `/payments/${payment.id}`),
      simulator.redeliverLastWebhook(),
      call('GET', `/payments/${payment.id}`),
    ]);
    assert.equal(results[0]?.[0]?.status, 200);
    const ticket = await storedTicket(db, ticketId);
    assert.deepEqual([ticket.status, Number(ticket.paid_cents)], [2, 6000]);
    assert.equal((await storedPayment(db, payment.id)).status, 'settled');
    const types = await eventTypes(db);
    assert.deepEqual([count(types, 'payment.settled'), count(types, 'ticket.paid')], [1, 1]);
  });

  it('settles once and asks the node once when two instances sweep at the same moment', async (t) => {
    const { app, db, database, config, clock, simulator, call, ticketId } = await lightningBill(t, target);
    const other = await buildApp(config, { database, clock, startJobs: false });
    t.after(() => other.close());
    const payment = (await call('POST', `/tickets/${ticketId}/lightning`, {})).json();
    await simulator.receivePayment(payment.lightning.invoice);
    await Promise.all([app.jobs.run(LIGHTNING_SWEEP), other.jobs.run(LIGHTNING_SWEEP)]);
    const ticket = await storedTicket(db, ticketId);
    assert.deepEqual([ticket.status, Number(ticket.paid_cents)], [2, 6000]);
    const lookups = simulator.received.filter((line) => line.startsWith('GET /payments/incoming/'));
    assert.equal(lookups.length, 1);
    assert.equal(count(await eventTypes(db), 'payment.settled'), 1);
  });

  it('closes a bill exactly with cash and Lightning', async (t) => {
    const { db, simulator, call, ticketId } = await lightningBill(t, target);
    const cash = await call('POST', `/tickets/${ticketId}/payments`, { method: 'cash', amount: 20 });
    assert.equal(cash.statusCode, 201);
    const payment = (await call('POST', `/tickets/${ticketId}/lightning`, {})).json();
    assert.deepEqual([payment.amount, payment.lightning.amount_sat], [40, 2000]);
    await simulator.receivePayment(payment.lightning.invoice);
    await call('GET', `/payments/${payment.id}`);
    const ticket = (await call('GET', `/tickets/${ticketId}`)).json();
    assert.deepEqual([ticket.status, ticket.paid, ticket.balance], [2, 60, 0]);
    assert.equal(Number((await storedTicket(db, ticketId)).paid_cents), 6000);
  });

  it('records a Lightning payment made after the bill was paid in cash: the bill is overpaid', async (t) => {
    const { app, db, simulator, call, ticketId, orderId } = await lightningBill(t, target);
    await listenForWebhooks(app, simulator);
    const payment = (await call('POST', `/tickets/${ticketId}/lightning`, {})).json();
    const cash = await call('POST', `/tickets/${ticketId}/payments`, { method: 'cash', amount: 60 });
    assert.deepEqual([cash.statusCode, cash.json().ticket_status], [201, 2]);
    await (await simulator.receivePayment(payment.lightning.invoice)).webhooks;
    assert.equal((await storedPayment(db, payment.id)).status, 'settled');
    const ticket = (await call('GET', `/tickets/${ticketId}`)).json();
    assert.deepEqual([ticket.status, ticket.paid, ticket.balance], [2, 120, -60]);
    const order = await db
      .selectFrom('orders')
      .select('paid_cents')
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    assert.equal(Number(order.paid_cents), 12000);
    assert.equal(count(await eventTypes(db), 'ticket.paid'), 1);
  });

  it('refuses to cancel a bill or its order while its invoice can be paid, so it is never paid twice', async (t) => {
    const { app, db, simulator, call, admin, ticketId, orderId } = await lightningBill(t, target);
    await listenForWebhooks(app, simulator);
    const payment = (await call('POST', `/tickets/${ticketId}/lightning`, {})).json();
    const before = await databaseDigest(db);
    const refused = await call('POST', `/tickets/${ticketId}/cancel`);
    assert.deepEqual(
      [refused.statusCode, refused.json()],
      [409, { message: 'Ticket has a pending Lightning invoice: wait until it is paid or expires' }],
    );
    const orderCancel = await admin('PUT', `/orders/${orderId}`, { status: 'cancelled' });
    assert.equal(orderCancel.statusCode, 409, orderCancel.body);
    assert.equal((await admin('DELETE', `/orders/${orderId}`)).statusCode, 409);
    assert.equal(await databaseDigest(db), before);

    // The customer pays the invoice the bill still stands for: paid once, nothing to refund.
    await (await simulator.receivePayment(payment.lightning.invoice)).webhooks;
    const ticket = (await call('GET', `/tickets/${ticketId}`)).json();
    assert.deepEqual([ticket.status, ticket.paid, ticket.balance], [2, 60, 0]);
    const order = (await call('GET', `/orders/${orderId}`)).json();
    assert.deepEqual([order.paid, order.balance], [60, 0]);
  });

  it('settles through the catch-up read a payment arriving 20 minutes after expiry, its webhook lost: the cancelled bill is overpaid', async (t) => {
    const { app, db, clock, simulator, call, ticketId, orderId } = await lightningBill(t, target);
    simulator.node.useClock(clock);
    await listenForWebhooks(app, simulator);
    simulator.webhookMode = 'drop';
    const payment = (await call('POST', `/tickets/${ticketId}/lightning`, { expiry_seconds: 60 })).json();
    clock.advance(61_000);
    await app.jobs.run(LIGHTNING_SWEEP);
    assert.equal((await storedPayment(db, payment.id)).status, 'expired');
    const waiter = await freshWaiter(app, db);
    assert.equal((await waiter('POST', `/tickets/${ticketId}/cancel`)).statusCode, 200);
    // The payer's HTLCs waited while the node bought the liquidity they pay for; phoenixd accepts the
    // payment 20 minutes after expiry and posts its one webhook, which is lost.
    clock.advance(20 * 60_000);
    await simulator.receivePayment(payment.lightning.invoice);
    await app.jobs.run(LIGHTNING_SWEEP);
    assert.equal((await storedPayment(db, payment.id)).status, 'expired', 'past the sweep’s window');
    await app.jobs.run(LIGHTNING_CATCH_UP);
    const row = await storedPayment(db, payment.id);
    assert.deepEqual([row.status, Number(row.received_sat)], ['settled', NET_SAT]);
    const ticket = (await (await freshWaiter(app, db))('GET', `/tickets/${ticketId}`)).json();
    assert.deepEqual([ticket.status, ticket.paid, ticket.balance], [3, 60, -60]);
    const manager = callerFor(app, (await loggedInUser(app, db, 'admin')).cookies);
    const balances = (await manager('GET', '/reports/open-balances')).json();
    assert.deepEqual(
      balances.overpaid_bills.map(
        (row: { id: string; order_id: string; status: number; balance: number }) => [
          row.id,
          row.order_id,
          row.status,
          row.balance,
        ],
      ),
      [[ticketId, orderId, 3, -60]],
      'the money is listed for a refund',
    );
  });

  it('rounds the satoshis up to a whole sat', async (t) => {
    const { call, ticketId } = await lightningBill(t, target, {
      env: { POS_RATE_SOURCE: 'fixed:2100000.5' },
    });
    const payment = (await call('POST', `/tickets/${ticketId}/lightning`, {})).json();
    // 60.00 / 2,100,000.50 BTC = 2857.142… sat
    assert.deepEqual([payment.lightning.amount_sat, payment.lightning.rate], [2858, 2100000.5]);
  });

  it('prices a bill in BTC at a rate of 1, without a rate source', async (t) => {
    const { call, ticketId } = await lightningBill(t, target, {
      env: { POS_BASE_CURRENCY: 'BTC', POS_RATE_SOURCE: '' },
    });
    const payment = (await call('POST', `/tickets/${ticketId}/lightning`, { amount: 0.01 })).json();
    assert.deepEqual([payment.lightning.amount_sat, payment.lightning.rate], [1_000_000, 1]);
  });

  it('expires an unpaid invoice, after which a new one can be made', async (t) => {
    const { app, db, clock, call, ticketId } = await lightningBill(t, target);
    const first = (await call('POST', `/tickets/${ticketId}/lightning`, { expiry_seconds: 60 })).json();
    clock.advance(61_000);
    await app.jobs.run(LIGHTNING_SWEEP);
    assert.equal((await storedPayment(db, first.id)).status, 'expired');
    assert.equal(count(await eventTypes(db), 'payment.expired'), 1);
    const second = await (await freshWaiter(app, db))('POST', `/tickets/${ticketId}/lightning`, {});
    assert.equal(second.statusCode, 201);
    assert.notEqual(second.json().id, first.id);
  });

  it('expires a pending invoice past its expiry when the bill asks again', async (t) => {
    const { app, db, clock, call, ticketId } = await lightningBill(t, target);
    const first = (await call('POST', `/tickets/${ticketId}/lightning`, { expiry_seconds: 60 })).json();
    clock.advance(61_000);
    const second = await (await freshWaiter(app, db))('POST', `/tickets/${ticketId}/lightning`, {});
    assert.equal(second.statusCode, 201);
    assert.equal((await storedPayment(db, first.id)).status, 'expired');
  });

  it('counts an invoice paid after the sweep expired it, when its webhook arrives', async (t) => {
    const { app, db, clock, simulator, call, ticketId } = await lightningBill(t, target);
    simulator.node.useClock(clock);
    await listenForWebhooks(app, simulator);
    const first = (await call('POST', `/tickets/${ticketId}/lightning`, { expiry_seconds: 60 })).json();
    clock.advance(60_000);
    await app.jobs.run(LIGHTNING_SWEEP);
    assert.equal((await storedPayment(db, first.id)).status, 'expired');
    // The node takes a payment past expiry while it buys liquidity for it; the POS already gave up on it.
    clock.advance(30_000);
    const [delivery] = await (await simulator.receivePayment(first.lightning.invoice)).webhooks;
    assert.equal(delivery?.status, 200);
    assert.equal((await storedPayment(db, first.id)).status, 'settled');
    const ticket = await storedTicket(db, ticketId);
    assert.deepEqual([ticket.status, Number(ticket.paid_cents)], [2, 6000]);
    assert.deepEqual(
      (await eventTypes(db)).slice(-4),
      ['payment.expired', 'payment.settled', 'ticket.paid', 'order.updated'],
      'the paid order closes itself',
    );
  });

  it('finds an invoice paid in its last moment through the sweep when its webhook is dropped', async (t) => {
    const { app, db, clock, simulator, call, ticketId } = await lightningBill(t, target);
    simulator.node.useClock(clock);
    await listenForWebhooks(app, simulator);
    simulator.webhookMode = 'drop';
    const first = (await call('POST', `/tickets/${ticketId}/lightning`, { expiry_seconds: 60 })).json();
    clock.advance(60_000);
    await app.jobs.run(LIGHTNING_SWEEP);
    await simulator.receivePayment(first.lightning.invoice);
    clock.advance(5 * 60_000);
    await app.jobs.run(LIGHTNING_SWEEP);
    assert.equal((await storedPayment(db, first.id)).status, 'settled');
    assert.equal((await storedTicket(db, ticketId)).status, 2);
  });

  it('is refused by the node once its invoice expired: nothing is paid, the bill stays open', async (t) => {
    const { app, db, clock, simulator, call, ticketId } = await lightningBill(t, target);
    simulator.node.useClock(clock);
    const first = (await call('POST', `/tickets/${ticketId}/lightning`, { expiry_seconds: 60 })).json();
    clock.advance(61_000);
    // Without a liquidity purchase to wait for, an expired invoice is refused.
    await assert.rejects(
      simulator.receivePayment(first.lightning.invoice, { liquidityFeeSat: 0 }),
      PaymentRefusedError,
    );
    await app.jobs.run(LIGHTNING_SWEEP);
    assert.equal((await storedPayment(db, first.id)).status, 'expired');
    assert.equal((await storedTicket(db, ticketId)).status, 1);
  });

  it('answers 503 and stores nothing without an exchange rate', async (t) => {
    const { db, simulator, call, ticketId } = await lightningBill(t, target, {
      env: { POS_RATE_SOURCE: '' },
    });
    const before = await databaseDigest(db);
    const refused = await call('POST', `/tickets/${ticketId}/lightning`, {});
    assert.equal(refused.statusCode, 503);
    assert.deepEqual(refused.json(), { message: 'Exchange rate unavailable' });
    assert.equal(await databaseDigest(db), before);
    assert.equal(count(simulator.received, 'POST /createinvoice'), 0);
  });

  it('uses the last rate for 10 minutes after its source fails, then answers 503', async (t) => {
    let isUp = true;
    const rateSource: RateSource = {
      name: 'test',
      fetchBtcPrice: async () => {
        if (!isUp) throw new Error('source down');
        return PRICE;
      },
    };
    const { app, db, clock, simulator } = await buildWalletTestApp(t, target, { rateSource });
    const { call, orderId, dishIds } = await billableOrder(app, db);
    const bills: string[] = [];
    for (const dishId of dishIds) bills.push(await createBill(call, orderId, { order_dish_ids: [dishId] }));
    const first = await call('POST', `/tickets/${bills[0]}/lightning`, {});
    assert.equal(first.statusCode, 201);
    isUp = false;
    clock.advance(5 * 60_000);
    const cached = await (await freshWaiter(app, db))('POST', `/tickets/${bills[1]}/lightning`, {});
    assert.deepEqual([cached.statusCode, cached.json().lightning.rate], [201, PRICE]);
    clock.advance(5 * 60_000 + 1);
    const waiter = await freshWaiter(app, db);
    const before = await databaseDigest(db);
    const refused = await waiter('POST', `/tickets/${bills[2]}/lightning`, {});
    assert.deepEqual([refused.statusCode, refused.json()], [503, { message: 'Exchange rate unavailable' }]);
    assert.equal(await databaseDigest(db), before);
    assert.equal(count(simulator.received, 'POST /createinvoice'), 2);
  });

  it('answers the same pending payment when asked again, and concurrent requests make one invoice', async (t) => {
    const { db, simulator, call, ticketId } = await lightningBill(t, target);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call('POST', `/tickets/${ticketId}/lightning`, {})),
    );
    assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [200, 200, 200, 200, 201]);
    assert.equal(new Set(answers.map((answer) => answer.json().id)).size, 1);
    const again = await call('POST', `/tickets/${ticketId}/lightning`, {});
    assert.deepEqual([again.statusCode, again.json().id], [200, answers[0]?.json().id]);
    assert.equal(count(simulator.received, 'POST /createinvoice'), 1);
    const rows = await db.selectFrom('payments').select('id').where('ticket_id', '=', ticketId).execute();
    assert.equal(rows.length, 1);
  });

  it('counts an invoice the node says is paid even when its liquidity fee left less than nothing', async (t) => {
    const { app, db, simulator, call, ticketId } = await lightningBill(t, target);
    await listenForWebhooks(app, simulator);
    const payment = (await call('POST', `/tickets/${ticketId}/lightning`, {})).json();
    // A payment that paid for a large liquidity purchase: phoenixd reports what arrived as -500 sat.
    const options = { liquidityFeeSat: 3500 };
    const [webhook] = await (await simulator.receivePayment(payment.lightning.invoice, options)).webhooks;
    assert.equal(webhook?.status, 200, webhook?.body);
    const row = await storedPayment(db, payment.id);
    assert.deepEqual(
      [row.status, Number(row.received_sat), Number(row.fees_msat)],
      ['settled', -500, 3_500_000],
    );
    const ticket = (await call('GET', `/tickets/${ticketId}`)).json();
    assert.deepEqual([ticket.status, ticket.paid, ticket.balance], [2, 60, 0]);
    const incoming = await db.selectFrom('incoming_payments').selectAll().executeTakeFirstOrThrow();
    assert.equal(Number(incoming.received_sat), -500);
  });

  it('says in its OpenAPI document what it does: a paid invoice counts in full, whatever reached the node', async (t) => {
    const { app, db, simulator, call, ticketId } = await lightningBill(t, target);
    await listenForWebhooks(app, simulator);
    const payment = (await call('POST', `/tickets/${ticketId}/lightning`, {})).json();
    await (await simulator.receivePayment(payment.lightning.invoice)).webhooks;
    assert.equal(Number((await storedPayment(db, payment.id)).received_sat), NET_SAT);
    assert.equal((await storedTicket(db, ticketId)).status, 2, 'received_sat < amount_sat and it counts');

    const document = (await app.inject({ method: 'GET', url: '/swagger/json' })).json();
    const described = (path: string, method: string): string => document.paths[path][method].description;
    for (const [path, method] of [
      ['/tickets/{id}/payments', 'post'],
      ['/payments/{id}', 'get'],
      ['/payments/{id}/refund', 'post'],
    ] as const) {
      const text = described(path, method);
      assert.doesNotMatch(text, /only when `lightning\.received_sat ≥|underpaid|does not count/, path);
    }
    assert.match(described('/tickets/{id}/payments', 'post'), /counts for its `amount \+ tip` in full/);
    assert.match(described('/payments/{id}', 'get'), /counts for `amount \+ tip` in full/);
  });

  it('settles through the catch-up read of paid payments, without webhook, sweep or lookup', async (t) => {
    const { app, db, clock, simulator, call, ticketId } = await lightningBill(t, target);
    simulator.node.useClock(clock);
    simulator.webhookMode = 'drop';
    const payment = (await call('POST', `/tickets/${ticketId}/lightning`, {})).json();
    await simulator.receivePayment(payment.lightning.invoice);
    const before = simulator.received.length;
    await app.jobs.run(LIGHTNING_CATCH_UP);
    assert.deepEqual(
      simulator.received.slice(before).map((line) => line.split('?')[0]),
      ['GET /payments/incoming', 'GET /payments/incoming'],
      'one page, then the empty page that ends the list',
    );
    const row = await storedPayment(db, payment.id);
    assert.deepEqual([row.status, Number(row.received_sat)], ['settled', NET_SAT]);
    assert.equal((await storedTicket(db, ticketId)).status, 2);
    assert.equal(count(await eventTypes(db), 'payment.settled'), 1);
    const cursor = await db.selectFrom('lightning_catch_up').selectAll().executeTakeFirstOrThrow();
    assert.deepEqual(
      [Number(cursor.seen_until), cursor.claimed_until],
      [simulator.node.incoming.get(payment.lightning.payment_hash)?.completedAt, null],
    );
  });

  it('moves the catch-up cursor at most to now, whatever completion time the node answers', async (t) => {
    const { app, db, clock, simulator, call, ticketId } = await lightningBill(t, target);
    simulator.webhookMode = 'drop';
    const first = (await call('POST', `/tickets/${ticketId}/lightning`, { amount: 20 })).json();
    simulator.node.useClock({ now: () => Date.UTC(9999, 11, 31) });
    await simulator.receivePayment(first.lightning.invoice);
    await app.jobs.run(LIGHTNING_CATCH_UP);
    assert.equal((await storedPayment(db, first.id)).status, 'settled');
    assert.equal(Number((await cursorOf(db)).seen_until), clock.now());

    clock.advance(1000);
    simulator.node.useClock(clock);
    const asked = await call('POST', `/tickets/${ticketId}/lightning`, {});
    assert.equal(asked.statusCode, 201, asked.body);
    const second = asked.json();
    await simulator.receivePayment(second.lightning.invoice);
    await app.jobs.run(LIGHTNING_CATCH_UP);
    assert.equal((await storedPayment(db, second.id)).status, 'settled', 'later catch-ups still read');
    assert.equal((await storedTicket(db, ticketId)).status, 2);
    assert.equal(Number((await cursorOf(db)).seen_until), clock.now());
  });

  it('leaves the catch-up cursor where it was when a later page fails', async (t) => {
    const { app, db, clock, simulator, call, ticketId } = await lightningBill(t, target);
    simulator.node.useClock(clock);
    simulator.webhookMode = 'drop';
    const before = Number((await cursorOf(db)).seen_until);
    const payment = (await call('POST', `/tickets/${ticketId}/lightning`, {})).json();
    await simulator.receivePayment(payment.lightning.invoice);
    const completedAt = simulator.node.incoming.get(payment.lightning.payment_hash)?.completedAt;
    clock.advance(1000);
    simulator.failAfter('/payments/incoming', 1);
    await assert.rejects(app.jobs.run(LIGHTNING_CATCH_UP));
    assert.equal((await storedPayment(db, payment.id)).status, 'settled', 'the first page was read');
    assert.deepEqual(
      [Number((await cursorOf(db)).seen_until), (await cursorOf(db)).claimed_until],
      [before, null],
      'the second page failed: the cursor stays and the claim is released',
    );
    assert.ok(completedAt !== null && completedAt !== undefined && completedAt > before);
  });

  it('does not read the node when no Lightning payment of ours can still be paid', async (t) => {
    const { app, simulator } = await lightningBill(t, target);
    await app.jobs.run(LIGHTNING_CATCH_UP);
    assert.equal(simulator.received.length, 0);
  });

  it('catches up once when two instances run it at the same moment', async (t) => {
    const { app, db, database, config, clock, simulator, call, ticketId } = await lightningBill(t, target);
    const other = await buildApp(config, { database, clock, startJobs: false });
    t.after(() => other.close());
    simulator.webhookMode = 'drop';
    const payment = (await call('POST', `/tickets/${ticketId}/lightning`, {})).json();
    await simulator.receivePayment(payment.lightning.invoice);
    await Promise.all([app.jobs.run(LIGHTNING_CATCH_UP), other.jobs.run(LIGHTNING_CATCH_UP)]);
    assert.equal(
      count(
        simulator.received.map((line) => line.split('?')[0] as string),
        'GET /payments/incoming',
      ),
      2,
    );
    assert.equal((await storedPayment(db, payment.id)).status, 'settled');
    assert.equal(count(await eventTypes(db), 'payment.settled'), 1);
  });

  it('never expires a paid invoice on a 404 that is not phoenixd’s "Not found"', async (t) => {
    const { app, db, database, config, clock, simulator, call, ticketId } = await lightningBill(t, target);
    simulator.webhookMode = 'drop';
    const payment = (await call('POST', `/tickets/${ticketId}/lightning`, { expiry_seconds: 60 })).json();
    await simulator.receivePayment(payment.lightning.invoice);
    clock.advance(61_000);
    // Another instance with a wrong path prefix: phoenixd answers its lookups 404 "Unknown endpoint".
    const wrongPath = { ...config, phoenixd: { ...config.phoenixd, url: `${simulator.url}/phoenixd` } };
    const misdirected = await buildApp(wrongPath, { database, clock, startJobs: false });
    t.after(() => misdirected.close());
    await assert.rejects(misdirected.jobs.run(LIGHTNING_SWEEP), AggregateError);
    assert.ok(
      simulator.received.includes(`GET /phoenixd/payments/incoming/${payment.lightning.payment_hash}`),
    );
    assert.equal((await storedPayment(db, payment.id)).status, 'pending');
    assert.equal(count(await eventTypes(db), 'payment.expired'), 0);
    await app.jobs.run(LIGHTNING_SWEEP);
    assert.equal((await storedPayment(db, payment.id)).status, 'settled');
  });

  it('counts a payment of more satoshis than asked for what was asked', async (t) => {
    const { app, db, simulator, call, ticketId } = await lightningBill(t, target);
    await listenForWebhooks(app, simulator);
    const payment = (await call('POST', `/tickets/${ticketId}/lightning`, {})).json();
    await assert.rejects(
      simulator.receivePayment(payment.lightning.invoice, { amountSat: 6001 }),
      /over twice/,
    );
    assert.equal((await storedPayment(db, payment.id)).status, 'pending');
    await (await simulator.receivePayment(payment.lightning.invoice, { amountSat: 3100 })).webhooks;
    assert.equal(Number((await storedPayment(db, payment.id)).received_sat), 3100 - FEE_SAT);
    const ticket = await storedTicket(db, ticketId);
    assert.deepEqual([ticket.status, Number(ticket.paid_cents)], [2, 6000]);
  });
});
