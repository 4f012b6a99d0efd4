import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { describe, it } from 'node:test';
import { baseUrlOf, listenOn } from '../helpers/loopback-server';
import { WebhookReceiver } from '../helpers/webhook-receiver';
import { MercadoPagoSimulator, type MercadoPagoSimulatorOptions } from './simulator';

type TestContext = { after: (fn: () => Promise<void> | void) => void };

// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary fields.
type Json = any;

const CAJA1 = 'NEWLAND_N950__N950NCB000000001';
const CAJA2 = 'PAX_A910__SMARTPOS0000000002';
const BARRA = 'NEWLAND_N950__N950NCB000000003';
const SECRET = 'test-webhook-secret';
const TOKEN = 'APP_USR-test-token';

async function startSimulator(t: TestContext, options: MercadoPagoSimulatorOptions = {}) {
  const receiver = await WebhookReceiver.start();
  t.after(() => receiver.stop());
  const simulator = await MercadoPagoSimulator.start({
    accessToken: TOKEN,
    webhookSecret: SECRET,
    notificationUrl: receiver.url,
    atTerminalAfterMs: null,
    refundSettleAfterMs: 0,
    cancelAtTerminalAfterMs: 20,
    notificationRetryMs: 10,
    ...options,
  });
  t.after(() => simulator.stop());
  const call = async (
    method: string,
    path: string,
    {
      body,
      headers = {},
      token = TOKEN,
    }: { body?: unknown; headers?: Record<string, string>; token?: string | null } = {},
  ) => {
    const response = await fetch(`${simulator.url}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(token !== null && { authorization: `Bearer ${token}` }),
        ...headers,
      },
      ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: (text ? JSON.parse(text) : undefined) as Json };
  };
  const sim = (method: string, path: string, body?: unknown) => call(method, path, { body, token: null });
  const create = (key: string, body: unknown = orderBody()) =>
    call('POST', '/v1/orders', { body, headers: { 'x-idempotency-key': key } });
  /** The notifications received, each with its query, headers and parsed body. */
  const notifications = async () => {
    await simulator.notificationsSettled();
    return receiver.received.map((delivery) => ({ ...delivery, json: JSON.parse(delivery.body) as Json }));
  };
  return { simulator, receiver, call, sim, create, notifications };
}

type Call = Awaited<ReturnType<typeof startSimulator>>['call'];

/**
 * An order's status once the simulator's own timer has moved it, or the last one seen after 5 s: a
 * loaded machine runs timers late, so the test polls instead of sleeping a fixed time.
 */
async function statusWithin(call: Call, orderId: string, wanted: string): Promise<string> {
  let status = '';
  for (const deadline = Date.now() + 5000; status !== wanted && Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    status = (await call('GET', `/v1/orders/${orderId}`)).json.status;
  }
  return status;
}

function orderBody(overrides: { amount?: string; terminal?: string; reference?: string } = {}) {
  return {
    type: 'point',
    external_reference: overrides.reference ?? 'pay-0001',
    description: 'Mesa 4',
    transactions: { payments: [{ amount: overrides.amount ?? '350.00' }] },
    config: { point: { terminal_id: overrides.terminal ?? CAJA1, print_on_terminal: 'no_ticket' } },
  };
}

/** Verifies x-signature as Mercado Pago's notifications page defines it, from the query's data.id. */
function signatureValid(headers: Record<string, unknown>, dataId: string, secret = SECRET): boolean {
  const parts = Object.fromEntries(
    String(headers['x-signature'])
      .split(',')
      .map((part) => part.split('=') as [string, string]),
  );
  const manifest = `id:${dataId.toLowerCase()};request-id:${headers['x-request-id']};ts:${parts.ts};`;
  return createHmac('sha256', secret).update(manifest).digest('hex') === parts.v1;
}

describe('Mercado Pago Point simulator', () => {
  it('answers 401 without the access token, lists terminals with paging and filters, and changes their mode', async (t) => {
    const { call } = await startSimulator(t);
    assert.equal((await call('GET', '/terminals/v1/list', { token: null })).status, 401);
    const wrong = await call('GET', '/terminals/v1/list', { token: 'nope' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.json.errors[0].code, 'unauthorized');

    const all = await call('GET', '/terminals/v1/list');
    assert.equal(all.status, 200);
    assert.deepEqual(
      all.json.data.terminals.map((terminal: Json) => [terminal.id, terminal.operating_mode]),
      [
        [CAJA1, 'PDV'],
        [CAJA2, 'PDV'],
        [BARRA, 'STANDALONE'],
      ],
    );
    assert.deepEqual(all.json.paging, { total: 3, offset: 0, limit: 50 });
    const page = await call('GET', '/terminals/v1/list?limit=1&offset=1');
    assert.deepEqual(
      page.json.data.terminals.map((terminal: Json) => terminal.id),
      [CAJA2],
    );
    const byPos = await call('GET', '/terminals/v1/list?pos_id=50000003');
    assert.equal(byPos.json.data.terminals[0].external_pos_id, 'BARRA');
    assert.equal((await call('GET', '/terminals/v1/list?limit=51')).status, 400);

    const standalone = await call('POST', '/v1/orders', {
      body: orderBody({ terminal: BARRA }),
      headers: { 'x-idempotency-key': 'k-barra' },
    });
    assert.equal(standalone.status, 400);
    const changed = await call('PATCH', '/terminals/v1/setup', {
      body: { terminals: [{ id: BARRA, operating_mode: 'PDV' }] },
    });
    assert.deepEqual(changed.json, { terminals: [{ id: BARRA, operating_mode: 'PDV' }] });
    const bad = await call('PATCH', '/terminals/v1/setup', {
      body: { terminals: [{ id: BARRA, operating_mode: 'X' }] },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.errors[0].code, 'invalid_payload');
    const now = await call('POST', '/v1/orders', {
      body: orderBody({ terminal: BARRA }),
      headers: { 'x-idempotency-key': 'k-barra-2' },
    });
    assert.equal(now.status, 201);
    const foreign = await call('POST', '/v1/orders', {
      body: orderBody({ terminal: 'PAX_A910__NOTMINE' }),
      headers: { 'x-idempotency-key': 'k-foreign' },
    });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.json.errors[0].code, 'forbidden_checking_terminal_owner');
  });

  it('creates an order once per idempotency key, refuses another body under it, and one order per terminal', async (t) => {
    const { call, create, simulator } = await startSimulator(t);
    const noKey = await call('POST', '/v1/orders', { body: orderBody() });
    assert.equal(noKey.status, 400);
    assert.equal(noKey.json.errors[0].code, 'empty_required_header');

    const first = await create('key-1');
    assert.equal(first.status, 201);
    assert.match(first.json.id, /^ORD[0-9A-Z]{26}$/);
    assert.equal(first.json.type, 'point');
    assert.equal(first.json.status, 'created');
    assert.equal(first.json.external_reference, 'pay-0001');
    assert.equal(first.json.expiration_time, 'PT15M');
    assert.equal(first.json.transactions.payments[0].amount, '350.00');
    assert.match(first.json.transactions.payments[0].id, /^PAY/);
    assert.equal(first.json.config.point.terminal_id, CAJA1);

    // The same key and the same body (keys in another order): the same order, nothing new.
    const { config, transactions, description, external_reference, type } = orderBody();
    const reordered = { config, transactions, description, external_reference, type };
    const again = await call('POST', '/v1/orders', {
      body: reordered,
      headers: { 'x-idempotency-key': 'key-1' },
    });
    assert.equal(again.status, 201);
    assert.equal(again.json.id, first.json.id);
    assert.equal(simulator.point.orders.size, 1);

    const other = await create('key-1', orderBody({ amount: '351.00' }));
    assert.equal(other.status, 409);
    assert.equal(other.json.errors[0].code, 'idempotency_key_already_used');

    const busy = await create('key-2', orderBody({ reference: 'pay-0002' }));
    assert.equal(busy.status, 409);
    assert.equal(busy.json.errors[0].code, 'already_queued_order_on_terminal');
    assert.equal((await create('key-3', orderBody({ reference: 'pay-0003', terminal: CAJA2 }))).status, 201);

    const tooSmall = await create('key-4', orderBody({ amount: '4.99', terminal: BARRA }));
    assert.equal(tooSmall.status, 400);
    assert.match(tooSmall.json.errors[0].message, /at least 5\.00/);
    const badAmount = await create('key-5', orderBody({ amount: '10.5' + '5' + '5' }));
    assert.equal(badAmount.status, 400);
    const extra = await create('key-6', { ...orderBody(), total_amount: '350.00' });
    assert.equal(extra.json.errors[0].code, 'unsupported_properties');
    const badReference = await create('key-7', orderBody({ reference: 'mesa 4 ñ' }));
    assert.equal(badReference.status, 400);
    const twoPayments = await create('key-8', {
      ...orderBody(),
      transactions: { payments: [{ amount: '1.00' }, { amount: '2.00' }] },
    });
    assert.equal(twoPayments.json.errors[0].code, 'maximum_items');
    assert.equal((await create('key-9', { ...orderBody(), expiration_time: 'PT10S' })).status, 400);
    assert.equal((await call('GET', '/v1/orders/ORDNOPE')).status, 404);
  });

  it('charges a tapped card: processed, a signed notification, and the payment with last four, authorisation and fee', async (t) => {
    const { call, create, sim, notifications } = await startSimulator(t);
    const order = (await create('tap-1')).json;
    assert.equal((await sim('POST', `/sim/terminals/${CAJA1}/show`)).json.order.status, 'at_terminal');
    const tapped = await sim('POST', `/sim/terminals/${CAJA1}/tap`, {
      brand: 'debmaster',
      type: 'debit',
      last_four: '1234',
    });
    assert.equal(tapped.status, 200);
    assert.equal(tapped.json.order.status, 'processed');

    const read = await call('GET', `/v1/orders/${order.id}`);
    assert.equal(read.json.status, 'processed');
    assert.equal(read.json.status_detail, 'processed');
    assert.equal(read.json.transactions.payments[0].status_detail, 'accredited');
    assert.equal(read.json.total_paid_amount, '350.00');
    const [payment] = read.json.transactions.payments;
    assert.equal(payment.status, 'processed');
    assert.deepEqual(payment.payment_method, { id: 'debmaster', type: 'debit_card', installments: 1 });
    const fromPayments = await call('GET', `/v1/payments/${payment.reference_id}`);
    assert.equal(fromPayments.status, 200);
    assert.equal(fromPayments.json.status, 'approved');
    assert.equal(fromPayments.json.card.last_four_digits, '1234');
    assert.match(fromPayments.json.authorization_code, /^\d{6}$/);
    assert.equal(fromPayments.json.payment_type_id, 'debit_card');
    assert.equal(fromPayments.json.transaction_amount, 350);
    assert.deepEqual(fromPayments.json.fee_details, [
      { type: 'mercadopago_fee', amount: 12.25, fee_payer: 'collector' },
    ]);
    assert.equal(fromPayments.json.external_reference, 'pay-0001');
    assert.equal((await call('GET', '/v1/payments/999')).status, 404);

    const received = await notifications();
    assert.equal(received.length, 1);
    const [notification] = received;
    assert.ok(notification);
    assert.equal(notification.json.action, 'order.processed');
    assert.equal(notification.json.type, 'order');
    assert.equal(notification.json.data.id, order.id);
    assert.equal(notification.json.data.status, 'processed');
    assert.equal(notification.json.data.external_reference, 'pay-0001');
    assert.match(String(notification.headers['x-signature']), /^ts=\d+,v1=[0-9a-f]{64}$/);
    assert.ok(notification.headers['x-request-id']);
    assert.ok(signatureValid(notification.headers, order.id));
    assert.ok(!signatureValid(notification.headers, order.id, 'another secret'));
    // The terminal is free again.
    assert.equal((await create('tap-2', orderBody({ reference: 'pay-0002' }))).status, 201);
  });

  it('posts to the notification URL with ?data.id=<order>&type=order', async (t) => {
    const { create, sim, simulator } = await startSimulator(t);
    const hits: string[] = [];
    const probe = createServer((request, response) => {
      hits.push(request.url ?? '');
      response.writeHead(200).end();
    });
    await listenOn(probe, {});
    t.after(() => new Promise<void>((resolve) => probe.close(() => resolve())));
    await sim('POST', '/sim/notification-url', { url: `${baseUrlOf(probe)}/terminals/mercadopago/webhook` });
    const order = (await create('q-1')).json;
    await sim('POST', `/sim/terminals/${CAJA1}/tap`, {});
    await simulator.notificationsSettled();
    assert.deepEqual(hits, [`/terminals/mercadopago/webhook?data.id=${order.id}&type=order`]);
  });

  it('fails a declined card with its reason, expires an unpaid order, and follows action_required to the end', async (t) => {
    const { call, create, sim, simulator, notifications } = await startSimulator(t);
    const declined = (await create('d-1')).json;
    await sim('POST', `/sim/terminals/${CAJA1}/decline`, { reason: 'insufficient_amount' });
    const afterDecline = (await call('GET', `/v1/orders/${declined.id}`)).json;
    assert.equal(afterDecline.status, 'failed');
    assert.equal(afterDecline.transactions.payments[0].status, 'failed');
    assert.equal(afterDecline.transactions.payments[0].status_detail, 'insufficient_amount');
    assert.equal((await sim('POST', `/sim/terminals/${CAJA1}/tap`, {})).status, 404);

    const expiring = (
      await create('d-2', { ...orderBody({ reference: 'pay-0002' }), expiration_time: 'PT1M' })
    ).json;
    simulator.advanceClock(59_000);
    assert.equal((await call('GET', `/v1/orders/${expiring.id}`)).json.status, 'created');
    await sim('POST', '/sim/clock', { advanceMs: 1_000 });
    assert.equal((await call('GET', `/v1/orders/${expiring.id}`)).json.status, 'expired');

    const slow = (await create('d-3', orderBody({ reference: 'pay-0003' }))).json;
    await sim('POST', `/sim/terminals/${CAJA1}/action-required`);
    const checking = (await call('GET', `/v1/orders/${slow.id}`)).json;
    assert.deepEqual([checking.status, checking.status_detail], ['action_required', 'check_on_terminal']);
    assert.equal((await create('d-4', orderBody({ reference: 'pay-0004' }))).status, 409);
    await sim('POST', `/sim/terminals/${CAJA1}/tap`, { brand: 'amex', last_four: '0005' });
    assert.equal((await call('GET', `/v1/orders/${slow.id}`)).json.status, 'processed');

    const manual = (await create('d-5', orderBody({ reference: 'pay-0005' }))).json;
    await sim('POST', `/sim/terminals/${CAJA1}/expire`);
    assert.equal((await call('GET', `/v1/orders/${manual.id}`)).json.status, 'expired');

    const actions = (await notifications()).map((delivery) => delivery.json.action);
    assert.deepEqual(actions, [
      'order.failed',
      'order.expired',
      'order.action_required',
      'order.processed',
      'order.expired',
    ]);
  });

  it('cancels a created order at once, refuses one at the terminal unless allowed, and then cancels it asynchronously', async (t) => {
    const { call, create, sim, notifications } = await startSimulator(t);
    const created = (await create('c-1')).json;
    const noKey = await call('POST', `/v1/orders/${created.id}/cancel`);
    assert.equal(noKey.json.errors[0].code, 'empty_required_header');
    const canceled = await call('POST', `/v1/orders/${created.id}/cancel`, {
      headers: { 'x-idempotency-key': 'cx-1' },
    });
    assert.equal(canceled.status, 200);
    assert.equal(canceled.json.status, 'canceled');
    const replay = await call('POST', `/v1/orders/${created.id}/cancel`, {
      headers: { 'x-idempotency-key': 'cx-1' },
    });
    assert.equal(replay.status, 200);
    const late = await call('POST', `/v1/orders/${created.id}/cancel`, {
      headers: { 'x-idempotency-key': 'cx-2' },
    });
    assert.equal(late.status, 409);

    const shown = (await create('c-2', orderBody({ reference: 'pay-0002' }))).json;
    await sim('POST', `/sim/terminals/${CAJA1}/show`);
    const refused = await call('POST', `/v1/orders/${shown.id}/cancel`, {
      headers: { 'x-idempotency-key': 'cx-3' },
    });
    assert.equal(refused.status, 409);
    const accepted = await call('POST', `/v1/orders/${shown.id}/cancel`, {
      headers: { 'x-idempotency-key': 'cx-4', 'x-allow-cancelable-status': 'at_terminal' },
    });
    assert.equal(accepted.status, 202);
    assert.equal(accepted.json.status, 'at_terminal');
    assert.equal(await statusWithin(call, shown.id, 'canceled'), 'canceled');

    const onTerminal = (await create('c-3', orderBody({ reference: 'pay-0003' }))).json;
    await sim('POST', `/sim/terminals/${CAJA1}/cancel`);
    const byTerminal = (await call('GET', `/v1/orders/${onTerminal.id}`)).json;
    assert.equal(byTerminal.status, 'canceled');
    assert.equal(byTerminal.transactions.payments[0].status_detail, 'canceled_by_terminal');

    const actions = (await notifications()).map((delivery) => delivery.json.action);
    assert.deepEqual(actions, ['order.canceled', 'order.canceled', 'order.canceled']);
  });

  it('refunds in part and then in whole, each exactly once by its key, pending until processed', async (t) => {
    const { call, create, sim, simulator, notifications } = await startSimulator(t, {
      refundSettleAfterMs: null,
    });
    const order = (await create('r-1')).json;
    const refund = (key: string, body?: unknown) =>
      call('POST', `/v1/orders/${order.id}/refund`, { body, headers: { 'x-idempotency-key': key } });
    assert.equal((await refund('rf-0')).status, 409);
    await sim('POST', `/sim/terminals/${CAJA1}/tap`, {});
    const paymentId = order.transactions.payments[0].id;

    const partial = await refund('rf-1', { transactions: [{ id: paymentId, amount: '100.00' }] });
    assert.equal(partial.status, 201);
    const [pending] = partial.json.transactions.refunds;
    assert.equal(pending.status, 'processing');
    assert.equal(pending.amount, '100.00');
    const replay = await refund('rf-1', { transactions: [{ id: paymentId, amount: '100.00' }] });
    assert.equal(replay.status, 201);
    assert.equal(replay.json.transactions.refunds[0].id, pending.id);
    assert.equal(simulator.point.order(order.id).refunds.length, 1);
    const reused = await refund('rf-1', { transactions: [{ id: paymentId, amount: '99.00' }] });
    assert.equal(reused.json.errors[0].code, 'idempotency_key_already_used');
    const inProgress = await refund('rf-2', { transactions: [{ id: paymentId, amount: '10.00' }] });
    assert.equal(inProgress.json.errors[0].code, 'refund_in_progress');

    await sim('POST', `/sim/orders/${order.id}/refunds/${pending.id}`, { status: 'processed' });
    const partly = (await call('GET', `/v1/orders/${order.id}`)).json;
    assert.deepEqual([partly.status, partly.status_detail], ['processed', 'partially_refunded']);
    const referenceId = partly.transactions.payments[0].reference_id;
    assert.equal((await call('GET', `/v1/payments/${referenceId}`)).json.transaction_amount_refunded, 100);

    const tooMuch = await refund('rf-3', { transactions: [{ id: paymentId, amount: '250.01' }] });
    assert.equal(tooMuch.json.errors[0].code, 'refund_amount_exceeds');
    const wrongTransaction = await refund('rf-4', { transactions: [{ id: 'PAYNOPE', amount: '1.00' }] });
    assert.equal(wrongTransaction.json.errors[0].code, 'transaction_not_found');

    const rest = await refund('rf-5');
    assert.equal(rest.json.transactions.refunds[0].amount, '250.00');
    simulator.point.settleRefund(order.id, rest.json.transactions.refunds[0].id, 'processed');
    const whole = (await call('GET', `/v1/orders/${order.id}`)).json;
    assert.equal(whole.status, 'refunded');
    assert.equal((await call('GET', `/v1/payments/${referenceId}`)).json.status, 'refunded');
    assert.equal((await refund('rf-6')).status, 409);

    const actions = (await notifications()).map((delivery) => [
      delivery.json.action,
      delivery.json.data.status_detail,
    ]);
    assert.deepEqual(actions, [
      ['order.processed', 'processed'],
      ['order.refunded', 'partially_refunded'],
      ['order.refunded', 'refunded'],
    ]);
  });

  it('settles a refund by itself after the configured time, or fails it by control', async (t) => {
    const { call, create, sim } = await startSimulator(t, { refundSettleAfterMs: 10 });
    const order = (await create('s-1')).json;
    await sim('POST', `/sim/terminals/${CAJA1}/tap`, {});
    const refund = await call('POST', `/v1/orders/${order.id}/refund`, {
      headers: { 'x-idempotency-key': 'sr-1' },
    });
    assert.equal(refund.json.transactions.refunds[0].status, 'processing');
    assert.equal(await statusWithin(call, order.id, 'refunded'), 'refunded');

    const second = (await create('s-2', orderBody({ reference: 'pay-0002' }))).json;
    await sim('POST', `/sim/terminals/${CAJA1}/tap`, {});
    const failing = await call('POST', `/v1/orders/${second.id}/refund`, {
      headers: { 'x-idempotency-key': 'sr-2' },
    });
    const failed = await sim(
      'POST',
      `/sim/orders/${second.id}/refunds/${failing.json.transactions.refunds[0].id}`,
      {
        status: 'failed',
      },
    );
    assert.equal(failed.json.order.transactions.refunds[0].status, 'failed');
    assert.equal(failed.json.order.status, 'processed');
  });

  it('injects 5xx without doing the work, slow answers, and answers lost after the work', async (t) => {
    const { create, sim, simulator } = await startSimulator(t);
    await sim('POST', '/sim/faults', { fail5xx: 1 });
    const failed = await create('f-1');
    assert.equal(failed.status, 500);
    assert.equal(simulator.point.orders.size, 0);

    await sim('POST', '/sim/faults', { loseAnswer: 1, only: { loseAnswer: '^POST /v1/orders$' } });
    await assert.rejects(create('f-2'));
    assert.equal(simulator.point.orders.size, 1);
    const retried = await create('f-2');
    assert.equal(retried.status, 201);
    assert.equal(simulator.point.orders.size, 1);

    await sim('POST', '/sim/faults', { slow: 1, delayMs: 150 });
    const started = Date.now();
    assert.equal((await create('f-2')).status, 201);
    assert.ok(Date.now() - started >= 140);
    assert.equal((await sim('POST', '/sim/faults', { fail5xx: -1 })).status, 400);
    assert.equal((await sim('POST', '/sim/faults', { only: { fail5xx: '(' } })).status, 400);
    assert.deepEqual(
      simulator.requests().map((request) => request.idempotencyKey),
      ['f-1', 'f-2', 'f-2', 'f-2'],
    );
  });

  it('sends a notification twice, out of order, or never, and retries one not answered 2xx', async (t) => {
    const { create, sim, simulator, receiver, notifications } = await startSimulator(t);
    await sim('POST', '/sim/notifications', { twice: 1 });
    const first = (await create('n-1')).json;
    await sim('POST', `/sim/terminals/${CAJA1}/tap`, {});
    let received = await notifications();
    assert.equal(received.length, 2);
    assert.equal(received[0]?.body, received[1]?.body);
    assert.notEqual(received[0]?.headers['x-request-id'], received[1]?.headers['x-request-id']);
    for (const delivery of received) assert.ok(signatureValid(delivery.headers, first.id));

    await sim('POST', '/sim/notifications', { outOfOrder: 1 });
    const held = (await create('n-2', orderBody({ reference: 'pay-0002' }))).json;
    await sim('POST', `/sim/terminals/${CAJA1}/decline`, {});
    assert.equal((await sim('GET', '/sim/state')).json.notifications.held, 1);
    const next = (await create('n-3', orderBody({ reference: 'pay-0003', terminal: CAJA2 }))).json;
    await sim('POST', `/sim/terminals/${CAJA2}/tap`, {});
    received = await notifications();
    assert.deepEqual(
      received.slice(2).map((delivery) => delivery.json.data.id),
      [next.id, held.id],
    );

    await sim('POST', '/sim/notifications', { never: 1 });
    await create('n-4', orderBody({ reference: 'pay-0004' }));
    await sim('POST', `/sim/terminals/${CAJA1}/tap`, {});
    assert.equal((await notifications()).length, 4);
    assert.equal(simulator.notifier.dropped.length, 1);

    const statuses = [500, 503];
    receiver.answer = () => ({ status: statuses.shift() ?? 200 });
    const retried = (await create('n-5', orderBody({ reference: 'pay-0005' }))).json;
    await sim('POST', `/sim/terminals/${CAJA1}/tap`, {});
    const attempts = (await sim('GET', '/sim/notifications')).json.filter(
      (delivery: Json) => delivery.dataId === retried.id,
    );
    assert.deepEqual(
      attempts.map((delivery: Json) => [delivery.attempt, delivery.status]),
      [
        [1, 500],
        [2, 503],
        [3, 200],
      ],
    );
  });

  it('shows its state, moves its clock and resets', async (t) => {
    const { create, sim, call } = await startSimulator(t);
    const order = (await create('st-1')).json;
    await sim('POST', '/sim/faults', { fail5xx: 3 });
    const state = (await sim('GET', '/sim/state')).json;
    assert.equal(state.terminals[0].busy_with, order.id);
    assert.equal(state.orders[0].history[0].status, 'created');
    assert.equal(state.faults.fail5xx, 3);
    assert.equal((await sim('POST', '/sim/clock', { advanceMs: -1 })).status, 400);
    assert.equal((await sim('POST', '/sim/terminals/NOPE/tap', {})).status, 404);
    assert.equal((await sim('POST', `/sim/terminals/${CAJA1}/tap`, { last_four: '12' })).status, 400);
    assert.equal((await sim('POST', '/sim/reset')).status, 200);
    const after = (await sim('GET', '/sim/state')).json;
    assert.deepEqual([after.orders.length, after.faults.fail5xx], [0, 0]);
    assert.equal((await call('GET', `/v1/orders/${order.id}`)).status, 404);
    assert.equal((await sim('GET', '/sim/nope')).status, 404);
  });

  it('moves a new order to the terminal by itself when told to', async (t) => {
    const { create, call } = await startSimulator(t, { atTerminalAfterMs: 10 });
    const order = (await create('a-1')).json;
    assert.equal(order.status, 'created');
    assert.equal(await statusWithin(call, order.id, 'at_terminal'), 'at_terminal');
  });
});
