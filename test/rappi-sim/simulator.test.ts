import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { manualClock } from '../../src/core/clock';
import { ANSWER_DEADLINE_MS } from './orders';
import { RappiSimulator, READ_GAP_MS, TOKEN_LIFETIME_SECONDS } from './simulator';

type TestContext = { after: (fn: () => Promise<void> | void) => void };

// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary fields.
const json = async (response: Response | Promise<Response>): Promise<any> => (await response).json();

async function startSimulator(t: TestContext) {
  const clock = manualClock(Date.parse('2026-11-28T18:00:00Z'));
  const simulator = await RappiSimulator.start({ now: clock.now });
  t.after(() => simulator.stop());
  const login = (secret = simulator.clientSecret) =>
    fetch(`${simulator.url}/restaurants/auth/v1/token/login/integrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: simulator.clientId, client_secret: secret }),
    });
  const token = (await json(login())).access_token as string;
  const call = (method: string, path: string, body?: unknown, bearer: string | null = token) =>
    fetch(`${simulator.url}${path}`, {
      method,
      headers: {
        ...(bearer !== null && { 'x-authorization': `Bearer ${bearer}` }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  const control = (path: string, body: unknown = {}) =>
    json(
      fetch(`${simulator.url}/sim${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
  const state = () => json(fetch(`${simulator.url}/sim/state`));
  const orderPath = (orderId: string, action: string) =>
    `/restaurants/orders/v1/stores/${simulator.store.id}/orders/${orderId}/${action}`;
  return { simulator, clock, login, call, control, state, orderPath };
}

const ORDER = {
  products: [
    {
      sku: 'dish-7',
      name: 'Taco al pastor',
      price: 25,
      quantity: 2,
      comments: 'sin cebolla',
      toppings: [{ sku: 'opt-3', name: 'Salsa verde', price: 5 }],
    },
  ],
  customer: { first_name: 'Lucía', last_name: 'Pérez' },
  cooking_time: 15,
  min_cooking_time: 10,
  max_cooking_time: 30,
};

describe('Rappi simulator', () => {
  it('logs integrations in for a week and refuses calls without the token', async (t) => {
    const { login, call, clock } = await startSimulator(t);
    const answer = await json(login());
    assert.equal(answer.expires_in, TOKEN_LIFETIME_SECONDS);
    assert.equal((await login('wrong')).status, 401);
    assert.equal((await call('GET', '/restaurants/orders/v1/orders', undefined, null)).status, 401);
    assert.equal((await call('GET', '/restaurants/orders/v1/orders')).status, 200);
    clock.advance(TOKEN_LIFETIME_SECONDS * 1000);
    assert.equal((await call('GET', '/restaurants/orders/v1/orders')).status, 401);
  });

  it('hands out each new order once, in the documented shape, and notes reads under 45 s apart', async (t) => {
    const { simulator, call, control, state, clock } = await startSimulator(t);
    const placed = await control('/orders', ORDER);
    assert.equal(placed.state, 'READY');
    const [order] = await json(call('GET', `/restaurants/orders/v1/stores/${simulator.store.id}/orders`));
    assert.equal(order.order_detail.order_id, placed.order_id);
    assert.equal(order.order_detail.cooking_time, 15);
    assert.equal(order.order_detail.items[0].sku, 'dish-7');
    assert.equal(order.order_detail.items[0].comments, 'sin cebolla');
    assert.equal(order.order_detail.items[0].subitems[0].sku, 'opt-3');
    assert.equal(order.order_detail.totals.total_products, 60);
    assert.equal(order.customer.first_name, 'Lucía');
    assert.equal(order.store.internal_id, simulator.store.id);

    clock.advance(10_000);
    assert.deepEqual(await json(call('GET', '/restaurants/orders/v1/orders')), []);
    clock.advance(READ_GAP_MS);
    await call('GET', '/restaurants/orders/v1/orders');
    const snapshot = await state();
    assert.equal(snapshot.reads.length, 3);
    assert.equal(snapshot.readsTooSoon, 1);
    const sent = await json(call('GET', '/restaurants/orders/v1/orders/status/sent'));
    assert.equal(sent[0].order_detail.order_id, placed.order_id);
  });

  it('takes with a cooking time in range, rejects, marks ready, and times out after 4 minutes', async (t) => {
    const { call, control, state, clock, orderPath } = await startSimulator(t);
    const taken = await control('/orders', ORDER);
    const rejected = await control('/orders', ORDER);
    const late = await control('/orders', ORDER);
    await call('GET', '/restaurants/orders/v1/orders');

    assert.equal((await call('PUT', orderPath(taken.order_id, 'cooking_time/45/take'))).status, 400);
    assert.equal((await call('PUT', orderPath(taken.order_id, 'cooking_time/20/take'))).status, 200);
    assert.equal((await call('POST', orderPath(taken.order_id, 'ready-for-pickup'))).status, 200);
    const rejection = await call('PUT', orderPath(rejected.order_id, 'cancel_type/STORE_CLOSED/reject'), {
      description: 'cerramos temprano',
    });
    assert.equal(rejection.status, 200);

    clock.advance(ANSWER_DEADLINE_MS + 1);
    assert.equal((await call('PUT', orderPath(late.order_id, 'take'))).status, 409);

    const orders = (await state()).orders;
    const stored = (id: string) => orders.find((order: { id: string }) => order.id === id);
    assert.equal(stored(taken.order_id).state, 'READY_FOR_PICKUP');
    assert.equal(stored(taken.order_id).taken.cookingTime, 20);
    assert.equal(stored(rejected.order_id).state, 'REJECTED');
    assert.equal(stored(rejected.order_id).rejected.cancelType, 'STORE_CLOSED');
    assert.equal(stored(late.order_id).state, 'TIMEOUT');
  });

  it('turns SKUs and the store off and on', async (t) => {
    const { simulator, call, state } = await startSimulator(t);
    const stock = `/restaurants/menu/v1/stores/${simulator.store.id}/items/SKU/stock`;
    assert.equal(
      (await call('PATCH', stock, { available: [], unavailable: ['dish-7', 'opt-3'] })).status,
      200,
    );
    await call('PATCH', stock, { available: ['opt-3'], unavailable: [] });
    assert.deepEqual((await state()).store.unavailableSkus, ['dish-7']);

    const enable = '/api/v2/restaurants-integrations-public-api/availability/stores/enable';
    const off = await json(
      call('PUT', enable, { stores: [{ store_id: simulator.store.id, is_enabled: false }] }),
    );
    assert.equal(off.results[0].operation_result_type, 'SUCCESS');
    assert.equal((await state()).store.isEnabled, false);
  });

  it('pushes NEW_ORDER to a registered webhook signed with its own secret, and cancellations', async (t) => {
    const received: { body: string; signature: string }[] = [];
    const hook = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        received.push({ body, signature: String(request.headers['rappi-signature']) });
        response.end('{}');
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise<void>((resolve) => hook.close(() => resolve())));
    const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/rappi`;

    const { simulator, call, control } = await startSimulator(t);
    const registered = await json(
      call('POST', '/api/v2/restaurants-integrations-public-api/webhook', {
        event: 'NEW_ORDER',
        data: [{ url, stores: [simulator.store.id] }],
      }),
    );
    assert.equal(typeof registered.secret, 'string');
    await call('POST', '/api/v2/restaurants-integrations-public-api/webhook', {
      event: 'ORDER_EVENT_CANCEL',
      data: [{ url }],
    });

    const placed = await control('/orders', ORDER);
    assert.equal(placed.state, 'SENT');
    assert.deepEqual(await json(call('GET', '/restaurants/orders/v1/orders')), []);
    await control(`/orders/${placed.order_id}/cancel`, { event: 'cancel_by_user' });
    await simulator.webhooksSettled();

    const [pushed, cancelled] = received;
    assert.ok(pushed !== undefined && cancelled !== undefined);
    const [timestamp, sign] = pushed.signature.split(',').map((part) => part.split('=')[1]);
    const expected = createHmac('sha256', registered.secret)
      .update(`${timestamp}.${pushed.body}`)
      .digest('hex');
    assert.equal(sign, expected);
    assert.equal(JSON.parse(pushed.body).order_detail.order_id, placed.order_id);
    assert.deepEqual(JSON.parse(cancelled.body), {
      event: 'cancel_by_user',
      order_id: placed.order_id,
      store_id: simulator.store.id,
    });
    assert.notEqual(cancelled.signature.split('sign=')[1], undefined);

    await control('/webhooks', { never: 1 });
    const unpushed = await control('/orders', ORDER);
    assert.equal(unpushed.state, 'READY');
  });

  it('posts a webhook twice, or after the next one, when told to', async (t) => {
    const orderIds: string[] = [];
    const hook = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        orderIds.push(JSON.parse(body).order_detail.order_id);
        response.end('{}');
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise<void>((resolve) => hook.close(() => resolve())));
    const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/rappi`;
    const { simulator, call, control } = await startSimulator(t);
    await call('POST', '/api/v2/restaurants-integrations-public-api/webhook', {
      event: 'NEW_ORDER',
      data: [{ url }],
    });

    await control('/webhooks', { twice: 1 });
    const doubled = await control('/orders', ORDER);
    await simulator.webhooksSettled();
    assert.deepEqual(orderIds, [doubled.order_id, doubled.order_id]);

    await control('/webhooks', { outOfOrder: 1 });
    const first = await control('/orders', ORDER);
    const second = await control('/orders', ORDER);
    await simulator.webhooksSettled();
    assert.deepEqual(orderIds.slice(2), [second.order_id, first.order_id]);
  });

  it('loses an answer after taking the order, and fails the next call with 500', async (t) => {
    const { call, control, state, orderPath } = await startSimulator(t);
    const placed = await control('/orders', ORDER);
    await control('/faults', { loseAnswer: 1, fail5xx: 1, only: { fail5xx: 'GET ' } });
    assert.equal((await call('GET', '/restaurants/orders/v1/orders')).status, 500);
    await call('GET', '/restaurants/orders/v1/orders');
    await assert.rejects(call('PUT', orderPath(placed.order_id, 'take')));
    assert.equal((await state()).orders[0].state, 'TAKEN');
  });
});
