import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import bolt11 from 'bolt11';
import { manualClock } from '../../src/core/clock';
import { REGTEST } from './invoices';
import { FAILURE_REASONS, PaymentRefusedError, type SimOutgoing } from './sim-node';
import { PhoenixdSimulator } from './simulator';

type TestContext = { after: (fn: () => Promise<void> | void) => void };

/** The parsed JSON of an answer; the tests assert on its fields. */
// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary fields.
const json = async (response: Response | Promise<Response>): Promise<any> => (await response).json();

async function startSimulator(t: TestContext, options: Parameters<typeof PhoenixdSimulator.start>[0] = {}) {
  const simulator = await PhoenixdSimulator.start(options);
  t.after(() => simulator.stop());
  const auth = `Basic ${Buffer.from(`:${simulator.password}`).toString('base64')}`;
  const get = (path: string) => fetch(`${simulator.url}${path}`, { headers: { authorization: auth } });
  const postForm = (path: string, form: Record<string, string | number>) =>
    fetch(`${simulator.url}${path}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(
        Object.entries(form).map(([k, v]): [string, string] => [k, String(v)]),
      ).toString(),
    });
  return { simulator, get, postForm, auth };
}

/** A local webhook receiver; `bodies` holds each delivery's parsed JSON in arrival order. */
async function startWebhookReceiver(t: TestContext) {
  // biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary fields.
  const bodies: any[] = [];
  const hook = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      bodies.push(JSON.parse(body));
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => hook.close(() => resolve())));
  return { url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`, bodies };
}

const REGTEST_ADDRESS = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080';

describe('phoenixd simulator', () => {
  it('requires Basic auth with the http password and any user name', async (t) => {
    const { simulator } = await startSimulator(t);
    const anonymous = await fetch(`${simulator.url}/getbalance`);
    assert.equal(anonymous.status, 401);
    assert.match(await anonymous.text(), /^Invalid authentication \(use basic auth/);
    assert.match(anonymous.headers.get('www-authenticate') ?? '', /^Basic/);

    const wrong = await fetch(`${simulator.url}/getbalance`, {
      headers: { authorization: `Basic ${Buffer.from(':nope').toString('base64')}` },
    });
    assert.equal(wrong.status, 401);

    const named = await fetch(`${simulator.url}/getbalance`, {
      headers: { authorization: `Basic ${Buffer.from(`anyone:${simulator.password}`).toString('base64')}` },
    });
    assert.equal(named.status, 200);
  });

  it('lets the limited-access password do everything but pay out, which answers 401', async (t) => {
    const { simulator } = await startSimulator(t);
    const limited = {
      authorization: `Basic ${Buffer.from(`:${simulator.limitedPassword}`).toString('base64')}`,
    };
    assert.equal((await fetch(`${simulator.url}/getinfo`, { headers: limited })).status, 200);
    const invoice = await fetch(`${simulator.url}/createinvoice`, {
      method: 'POST',
      headers: { ...limited, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'description=x&amountSat=10',
    });
    assert.equal(invoice.status, 200);
    for (const path of ['/payinvoice', '/payoffer', '/sendtoaddress', '/bumpfee']) {
      const paid = await fetch(`${simulator.url}${path}`, { method: 'POST', headers: limited });
      assert.equal(paid.status, 401, path);
      assert.match(await paid.text(), /^Invalid authentication/);
    }
    assert.deepEqual(simulator.node.outgoing, []);
  });

  it('answers getinfo and getbalance in phoenixd shapes', async (t) => {
    const { simulator, get } = await startSimulator(t, { balanceSat: 250_000 });
    const info = await json(get('/getinfo'));
    assert.match(info.nodeId, /^0[23][0-9a-f]{64}$/);
    assert.equal(info.chain, 'regtest');
    assert.equal(info.version, '0.8.0');
    assert.equal(info.channels[0].state, 'Normal');
    assert.equal(info.channels[0].balanceSat, 250_000);
    assert.deepEqual(await json(get('/getbalance')), { balanceSat: 250_000, feeCreditSat: 0 });
    simulator.node.setOffline(true);
    assert.equal((await json(get('/getinfo'))).channels[0].state, 'Offline(Normal)');
  });

  it('creates real signed BOLT11 invoices from form bodies', async (t) => {
    const { simulator, postForm } = await startSimulator(t);
    const response = await postForm('/createinvoice', {
      description: 'Table 4',
      amountSat: 1500,
      externalId: 'order-1',
      expirySeconds: 600,
    });
    assert.equal(response.status, 200);
    const invoice = await json(response);
    assert.equal(invoice.amountSat, 1500);
    const decoded = bolt11.decode(invoice.serialized, REGTEST);
    assert.equal(decoded.satoshis, 1500);
    assert.equal(decoded.tagsObject.payment_hash, invoice.paymentHash);
    assert.equal(decoded.tagsObject.description, 'Table 4');
    assert.equal(decoded.timeExpireDate, (decoded.timestamp ?? 0) + 600);
    assert.equal(decoded.payeeNodeKey, simulator.node.nodeId);
  });

  it('refuses JSON bodies, as phoenixd only reads forms', async (t) => {
    const { simulator, auth } = await startSimulator(t);
    const response = await fetch(`${simulator.url}/createinvoice`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'Table 4', amountSat: 1500 }),
    });
    assert.equal(response.status, 415);
    assert.equal(simulator.node.incoming.size, 0);
  });

  it("explains missing and malformed parameters with phoenixd's texts", async (t) => {
    const { postForm, get } = await startSimulator(t);
    const missing = await postForm('/sendtoaddress', { address: REGTEST_ADDRESS, feerateSatByte: 2 });
    assert.equal(missing.status, 400);
    assert.equal(await missing.text(), 'Request parameter amountSat is missing');
    const notNumber = await postForm('/bumpfee', { feerateSatByte: 'fast' });
    assert.equal(
      await notNumber.text(),
      "Request parameter feerateSatByte couldn't be parsed/converted to integer",
    );
    const noDescription = await postForm('/createinvoice', { amountSat: 10 });
    assert.equal(await noDescription.text(), 'Must provide either a description or descriptionHash');
    const badInvoice = await postForm('/payinvoice', { invoice: 'lnbc1garbage' });
    assert.equal(
      await badInvoice.text(),
      "Request parameter invoice couldn't be parsed/converted to bolt11invoice",
    );
    const badHash = await get('/payments/incoming/xyz');
    assert.equal(badHash.status, 400);
    const unknownHash = await get(`/payments/incoming/${'a'.repeat(64)}`);
    assert.equal(unknownHash.status, 404);
    assert.equal(await unknownHash.text(), 'Not found');
    const unknownRoute = await get('/nope');
    assert.equal(await unknownRoute.text(), 'Unknown endpoint (check api doc)');
  });

  it('pays invoices, answering PaymentFailed with HTTP 200 when it cannot', async (t) => {
    const { simulator, postForm, get } = await startSimulator(t, { balanceSat: 10_000 });
    const { serialized } = simulator.node.createInvoice({
      amountSat: 2000,
      description: 'x',
      expirySeconds: null,
      externalId: null,
    });

    const sent = await json(postForm('/payinvoice', { invoice: serialized }));
    assert.equal(sent.recipientAmountSat, 2000);
    assert.equal(typeof sent.paymentId, 'string');
    assert.equal(simulator.node.balanceSat, 10_000 - 2000 - sent.routingFeeSat);

    const again = await postForm('/payinvoice', { invoice: serialized });
    assert.equal(again.status, 200);
    assert.equal((await json(again)).reason, FAILURE_REASONS.alreadyPaid);

    const other = simulator.node.createInvoice({
      amountSat: 50_000,
      description: 'y',
      expirySeconds: null,
      externalId: null,
    });
    const poor = await json(postForm('/payinvoice', { invoice: other.serialized }));
    assert.equal(poor.reason, FAILURE_REASONS.insufficientFunds);

    const record = await json(get(`/payments/outgoing/${sent.paymentId}`));
    assert.equal(record.type, 'outgoing_payment');
    assert.equal(record.isPaid, true);
    assert.equal(Math.floor(record.fees / 1000), sent.routingFeeSat);
  });

  it('answers sendtoaddress and bumpfee with a txid as plain text', async (t) => {
    const { simulator, postForm, get } = await startSimulator(t);
    const sent = await postForm('/sendtoaddress', {
      amountSat: 20_000,
      address: REGTEST_ADDRESS,
      feerateSatByte: 3,
    });
    assert.match(sent.headers.get('content-type') ?? '', /^text\/plain/);
    const txId = await sent.text();
    assert.match(txId, /^[0-9a-f]{64}$/);

    const bumped = await (await postForm('/bumpfee', { feerateSatByte: 9 })).text();
    assert.match(bumped, /^[0-9a-f]{64}$/);
    const records = await json(get('/payments/outgoing?all=true'));
    assert.deepEqual(records.map((record: { subType: string }) => record.subType).sort(), [
      'splice_cpfp',
      'splice_out',
    ]);
    assert.ok(records.every((record: { fees: number }) => record.fees > 0));

    simulator.node.confirmOnChain();
    assert.equal(
      await (await postForm('/bumpfee', { feerateSatByte: 20 })).text(),
      'either the tx is already confirmed or has a higher feerate',
    );
    assert.equal(
      (await postForm('/sendtoaddress', { amountSat: 1, address: 'nope', feerateSatByte: 1 })).status,
      400,
    );
  });

  it('answers "no channel available" without a channel', async (t) => {
    const { postForm } = await startSimulator(t, { balanceSat: 0 });
    const response = await postForm('/sendtoaddress', {
      amountSat: 1000,
      address: REGTEST_ADDRESS,
      feerateSatByte: 2,
    });
    assert.equal(response.status, 200);
    assert.equal(await response.text(), 'no channel available');
  });

  it('fires the signed payment_received webhook when an invoice is paid', async (t) => {
    const received: { body: string; signature: string | undefined }[] = [];
    const hook = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        received.push({ body, signature: request.headers['x-phoenix-signature'] as string | undefined });
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise<void>((resolve) => hook.close(() => resolve())));
    const { simulator, get } = await startSimulator(t, {
      webhookUrl: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`,
      webhookSecret: 'shh',
    });
    const invoice = simulator.node.createInvoice({
      amountSat: 700,
      description: 'Tip',
      expirySeconds: null,
      externalId: 'o-9',
    });

    const { webhooks } = await simulator.receivePayment(invoice.serialized);
    assert.deepEqual(
      (await webhooks).map((webhook) => webhook.status),
      [200],
    );
    const [delivery] = received;
    assert.ok(delivery);
    assert.equal(delivery.signature, createHmac('sha256', 'shh').update(delivery.body).digest('hex'));
    const event = JSON.parse(delivery.body);
    assert.equal(event.type, 'payment_received');
    assert.equal(event.amountSat, 700);
    assert.equal(event.paymentHash, invoice.paymentHash);
    assert.equal(event.externalId, 'o-9');
    const record = await json(get(`/payments/incoming/${invoice.paymentHash}`));
    assert.equal(record.isPaid, true);
    assert.equal(record.receivedSat, 700);
  });

  it('refuses payments lightning-kmp refuses: expired, under the amount, over twice it', async (t) => {
    const { simulator } = await startSimulator(t);
    const clock = manualClock();
    simulator.node.useClock(clock);
    const invoice = (amountSat: number | null) =>
      simulator.node.createInvoice({ amountSat, description: 'Bill', expirySeconds: 60, externalId: null })
        .serialized;
    const refused = (message: RegExp) => (error: Error) =>
      error instanceof PaymentRefusedError && message.test(error.message);

    const asked = invoice(1000);
    await assert.rejects(simulator.receivePayment(asked, { amountSat: 999 }), refused(/underpayment/));
    await assert.rejects(simulator.receivePayment(asked, { amountSat: 2001 }), refused(/overpayment/));
    assert.equal((await simulator.receivePayment(asked, { amountSat: 2000 })).payment.receivedSat, 2000);
    assert.equal((await simulator.receivePayment(invoice(null), { amountSat: 5 })).payment.receivedSat, 5);

    const paidInTime = invoice(1000);
    const late = invoice(1000);
    clock.advance(60_000);
    assert.equal((await simulator.receivePayment(paidInTime)).payment.completedAt, clock.now());
    clock.advance(1);
    await assert.rejects(simulator.receivePayment(late), refused(/expired/));
    const record = simulator.node.incoming.get(bolt11.decode(late, REGTEST).tagsObject.payment_hash ?? '');
    assert.equal(record?.completedAt, null);
  });

  it('takes a liquidity fee from what arrives, in msat in its records, and may then accept past expiry', async (t) => {
    const { simulator, get } = await startSimulator(t, { liquidityFeeSat: 300, balanceSat: 10_000 });
    const clock = manualClock();
    simulator.node.useClock(clock);
    const invoice = (amountSat: number) =>
      simulator.node.createInvoice({ amountSat, description: 'Bill', expirySeconds: 60, externalId: null });
    const paid = invoice(1000);
    await simulator.receivePayment(paid.serialized);
    const record = await json(get(`/payments/incoming/${paid.paymentHash}`));
    assert.deepEqual([record.isPaid, record.receivedSat, record.fees], [true, 700, 300_000]);
    assert.equal(simulator.node.balanceSat, 10_700);

    const small = invoice(100);
    clock.advance(20 * 60_000);
    // The HTLCs wait for the liquidity they pay for: accepted 20 minutes after expiry, below zero.
    await simulator.receivePayment(small.serialized);
    const late = await json(get(`/payments/incoming/${small.paymentHash}`));
    assert.deepEqual([late.isPaid, late.isExpired, late.receivedSat, late.fees], [true, true, -200, 300_000]);
    const expired = invoice(100);
    clock.advance(61_000);
    await assert.rejects(simulator.receivePayment(expired.serialized, { liquidityFeeSat: 0 }), /expired/);

    const toCredit = invoice(50);
    await simulator.receivePayment(toCredit.serialized, { toFeeCredit: true });
    assert.deepEqual(await json(get('/getbalance')), { balanceSat: 10_500, feeCreditSat: 50 });
  });

  it('lists as phoenixd: paid incoming by completion, newest first; outgoing unordered, pending only with all', async (t) => {
    const { simulator, get } = await startSimulator(t);
    const clock = manualClock(Date.UTC(2026, 0, 1));
    simulator.node.useClock(clock);
    const first = simulator.node.createInvoice({
      amountSat: 10,
      description: 'a',
      expirySeconds: null,
      externalId: null,
    });
    clock.advance(1000);
    const second = simulator.node.createInvoice({
      amountSat: 10,
      description: 'b',
      expirySeconds: null,
      externalId: null,
    });
    clock.advance(1000);
    simulator.node.createInvoice({
      amountSat: 10,
      description: 'unpaid',
      expirySeconds: null,
      externalId: null,
    });
    clock.advance(1000);
    await simulator.receivePayment(second.serialized);
    clock.advance(1000);
    await simulator.receivePayment(first.serialized);
    const paidAt = clock.now();
    const hashes = (list: { paymentHash: string }[]) => list.map((payment) => payment.paymentHash);
    assert.deepEqual(hashes(await json(get('/payments/incoming'))), [first.paymentHash, second.paymentHash]);
    // `from` is on the completion time: the first invoice was made before, paid after it.
    assert.deepEqual(hashes(await json(get(`/payments/incoming?from=${paidAt}`))), [first.paymentHash]);
    const all = await json(get('/payments/incoming?all=true'));
    assert.deepEqual(
      all.map((payment: { description: string }) => payment.description),
      ['unpaid', 'b', 'a'],
    );

    const older = simulator.node.pay({ amountSat: 5, paymentHash: null, invoice: null });
    clock.advance(1000);
    const newer = simulator.node.pay({ amountSat: 6, paymentHash: null, invoice: null });
    simulator.node.outgoing.push({
      ...(simulator.node.outgoing[0] as SimOutgoing),
      paymentId: 'pending',
      isPaid: false,
      completedAt: null,
    });
    const ids = (list: { paymentId: string }[]) => list.map((payment) => payment.paymentId);
    assert.ok(older.isSent && newer.isSent);
    assert.deepEqual(ids(await json(get('/payments/outgoing'))), [older.paymentId, newer.paymentId]);
    assert.deepEqual(ids(await json(get('/payments/outgoing?all=true'))), [
      older.paymentId,
      newer.paymentId,
      'pending',
    ]);
  });

  it("posts each webhook once, to phoenix.conf's URL and to the invoice's own, or drops it", async (t) => {
    const receiver = await startWebhookReceiver(t);
    const ownReceiver = await startWebhookReceiver(t);
    const { simulator, postForm } = await startSimulator(t, { webhookUrl: receiver.url });
    const invoice = (externalId: string, webhookUrl: string | null = null) =>
      simulator.node.createInvoice({
        amountSat: 100,
        description: 'Bill',
        expirySeconds: null,
        externalId,
        webhookUrl,
      }).serialized;

    assert.equal(await (await postForm('/sim/webhook', { mode: 'drop' })).text(), 'ok');
    assert.deepEqual(await (await simulator.receivePayment(invoice('dropped'))).webhooks, []);
    simulator.webhookMode = 'deliver';
    const { webhooks } = await simulator.receivePayment(invoice('both', ownReceiver.url));
    assert.deepEqual(
      (await webhooks).map((delivery) => delivery.status),
      [200, 200],
    );
    await simulator.webhooksDelivered();
    assert.deepEqual(
      receiver.bodies.map((body) => body.externalId),
      ['both'],
    );
    assert.deepEqual(
      ownReceiver.bodies.map((body) => body.externalId),
      ['both'],
    );
    assert.equal((await postForm('/sim/webhook', { mode: 'hold' })).status, 400);
  });

  it('answers a refused outside payment on its control route with 400 and the reason', async (t) => {
    const { simulator, postForm } = await startSimulator(t);
    const { serialized } = simulator.node.createInvoice({
      amountSat: 100,
      description: 'Bill',
      expirySeconds: null,
      externalId: null,
    });
    const refused = await postForm('/sim/receive', { invoice: serialized, amountSat: 201 });
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /^overpayment: 201 sat/);
    assert.equal((await postForm('/sim/receive', { invoice: serialized, amountSat: 200 })).status, 200);
  });

  it('drops connections while down and holds answers while slow', async (t) => {
    const { simulator, get } = await startSimulator(t);
    simulator.setMode({ kind: 'down' });
    await assert.rejects(get('/getbalance'));
    simulator.setMode({ kind: 'slow', delayMs: 60_000 });
    await assert.rejects(
      fetch(`${simulator.url}/getbalance`, { signal: AbortSignal.timeout(50) }),
      (error: Error) => error.name === 'TimeoutError',
    );
    simulator.setMode({ kind: 'up' });
    assert.equal((await get('/getbalance')).status, 200);
  });
});
