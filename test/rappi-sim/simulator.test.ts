import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { RappiSimulator, type SimulatorOptions } from './simulator';

type TestContext = { after: (fn: () => Promise<void> | void) => void };

// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary fields.
type Json = any;

const ORDERS = '/restaurants/orders/v1';
const PUBLIC_API = '/api/v2/restaurants-integrations-public-api';

async function startSimulator(t: TestContext, options: SimulatorOptions = {}) {
  const simulator = await RappiSimulator.start({ webhookRetryDelayMs: 10, ...options });
  t.after(() => simulator.stop());
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token !== undefined) headers['x-authorization'] = `Bearer ${token}`;
    const response = await fetch(`${simulator.url}${path}`, {
      method,
      headers,
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: (text ? JSON.parse(text) : undefined) as Json };
  };
  const login = await call('POST', '/restaurants/auth/v1/token/login/integrations', {
    client_id: 'sim-rappi-client',
    client_secret: 'sim-rappi-secret',
  });
  const token: string = login.json.access_token;
  const api = (method: string, path: string, body?: unknown) => call(method, path, body, token);
  const sim = (method: string, path: string, body?: unknown) => call(method, path, body);
  const storeId = simulator.platform.stores[0]?.id ?? '';
  const order = (path: string) => `${ORDERS}/stores/${storeId}/orders/${path}`;
  return { simulator, call, api, sim, login, token, storeId, order };
}

const TACOS = {
  items: [
    {
      sku: '17',
      name: 'Tacos al pastor',
      price: 85,
      quantity: 2,
      comments: 'sin cebolla',
      toppings: [{ sku: 'm-4', name: 'Queso', price: 15 }],
    },
    { sku: '23', name: 'Agua de horchata', price: 35 },
  ],
  client: { first_name: 'Lucía', last_name: 'Pérez' },
};

/** A local webhook receiver answering with the statuses given in turn (then 200). */
async function startReceiver(t: TestContext, statuses: number[] = []) {
  const received: { body: string; signature: string }[] = [];
  const hook = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ body, signature: String(request.headers['rappi-signature']) });
      response.writeHead(statuses.shift() ?? 200);
      response.end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => hook.close(() => resolve())));
  return { url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/rappi`, received };
}

function verify(secret: string, header: string, body: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex');
  return parts.sign === expected;
}

describe('Rappi simulator', () => {
  it('logs in with the client id and secret for a week-long token and answers 401 without it', async (t) => {
    const { call, api, login, simulator } = await startSimulator(t);
    assert.equal(login.status, 200);
    assert.equal(login.json.token_type, 'Bearer');
    assert.equal(login.json.expires_in, 7 * 24 * 3600);

    const wrong = await call('POST', '/restaurants/auth/v1/token/login/integrations', {
      client_id: 'sim-rappi-client',
      client_secret: 'nope',
    });
    assert.equal(wrong.status, 401);
    assert.equal((await call('GET', `${ORDERS}/orders`)).status, 401);
    assert.equal((await call('GET', `${ORDERS}/orders`, undefined, 'forged')).status, 401);
    assert.equal((await api('GET', `${ORDERS}/orders`)).status, 200);

    simulator.advance(7 * 24 * 3_600_000);
    assert.equal((await api('GET', `${ORDERS}/orders/status/sent`)).status, 401);
  });

  it('hands each new order out once, refuses reads closer than 45 s, and shows the order as documented', async (t) => {
    const { api, sim, simulator, storeId } = await startSimulator(t);
    const placed = await sim('POST', '/sim/orders', TACOS);
    assert.equal(placed.status, 201);

    const first = await api('GET', `${ORDERS}/orders`);
    assert.equal(first.status, 200);
    assert.equal(first.json.length, 1);
    const [order] = first.json;
    assert.equal(order.order_detail.order_id, placed.json.order_id);
    assert.equal(order.order_detail.items[0].sku, '17');
    assert.equal(order.order_detail.items[0].comments, 'sin cebolla');
    assert.equal(order.order_detail.items[0].quantity, 2);
    assert.deepEqual(
      order.order_detail.items[0].subitems.map((topping: Json) => [topping.sku, topping.type, topping.price]),
      [['m-4', 'TOPPING', 15]],
    );
    assert.equal(order.order_detail.totals.total_products, 2 * (85 + 15) + 35);
    assert.equal(order.order_detail.totals.total_order, 235);
    assert.equal(order.customer.first_name, 'Lucía');
    assert.equal(order.store.internal_id, storeId);

    await sim('POST', '/sim/orders', TACOS);
    const tooSoon = await api('GET', `${ORDERS}/stores/${storeId}/orders`);
    assert.equal(tooSoon.status, 429);
    assert.match(tooSoon.json.message, /45 seconds/);

    simulator.advance(45_000);
    const second = await api('GET', `${ORDERS}/stores/${storeId}/orders`);
    assert.equal(second.status, 200);
    assert.equal(second.json.length, 1, 'the first order is not handed out again');
    assert.notEqual(second.json[0].order_detail.order_id, placed.json.order_id);

    const sent = await api('GET', `${ORDERS}/orders/status/sent`);
    assert.equal(sent.json.length, 2);
  });

  it('takes with a cooking time in range, rejects with a reason, marks ready, and refuses invalid transitions', async (t) => {
    const { api, sim, simulator, order } = await startSimulator(t);
    const taken = (await sim('POST', '/sim/orders', TACOS)).json.order_id;
    const rejected = (await sim('POST', '/sim/orders', TACOS)).json.order_id;
    await api('GET', `${ORDERS}/orders`);

    assert.equal((await api('PUT', order(`${taken}/cooking_time/90/take`))).status, 400);
    const take = await api('PUT', order(`${taken}/cooking_time/20/take`));
    assert.equal(take.status, 200);
    assert.equal((await api('POST', order(`${taken}/ready-for-pickup`))).status, 200);

    const reject = await api('PUT', order(`${rejected}/cancel_type/ITEM_OUT_OF_STOCK/reject`), {
      description: 'Se acabó el pastor',
      items_skus: ['17'],
    });
    assert.equal(reject.status, 200);
    const again = await api('POST', order(`${rejected}/ready-for-pickup`));
    assert.equal(again.status, 400);
    assert.match(again.json.message, /Invalid transition from REJECTED/);

    const takenState = (await sim('GET', `/sim/orders/${taken}`)).json;
    assert.equal(takenState.status, 'READY_FOR_PICKUP');
    assert.equal(takenState.cooking_time, 20);
    const rejectedState = (await sim('GET', `/sim/orders/${rejected}`)).json;
    assert.deepEqual(rejectedState.rejection, {
      cancel_type: 'ITEM_OUT_OF_STOCK',
      reason: 'Se acabó el pastor',
      items_skus: ['17'],
    });
    assert.deepEqual(simulator.platform.stores[0]?.unavailable.products, new Set(['17']));
  });

  it('times an order out when it is neither taken nor rejected within the deadline', async (t) => {
    const { api, sim, simulator, order } = await startSimulator(t);
    const late = (await sim('POST', '/sim/orders', TACOS)).json.order_id;
    const onTime = (await sim('POST', '/sim/orders', TACOS)).json.order_id;
    await api('GET', `${ORDERS}/orders`);
    simulator.advance(3 * 60_000);
    assert.equal((await api('PUT', order(`${onTime}/cancel_type/STORE_CLOSED/reject`), {})).status, 200);

    simulator.advance(60_000);
    const refused = await api('PUT', order(`${late}/cancel_type/STORE_CLOSED/reject`), {
      description: 'too late',
    });
    assert.equal(refused.status, 400);
    assert.match(refused.json.message, /from TIMEOUT/);
    assert.equal((await sim('GET', `/sim/orders/${late}`)).json.status, 'TIMEOUT');
    assert.equal((await sim('GET', `/sim/orders/${onTime}`)).json.status, 'REJECTED');
  });

  it('turns items and the store off and on, seen through /sim/state and by new orders', async (t) => {
    const { api, sim, storeId } = await startSimulator(t);
    const patch = await api('PATCH', `/restaurants/menu/v1/stores/${storeId}/products/SKU/stock`, {
      available: [],
      unavailable: ['17', '23'],
    });
    assert.equal(patch.status, 202);
    await api('PATCH', `/restaurants/menu/v1/stores/${storeId}/toppings/SKU/stock`, {
      available: [],
      unavailable: ['m-4'],
    });
    await api('PATCH', `/restaurants/menu/v1/stores/${storeId}/products/SKU/stock`, {
      available: ['23'],
      unavailable: [],
    });
    let state = (await sim('GET', '/sim/state')).json.stores[0];
    assert.deepEqual(state.unavailable_products, ['17']);
    assert.deepEqual(state.unavailable_toppings, ['m-4']);
    assert.equal((await sim('POST', '/sim/orders', TACOS)).status, 409);

    const off = await api('PUT', `${PUBLIC_API}/availability/stores/enable`, {
      stores: [{ store_id: storeId, is_enabled: false }],
    });
    assert.equal(off.status, 200);
    assert.equal(off.json.results[0].operation_result_type, 'SUCCESS');
    state = (await sim('GET', '/sim/state')).json.stores[0];
    assert.equal(state.enabled, false);
    const water = { items: [{ sku: '23', price: 35 }], client: { first_name: 'Ana' } };
    assert.equal((await sim('POST', '/sim/orders', water)).status, 409);

    await api('PUT', `${PUBLIC_API}/availability/stores/enable`, {
      stores: [{ store_id: storeId, is_enabled: true }],
    });
    assert.equal((await sim('GET', '/sim/state')).json.stores[0].enabled, true);
    assert.equal((await sim('POST', '/sim/orders', water)).status, 201);
  });

  it('signs webhooks with each webhook its own secret and retries until a 2xx', async (t) => {
    const { api, sim, storeId } = await startSimulator(t);
    const receiver = await startReceiver(t, [500, 503]);
    const other = await startReceiver(t);
    const created = await api('POST', `${PUBLIC_API}/webhook`, {
      event: 'NEW_ORDER',
      data: [{ url: receiver.url, stores: [storeId] }],
    });
    assert.equal(created.status, 200);
    const cancel = await api('POST', `${PUBLIC_API}/webhook`, {
      event: 'ORDER_EVENT_CANCEL',
      data: [{ url: other.url, stores: [storeId] }],
    });
    const secret: string = created.json[0].secret;
    assert.notEqual(secret, cancel.json[0].secret);

    const placed = (await sim('POST', '/sim/orders', TACOS)).json;
    assert.equal(placed.status, 'WEBHOOK');
    const deliveries = (await sim('GET', '/sim/deliveries')).json;
    assert.deepEqual(
      deliveries.map((delivery: Json) => [delivery.attempt, delivery.status]),
      [
        [1, 500],
        [2, 503],
        [3, 200],
      ],
    );
    assert.equal(receiver.received.length, 3);
    for (const { body, signature } of receiver.received) {
      assert.match(signature, /^t=\d+,sign=[0-9a-f]{64}$/);
      assert.ok(verify(secret, signature, body));
      assert.ok(!verify(cancel.json[0].secret, signature, body));
    }
    assert.equal(JSON.parse(receiver.received[0]?.body ?? '').order_detail.order_id, placed.order_id);
    assert.equal((await sim('GET', `/sim/orders/${placed.order_id}`)).json.status, 'SENT');
    assert.deepEqual((await api('GET', `${ORDERS}/orders`)).json, [], 'a delivered order is not read again');

    const reset = await api('PUT', `${PUBLIC_API}/webhook/NEW_ORDER/reset-secret`);
    assert.notEqual(reset.json[0].secret, secret);
  });

  it('leaves an order to polling when its webhook is never delivered or always fails', async (t) => {
    const { api, sim, storeId, simulator } = await startSimulator(t, { webhookAttempts: 2 });
    const failing = await startReceiver(t, [500, 500]);
    await api('POST', `${PUBLIC_API}/webhook`, {
      event: 'NEW_ORDER',
      data: [{ url: failing.url, stores: [storeId] }],
    });

    const failed = (await sim('POST', '/sim/orders', TACOS)).json.order_id;
    await sim('POST', '/sim/webhook-faults', { never: 1 });
    const lost = (await sim('POST', '/sim/orders', TACOS)).json.order_id;
    await simulator.hub.settled();
    assert.equal(failing.received.length, 2, 'two attempts for the first, none for the lost one');

    const read = await api('GET', `${ORDERS}/orders`);
    assert.deepEqual(
      read.json.map((order: Json) => order.order_detail.order_id).sort(),
      [failed, lost].sort(),
    );
  });

  it('sends a cancellation by the platform, twice or out of order when told', async (t) => {
    const { api, sim, storeId, order } = await startSimulator(t);
    const receiver = await startReceiver(t);
    const hook = await api('POST', `${PUBLIC_API}/webhook`, {
      event: 'ORDER_EVENT_CANCEL',
      data: [{ url: receiver.url, stores: [storeId] }],
    });
    const first = (await sim('POST', '/sim/orders', TACOS)).json.order_id;
    const second = (await sim('POST', '/sim/orders', TACOS)).json.order_id;
    const third = (await sim('POST', '/sim/orders', TACOS)).json.order_id;
    await api('GET', `${ORDERS}/orders`);
    await api('PUT', order(`${first}/take`));

    await sim('POST', '/sim/webhook-faults', { twice: 1 });
    assert.equal(
      (await sim('POST', `/sim/orders/${first}/cancel`, { event: 'cancel_by_support' })).status,
      200,
    );
    await sim('GET', '/sim/deliveries');
    assert.equal(receiver.received.length, 2);
    assert.equal(receiver.received[0]?.body, receiver.received[1]?.body);
    assert.deepEqual(JSON.parse(receiver.received[0]?.body ?? ''), {
      event: 'cancel_by_support',
      order_id: first,
      store_id: storeId,
    });
    assert.ok(
      verify(hook.json[0].secret, receiver.received[0]?.signature ?? '', receiver.received[0]?.body ?? ''),
    );
    const afterCancel = await api('POST', order(`${first}/ready-for-pickup`));
    assert.match(afterCancel.json.message, /from CANCELED/);

    await sim('POST', '/sim/webhook-faults', { outOfOrder: 1 });
    await sim('POST', `/sim/orders/${second}/cancel`);
    await sim('POST', `/sim/orders/${third}/cancel`);
    await sim('GET', '/sim/deliveries');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(
      receiver.received.slice(2).map((delivery) => JSON.parse(delivery.body).order_id),
      [third, second],
    );
  });

  it('does the work of a call whose answer is lost, and fails or slows calls when told', async (t) => {
    const { api, sim, order } = await startSimulator(t);
    const id = (await sim('POST', '/sim/orders', TACOS)).json.order_id;

    await sim('POST', '/sim/faults', { fail5xx: 1 });
    assert.equal((await api('GET', `${ORDERS}/orders`)).status, 500);
    const read = await api('GET', `${ORDERS}/orders`);
    assert.equal(read.json.length, 1, 'a 500 hands nothing out and starts no interval');

    await sim('POST', '/sim/faults', { loseAnswer: 1, only: { loseAnswer: 'take$' } });
    await assert.rejects(api('PUT', order(`${id}/cooking_time/25/take`)));
    const state = (await sim('GET', `/sim/orders/${id}`)).json;
    assert.equal(state.status, 'TAKEN');
    assert.equal(state.cooking_time, 25);
    const retry = await api('PUT', order(`${id}/cooking_time/25/take`));
    assert.equal(retry.status, 400);
    assert.match(retry.json.message, /from TAKEN/);

    await sim('POST', '/sim/faults', { slow: 1, delayMs: 150 });
    const started = Date.now();
    assert.equal((await api('POST', order(`${id}/ready-for-pickup`))).status, 200);
    assert.ok(Date.now() - started >= 140);
  });

  it('keeps the orders of a read whose answer was lost in orders/status/sent', async (t) => {
    const { api, sim } = await startSimulator(t);
    const id = (await sim('POST', '/sim/orders', TACOS)).json.order_id;
    await sim('POST', '/sim/faults', { loseAnswer: 1 });
    await assert.rejects(api('GET', `${ORDERS}/orders`));
    assert.equal((await sim('GET', `/sim/orders/${id}`)).json.status, 'SENT');
    const sent = await api('GET', `${ORDERS}/orders/status/sent`);
    assert.deepEqual(
      sent.json.map((order: Json) => order.order_detail.order_id),
      [id],
    );
    assert.equal((await sim('POST', '/sim/faults', { fail5xx: -1 })).status, 400);
  });

  it('stops at once while a webhook waits for its next attempt', async (t) => {
    const simulator = await RappiSimulator.start({ webhookRetryDelayMs: 60_000 });
    const receiver = await startReceiver(t, [500]);
    const storeId = simulator.platform.stores[0]?.id ?? '';
    simulator.hub.register('NEW_ORDER', receiver.url, [storeId]);
    simulator.platform.place(TACOS);
    while (receiver.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const started = Date.now();
    await simulator.stop();
    assert.ok(Date.now() - started < 5_000);
    assert.equal(receiver.received.length, 1);
  });
});
