import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { manualClock } from '../../src/core/clock';
import { ACCEPT_DEADLINE_MS } from './orders';
import { UberEatsSimulator, type UberEatsSimulatorOptions } from './simulator';
import { MINTS_PER_HOUR, TOKEN_LIFETIME_SECONDS } from './tokens';

type TestContext = { after: (fn: () => Promise<void> | void) => void };

/** The parsed JSON of an answer; the tests assert on its fields. */
// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary fields.
const json = async (response: Response | Promise<Response>): Promise<any> => (await response).json();

const ALL_SCOPES = 'eats.store eats.order eats.store.orders.read eats.store.status.write';

type Received = { body: string; signature: string; environment: string };

/** A local webhook receiver answering with the statuses given, in turn, then 200. */
async function startReceiver(t: TestContext, statuses: number[] = []) {
  const received: Received[] = [];
  const hook = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({
        body,
        signature: String(request.headers['x-uber-signature']),
        environment: String(request.headers['x-environment']),
      });
      response.writeHead(statuses.shift() ?? 200);
      response.end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => hook.close(() => resolve())));
  // biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary fields.
  const events = (): any[] => received.map((entry) => JSON.parse(entry.body));
  return { url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/webhook`, received, events };
}

async function startSimulator(t: TestContext, options: UberEatsSimulatorOptions = {}) {
  const clock = manualClock(Date.parse('2026-11-28T18:00:00Z'));
  const simulator = await UberEatsSimulator.start({ now: clock.now, webhookRetryBaseMs: 5, ...options });
  t.after(() => simulator.stop());
  const mintToken = (scope = ALL_SCOPES, secret = simulator.clientSecret) =>
    fetch(`${simulator.url}/oauth/v2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: simulator.clientId,
        client_secret: secret,
        grant_type: 'client_credentials',
        scope,
      }).toString(),
    });
  const token = (await json(mintToken())).access_token as string;
  const call = (method: string, path: string, body?: unknown, bearer: string | null = token) =>
    fetch(`${simulator.url}${path}`, {
      method,
      headers: {
        ...(bearer !== null && { authorization: `Bearer ${bearer}` }),
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
  return { simulator, clock, mintToken, call, control, state };
}

const MENU = {
  menus: [
    {
      id: 'menu-all-day',
      title: { translations: { es_mx: 'Todo el día' } },
      service_availability: [
        { day_of_week: 'friday', time_periods: [{ start_time: '08:00', end_time: '23:00' }] },
      ],
      category_ids: ['cat-tacos'],
    },
  ],
  categories: [
    {
      id: 'cat-tacos',
      title: { translations: { es_mx: 'Tacos' } },
      entities: [{ id: 'dish-7', type: 'ITEM' }],
    },
  ],
  items: [
    {
      id: 'dish-7',
      external_data: 'dish-7',
      title: { translations: { es_mx: 'Taco al pastor' } },
      price_info: { price: 2500 },
      modifier_group_ids: { ids: ['group-salsa'] },
    },
    {
      id: 'opt-3',
      external_data: 'opt-3',
      title: { translations: { es_mx: 'Salsa verde' } },
      price_info: { price: 500 },
    },
  ],
  modifier_groups: [
    {
      id: 'group-salsa',
      external_data: 'group-salsa',
      title: { translations: { es_mx: 'Salsa' } },
      modifier_options: [{ id: 'opt-3', type: 'ITEM' }],
    },
  ],
};

const ORDER = {
  items: [
    {
      external_id: 'dish-7',
      quantity: 2,
      special_instructions: 'sin cebolla',
      options: [{ external_id: 'opt-3' }],
    },
  ],
  special_instructions: 'tocar el timbre',
  customer: { first_name: 'Lucía', phone: '+52 55 5555 5555' },
};

describe('Uber Eats simulator: tokens', () => {
  it('mints 30-day client-credentials tokens with the scopes asked for', async (t) => {
    const { mintToken } = await startSimulator(t);
    const response = await mintToken('eats.order eats.store');
    assert.equal(response.status, 200);
    const body = await json(response);
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, TOKEN_LIFETIME_SECONDS);
    assert.equal(body.expires_in, 2_592_000);
    assert.equal(body.scope, 'eats.order eats.store');
    assert.equal((await mintToken(ALL_SCOPES, 'wrong-secret')).status, 401);
    assert.equal((await mintToken('eats.nothing')).status, 400);
  });

  it('answers 429 past 100 tokens an hour, and mints again an hour later', async (t) => {
    const { mintToken, clock } = await startSimulator(t);
    // startSimulator minted one already.
    for (let minted = 1; minted < MINTS_PER_HOUR; minted += 1) assert.equal((await mintToken()).status, 200);
    const refused = await mintToken();
    assert.equal(refused.status, 429);
    clock.advance(60 * 60 * 1000 + 1);
    assert.equal((await mintToken()).status, 200);
  });

  it('refuses every API call without a live Bearer token with 401, and a missing scope with 403', async (t) => {
    const { simulator, call, mintToken, clock } = await startSimulator(t);
    const storePath = `/v1/eats/store/${simulator.store.id}/status`;
    assert.equal((await call('GET', storePath, undefined, null)).status, 401);
    assert.equal((await call('GET', storePath, undefined, 'made-up')).status, 401);
    assert.equal((await call('PUT', `/v2/eats/stores/${simulator.store.id}/menus`, MENU, null)).status, 401);
    assert.equal((await call('POST', '/v1/eats/orders/x/accept_pos_order', {}, null)).status, 401);
    const readOnly = (await json(mintToken('eats.store.orders.read'))).access_token;
    assert.equal((await call('POST', storePath, { status: 'ONLINE' }, readOnly)).status, 403);
    assert.equal((await call('GET', storePath)).status, 200);
    clock.advance(TOKEN_LIFETIME_SECONDS * 1000);
    const expired = await call('GET', storePath);
    assert.equal(expired.status, 401);
    assert.equal((await json(expired)).code, 'unauthorized');
  });
});

describe('Uber Eats simulator: order webhooks', () => {
  it('signs orders.notification with the client secret and resends it until answered 200', async (t) => {
    const receiver = await startReceiver(t, [500, 503]);
    const { simulator, control } = await startSimulator(t, { webhookUrl: receiver.url });
    const placed = await control('/orders', ORDER);
    await simulator.webhooksSettled();

    assert.equal(receiver.received.length, 3);
    for (const delivery of receiver.received) {
      const expected = createHmac('sha256', simulator.clientSecret).update(delivery.body).digest('hex');
      assert.equal(delivery.signature, expected);
      assert.equal(delivery.environment, 'sandbox');
    }
    const [event] = receiver.events();
    assert.equal(event.event_type, 'orders.notification');
    assert.equal(event.meta.resource_id, placed.order_id);
    assert.equal(event.meta.user_id, simulator.store.id);
    assert.equal(event.resource_href, `${simulator.url}/v2/eats/order/${placed.order_id}`);
    assert.equal(typeof event.event_time, 'number');
    assert.equal(new Set(receiver.events().map((sent) => sent.event_id)).size, 1);
    assert.deepEqual(
      simulator.webhooks.deliveries.map((delivery) => [delivery.attempt, delivery.status]),
      [
        [1, 500],
        [2, 503],
        [3, 200],
      ],
    );
  });

  it('gives up after 7 sends without a 200', async (t) => {
    const receiver = await startReceiver(t, [500, 500, 500, 500, 500, 500, 500, 500]);
    const { simulator, control } = await startSimulator(t, { webhookUrl: receiver.url });
    await control('/orders', ORDER);
    await simulator.webhooksSettled();
    assert.equal(receiver.received.length, 7);
  });

  it('sends an event twice, never, or after the next one when told to', async (t) => {
    const receiver = await startReceiver(t);
    const { simulator, control, call } = await startSimulator(t, { webhookUrl: receiver.url });

    await control('/webhooks', { twice: 1 });
    const twice = await control('/orders', ORDER);
    await simulator.webhooksSettled();
    const twiceEvents = receiver.events().filter((event) => event.meta.resource_id === twice.order_id);
    assert.equal(twiceEvents.length, 2);
    assert.equal(twiceEvents[0].event_id, twiceEvents[1].event_id);

    await control('/webhooks', { never: 1 });
    const never = await control('/orders', ORDER);
    await simulator.webhooksSettled();
    assert.equal(receiver.events().filter((event) => event.meta.resource_id === never.order_id).length, 0);
    const created = await json(call('GET', `/v1/eats/stores/${simulator.store.id}/created-orders`));
    assert.ok(created.orders.some((order: { id: string }) => order.id === never.order_id));

    await control('/webhooks', { outOfOrder: 1 });
    const first = await control('/orders', ORDER);
    await simulator.webhooksSettled();
    assert.equal(receiver.events().filter((event) => event.meta.resource_id === first.order_id).length, 0);
    const second = await control('/orders', ORDER);
    await simulator.webhooksSettled();
    const lastTwo = receiver
      .events()
      .slice(-2)
      .map((event) => event.meta.resource_id);
    assert.deepEqual(lastTwo, [second.order_id, first.order_id]);
  });
});

describe('Uber Eats simulator: orders', () => {
  it('serves the order details in the documented shape, items mapped by external_data', async (t) => {
    const { simulator, call, control } = await startSimulator(t);
    assert.equal((await call('PUT', `/v2/eats/stores/${simulator.store.id}/menus`, MENU)).status, 204);
    const placed = await control('/orders', ORDER);
    const order = await json(call('GET', `/v2/eats/order/${placed.order_id}`));

    assert.equal(order.id, placed.order_id);
    assert.equal(order.display_id, placed.display_id);
    assert.equal(order.current_state, 'CREATED');
    assert.equal(order.eater.first_name, 'Lucía');
    assert.equal(order.cart.special_instructions, 'tocar el timbre');
    const [item] = order.cart.items;
    assert.equal(item.external_data, 'dish-7');
    assert.equal(item.title, 'Taco al pastor');
    assert.equal(item.quantity, 2);
    assert.equal(item.special_instructions, 'sin cebolla');
    assert.deepEqual(item.price.unit_price, {
      amount: 2500,
      currency_code: 'MXN',
      formatted_amount: '$25.00',
    });
    const [group] = item.selected_modifier_groups;
    assert.equal(group.external_data, 'group-salsa');
    assert.equal(group.selected_items[0].external_data, 'opt-3');
    assert.equal(group.selected_items[0].title, 'Salsa verde');
    assert.equal(order.payment.charges.sub_total.amount, 6000);
    assert.equal(order.payment.charges.total.amount, 6000);
    assert.equal(order.estimated_ready_for_pickup_at, '2026-11-28T18:15:00Z');
    assert.equal((await call('GET', '/v2/eats/order/not-an-order')).status, 404);
  });

  it('accepts within 11.5 minutes; after them the platform has cancelled the order and accept fails', async (t) => {
    const receiver = await startReceiver(t);
    const { simulator, call, control, clock, state } = await startSimulator(t, { webhookUrl: receiver.url });
    const onTime = await control('/orders', ORDER);
    const late = await control('/orders', ORDER);

    clock.advance(ACCEPT_DEADLINE_MS - 1000);
    const accepted = await call('POST', `/v1/eats/orders/${onTime.order_id}/accept_pos_order`, {
      reason: 'auto-accept',
      external_reference_id: 'pos-41',
    });
    assert.equal(accepted.status, 204);

    clock.advance(2000);
    const tooLate = await call('POST', `/v1/eats/orders/${late.order_id}/accept_pos_order`, {
      reason: 'late',
    });
    assert.equal(tooLate.status, 409);
    assert.match((await json(tooLate)).message, /11\.5 minutes/);

    const orders = (await state()).orders;
    const stored = (id: string) => orders.find((order: { id: string }) => order.id === id);
    assert.equal(stored(onTime.order_id).state, 'ACCEPTED');
    assert.equal(stored(onTime.order_id).accepted.externalReferenceId, 'pos-41');
    assert.equal(stored(late.order_id).state, 'CANCELED');
    assert.equal(stored(late.order_id).cancelled.by, 'timeout');
    const details = await json(call('GET', `/v2/eats/order/${onTime.order_id}`));
    assert.equal(details.external_reference_id, 'pos-41');

    await simulator.webhooksSettled();
    const cancels = receiver.events().filter((event) => event.event_type === 'orders.cancel');
    assert.deepEqual(
      cancels.map((event) => event.meta.resource_id),
      [late.order_id],
    );
  });

  it('denies with a documented reason code; a second answer is a conflict', async (t) => {
    const { call, control, state } = await startSimulator(t);
    const placed = await control('/orders', ORDER);
    const path = `/v1/eats/orders/${placed.order_id}/deny_pos_order`;
    assert.equal((await call('POST', path, { reason: { code: 'NOT_A_CODE' } })).status, 400);
    const denied = await call('POST', path, {
      reason: { code: 'ITEM_AVAILABILITY', explanation: 'sin pastor', out_of_stock_items: ['dish-7'] },
    });
    assert.equal(denied.status, 204);
    assert.equal((await call('POST', `/v1/eats/orders/${placed.order_id}/accept_pos_order`, {})).status, 409);
    const [order] = (await state()).orders;
    assert.equal(order.state, 'DENIED');
    assert.deepEqual(order.denied.outOfStockItems, ['dish-7']);
  });

  it('lets the store cancel a live order (404 once it is over), marks it ready, and tells of platform cancels', async (t) => {
    const receiver = await startReceiver(t);
    const { simulator, call, control, state } = await startSimulator(t, { webhookUrl: receiver.url });
    const mine = await control('/orders', ORDER);
    const cancelPath = `/v1/eats/orders/${mine.order_id}/cancel`;
    assert.equal((await call('POST', cancelPath, { reason: 'KITCHEN_CLOSED' })).status, 200);
    assert.equal((await call('POST', cancelPath, { reason: 'KITCHEN_CLOSED' })).status, 404);

    const cooked = await control('/orders', ORDER);
    const readyPath = `/v1/delivery/order/${cooked.order_id}/ready`;
    assert.equal((await call('POST', readyPath, {})).status, 409);
    await call('POST', `/v1/eats/orders/${cooked.order_id}/accept_pos_order`, { reason: 'ok' });
    assert.equal((await call('POST', readyPath, {})).status, 200);

    const theirs = await control('/orders', ORDER);
    await control(`/orders/${theirs.order_id}/cancel`, { reason: 'CUSTOMER_CALLED_TO_CANCEL' });
    await simulator.webhooksSettled();

    const orders = (await state()).orders;
    const stored = (id: string) => orders.find((order: { id: string }) => order.id === id);
    assert.equal(stored(mine.order_id).cancelled.by, 'store');
    assert.equal(typeof stored(cooked.order_id).readyAt, 'number');
    assert.equal(stored(theirs.order_id).cancelled.by, 'platform');
    const cancelled = receiver
      .events()
      .filter((event) => event.event_type === 'orders.cancel')
      .map((event) => event.meta.resource_id);
    assert.deepEqual(cancelled.sort(), [mine.order_id, theirs.order_id].sort());
    const list = await json(call('GET', `/v1/eats/stores/${simulator.store.id}/canceled-orders`));
    assert.equal(list.orders.length, 2);
  });
});

describe('Uber Eats simulator: menu and store', () => {
  it('takes a menu upload and item suspensions, readable through /sim/state', async (t) => {
    const { simulator, call, state, clock } = await startSimulator(t);
    const menuPath = `/v2/eats/stores/${simulator.store.id}/menus`;
    const itemPath = `${menuPath}/items/dish-7`;
    assert.equal(
      (await call('POST', itemPath, { suspension_info: { suspension: { suspend_until: 1 } } })).status,
      404,
    );
    const broken = structuredClone(MENU);
    broken.categories[0]?.entities.push({ id: 'dish-missing', type: 'ITEM' });
    assert.equal((await call('PUT', menuPath, broken)).status, 400);
    assert.equal((await call('PUT', menuPath, MENU)).status, 204);
    assert.equal((await call('PUT', `/v2/eats/stores/other-store/menus`, MENU)).status, 404);

    const until = Math.floor(clock.now() / 1000) + 3600;
    const suspended = await call('POST', itemPath, {
      suspension_info: { suspension: { suspend_until: until, reason: 'agotado' } },
    });
    assert.equal(suspended.status, 204);
    const snapshot = await state();
    assert.equal(snapshot.store.menuUploads, 1);
    assert.equal(snapshot.store.menu.items.length, 2);
    assert.deepEqual(snapshot.store.suspendedItems, [
      { itemId: 'dish-7', suspendUntil: until, reason: 'agotado' },
    ]);

    await call('POST', itemPath, { suspension_info: { suspension: { suspend_until: 0 } } });
    assert.deepEqual((await state()).store.suspendedItems, []);
    assert.equal((await call('POST', `${menuPath}/items/nope`, { suspension_info: {} })).status, 404);
  });

  it('pauses the store until paused_until, then it is online again', async (t) => {
    const { simulator, call, state, clock } = await startSimulator(t);
    const statusPath = `/v1/eats/store/${simulator.store.id}/status`;
    const until = new Date(clock.now() + 20 * 60 * 1000).toISOString();
    assert.equal((await call('POST', statusPath, { status: 'PAUSED', paused_until: 'soon' })).status, 400);
    const paused = await call('POST', statusPath, {
      status: 'PAUSED',
      paused_until: until,
      reason: 'cocina llena',
    });
    assert.equal(paused.status, 204);
    assert.deepEqual(await json(call('GET', statusPath)), {
      status: 'OFFLINE',
      offlineReason: 'PAUSED_BY_RESTAURANT',
    });
    assert.equal((await state()).store.pausedUntil, until);
    clock.advance(20 * 60 * 1000);
    assert.deepEqual(await json(call('GET', statusPath)), { status: 'ONLINE' });
  });
});

describe('Uber Eats simulator: faults', () => {
  it('answers the next call 500 without doing the work', async (t) => {
    const { call, control, state } = await startSimulator(t);
    const placed = await control('/orders', ORDER);
    await control('/faults', { fail5xx: 1 });
    const path = `/v1/eats/orders/${placed.order_id}/accept_pos_order`;
    assert.equal((await call('POST', path, { reason: 'x' })).status, 500);
    assert.equal((await state()).orders[0].state, 'CREATED');
    assert.equal((await call('POST', path, { reason: 'x' })).status, 204);
  });

  it('loses the answer after the work was done', async (t) => {
    const { call, control, state } = await startSimulator(t);
    const placed = await control('/orders', ORDER);
    await control('/faults', { loseAnswer: 1, only: { loseAnswer: 'accept_pos_order$' } });
    await assert.rejects(
      call('POST', `/v1/eats/orders/${placed.order_id}/accept_pos_order`, { reason: 'x' }),
    );
    assert.equal((await state()).orders[0].state, 'ACCEPTED');
    const order = await json(call('GET', `/v2/eats/order/${placed.order_id}`));
    assert.equal(order.current_state, 'ACCEPTED');
  });

  it('answers slowly when told to', async (t) => {
    const { simulator, call, control } = await startSimulator(t);
    await control('/faults', { delayMs: 150 });
    const started = performance.now();
    assert.equal((await call('GET', `/v1/eats/store/${simulator.store.id}/status`)).status, 200);
    assert.ok(performance.now() - started >= 140);
  });
});
