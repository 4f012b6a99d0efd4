import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import bolt11 from 'bolt11';
import { manualClock } from '../../src/core/clock';
import { REGTEST } from './invoices';
import { FAILURE_REASONS, PaymentRefusedError } from './sim-node';
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

  it('answers getinfo and getbalance in phoenixd shapes', async (t) => {
    const { get } = await startSimulator(t, { balanceSat: 250_000 });
    const info = await json(get('/getinfo'));
    assert.match(info.nodeId, /^0[23][0-9a-f]{64}$/);
    assert.equal(info.chain, 'regtest');
    assert.equal(info.channels[0].state, 'NORMAL');
    assert.equal(info.channels[0].balanceSat, 250_000);
    assert.deepEqual(await json(get('/getbalance')), { balanceSat: 250_000, feeCreditSat: 0 });
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

    const { webhook } = await simulator.receivePayment(invoice.serialized);
    assert.equal(webhook?.status, 200);
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

    simulator.node.isAcceptingUnderpayments = true;
    assert.equal((await simulator.receivePayment(invoice(1000), { amountSat: 10 })).payment.receivedSat, 10);
  });

  it('drops webhooks, or holds them and delivers them in order when released', async (t) => {
    const receiver = await startWebhookReceiver(t);
    const { simulator, postForm } = await startSimulator(t, { webhookUrl: receiver.url });
    const invoice = (externalId: string) =>
      simulator.node.createInvoice({ amountSat: 100, description: 'Bill', expirySeconds: null, externalId })
        .serialized;

    assert.equal(await (await postForm('/sim/webhook', { mode: 'drop' })).text(), 'ok');
    assert.equal((await simulator.receivePayment(invoice('dropped'))).webhook, null);
    simulator.webhookMode = 'hold';
    await simulator.receivePayment(invoice('held-1'));
    await simulator.receivePayment(invoice('held-2'));
    assert.equal(receiver.bodies.length, 0);

    const released = await json(postForm('/sim/release-webhooks', {}));
    assert.deepEqual(
      released.deliveries.map((delivery: { status: number }) => delivery.status),
      [200, 200],
    );
    assert.deepEqual(
      receiver.bodies.map((body) => body.externalId),
      ['held-1', 'held-2'],
    );
    assert.deepEqual((await json(postForm('/sim/release-webhooks', {}))).deliveries, []);
    assert.equal((await postForm('/sim/webhook', { mode: 'sometimes' })).status, 400);
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
