import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { buildWalletTestApp, listenForWebhooks, WEBHOOK_SECRET } from './helpers/wallet-factories';

const sign = (body: string, secret = WEBHOOK_SECRET) =>
  createHmac('sha256', secret).update(body).digest('hex');

function paymentReceived(overrides: Record<string, unknown> = {}): string {
  const event = {
    type: 'payment_received',
    timestamp: Date.UTC(2026, 10, 22, 18, 30),
    amountSat: 1234,
    paymentHash: randomBytes(32).toString('hex'),
    externalId: 'order-42',
    payerNote: null,
    payerKey: null,
    ...overrides,
  };
  // Pretty-printed like phoenixd's, so a verifier that re-serialised the JSON would fail.
  return JSON.stringify(event, null, 4);
}

describeEachDatabase('phoenixd webhook', (target) => {
  const deliver = (app: Awaited<ReturnType<typeof buildTestApp>>['app'], body: string, signature?: string) =>
    app.inject({
      method: 'POST',
      url: '/webhook/phoenixd',
      headers: {
        'content-type': 'application/json',
        ...(signature !== undefined && { 'x-phoenix-signature': signature }),
      },
      payload: body,
    });

  it("records a payment the node reports over real HTTP, with the node's details", async (t) => {
    const { app, db, simulator } = await buildWalletTestApp(t, target);
    await listenForWebhooks(app, simulator);
    const invoice = simulator.node.createInvoice({
      amountSat: 4200,
      description: 'Table 9',
      expirySeconds: null,
      externalId: 'order-9',
    });

    const [webhook] = await (await simulator.receivePayment(invoice.serialized)).webhooks;
    assert.equal(webhook?.status, 200);
    assert.deepEqual(JSON.parse(webhook?.body ?? ''), { message: 'Payment recorded' });
    const row = await db.selectFrom('incoming_payments').selectAll().executeTakeFirstOrThrow();
    assert.equal(row.payment_hash, invoice.paymentHash);
    assert.equal(row.amount_sat, 4200);
    assert.equal(row.received_sat, 4200);
    assert.equal(row.description, 'Table 9');
    assert.equal(row.external_id, 'order-9');
    assert.equal(row.status, 'RECEIVED');
  });

  it('records the same payment once when it is delivered twice', async (t) => {
    const { app, db, simulator } = await buildWalletTestApp(t, target);
    await listenForWebhooks(app, simulator);
    const invoice = simulator.node.createInvoice({
      amountSat: 800,
      description: 'x',
      expirySeconds: null,
      externalId: null,
    });
    await (await simulator.receivePayment(invoice.serialized)).webhooks;
    const [again] = await simulator.redeliverLastWebhook();
    assert.equal(again?.status, 200);
    assert.deepEqual(JSON.parse(again?.body ?? ''), { message: 'Payment already recorded' });
    const rows = await db.selectFrom('incoming_payments').selectAll().execute();
    assert.equal(rows.length, 1);
  });

  it('records nothing when the reachable node does not know the payment', async (t) => {
    const { app, db, simulator } = await buildWalletTestApp(t, target);
    const unknown = paymentReceived();
    const response = await deliver(app, unknown, sign(unknown));
    assert.equal(response.statusCode, 404);
    assert.equal(response.body, 'Resource not found');
    const unpaid = simulator.node.createInvoice({
      amountSat: 900,
      description: 'not paid yet',
      expirySeconds: null,
      externalId: null,
    });
    const early = paymentReceived({ paymentHash: unpaid.paymentHash });
    assert.equal((await deliver(app, early, sign(early))).statusCode, 404);
    assert.equal((await db.selectFrom('incoming_payments').selectAll().execute()).length, 0);
  });

  it('records nothing and answers 503 while the node cannot be asked', async (t) => {
    const { app, db, simulator } = await buildWalletTestApp(t, target);
    simulator.setMode({ kind: 'down' });
    const body = paymentReceived();
    const response = await deliver(app, body, sign(body));
    assert.equal(response.statusCode, 503);
    assert.deepEqual(response.json(), { message: 'Lightning node is unavailable' });
    assert.equal((await db.selectFrom('incoming_payments').selectAll().execute()).length, 0);
  });

  it('records from the signed payload when no node is configured', async (t) => {
    const { app, db } = await buildTestApp(t, target, { env: { PHOENIXD_WEBHOOK_SECRET: WEBHOOK_SECRET } });
    const body = paymentReceived({ payerNote: 'Great tacos' });
    const response = await deliver(app, body, sign(body));
    assert.equal(response.statusCode, 200, response.body);
    const row = await db.selectFrom('incoming_payments').selectAll().executeTakeFirstOrThrow();
    assert.equal(row.payment_hash, JSON.parse(body).paymentHash);
    assert.equal(row.amount_sat, 1234);
    assert.equal(row.description, 'Great tacos');
    assert.equal(row.completed_at, Date.UTC(2026, 10, 22, 18, 30));
  });

  it('records a negative amount: what arrived after a liquidity fee larger than the payment', async (t) => {
    const { app, db } = await buildTestApp(t, target, { env: { PHOENIXD_WEBHOOK_SECRET: WEBHOOK_SECRET } });
    const body = paymentReceived({ amountSat: -2266 });
    const response = await deliver(app, body, sign(body));
    assert.equal(response.statusCode, 200, response.body);
    const row = await db.selectFrom('incoming_payments').selectAll().executeTakeFirstOrThrow();
    assert.deepEqual([Number(row.amount_sat), Number(row.received_sat)], [-2266, -2266]);
  });

  it('refuses impossible amounts and timestamps with 400 and records nothing', async (t) => {
    const { app, db } = await buildTestApp(t, target, { env: { PHOENIXD_WEBHOOK_SECRET: WEBHOOK_SECRET } });
    const impossible: [string, Record<string, unknown>][] = [
      ['timestamp', { timestamp: -1 }],
      ['timestamp', { timestamp: 1.5 }],
      ['timestamp', { timestamp: '1795000000000' }],
      ['timestamp', { timestamp: 1e300 }],
      ['amountSat', { amountSat: 0.5 }],
      ['amountSat', { amountSat: 2_100_000_000_000_001 }],
      ['amountSat', { amountSat: -2_100_000_000_000_001 }],
    ];
    for (const [field, overrides] of impossible) {
      const body = paymentReceived(overrides);
      const response = await deliver(app, body, sign(body));
      assert.equal(response.statusCode, 400, JSON.stringify(overrides));
      assert.deepEqual(response.json(), { message: `Invalid webhook payload: ${field}` });
    }
    assert.equal((await db.selectFrom('incoming_payments').selectAll().execute()).length, 0);
  });

  it('refuses a bad or missing signature and stores nothing', async (t) => {
    const { app, db } = await buildWalletTestApp(t, target);
    const body = paymentReceived();
    const forged = await deliver(app, body, sign(body, 'another secret'));
    assert.equal(forged.statusCode, 401);
    assert.deepEqual(forged.json(), { message: 'Invalid webhook signature' });
    const tampered = await deliver(app, body.replace('1234', '99999'), sign(body));
    assert.equal(tampered.statusCode, 401);
    const missing = await deliver(app, body);
    assert.equal(missing.statusCode, 401);
    const notHex = await deliver(app, body, 'zz');
    assert.equal(notHex.statusCode, 401);
    assert.equal((await db.selectFrom('incoming_payments').selectAll().execute()).length, 0);
  });

  it('acknowledges other events without storing them, and refuses a malformed payment', async (t) => {
    const { app, db } = await buildWalletTestApp(t, target);
    const sent = JSON.stringify({ type: 'payment_sent', paymentHash: 'ab' });
    const ignored = await deliver(app, sent, sign(sent));
    assert.equal(ignored.statusCode, 200);
    assert.deepEqual(ignored.json(), { message: 'Event ignored' });
    const malformed = paymentReceived({ amountSat: '1234' });
    assert.equal((await deliver(app, malformed, sign(malformed))).statusCode, 400);
    const notJson = 'payment!';
    assert.equal((await deliver(app, notJson, sign(notJson))).statusCode, 400);
    assert.equal((await db.selectFrom('incoming_payments').selectAll().execute()).length, 0);
  });

  it('answers 503 while no webhook secret is configured', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const body = paymentReceived();
    const response = await deliver(app, body, sign(body));
    assert.equal(response.statusCode, 503);
    assert.deepEqual(response.json(), { message: 'Webhook secret is not configured' });
    assert.equal((await db.selectFrom('incoming_payments').selectAll().execute()).length, 0);
  });

  it('still parses JSON bodies normally on every other route', async (t) => {
    const { app } = await buildTestApp(t, target);
    const response = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { name: 'nobody', pin: '1234' },
    });
    assert.equal(response.statusCode, 401);
  });
});
