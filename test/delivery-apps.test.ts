import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { loadConfig } from '../src/config';
import { manualClock } from '../src/core/clock';
import { PlatformError, type PlatformMenu } from '../src/core/delivery-platform';
import { deliveryPlatformsFromConfig } from '../src/delivery-apps/delivery-apps';
import { RappiClient } from '../src/delivery-apps/rappi.client';
import { UberEatsClient } from '../src/delivery-apps/ubereats.client';
import { RappiSimulator } from './rappi-sim/simulator';
import { signRappi } from './rappi-sim/webhooks';
import { UberEatsSimulator } from './ubereats-sim/simulator';
import { TOKEN_LIFETIME_SECONDS } from './ubereats-sim/tokens';
import { signatureOf } from './ubereats-sim/webhooks';

// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary fields.
type Json = any;

const retryable = (error: unknown) => error instanceof PlatformError && error.isRetryable;
const refused = (error: unknown) => error instanceof PlatformError && !error.isRetryable;

async function post(url: string, body: unknown): Promise<Json> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return response.json();
}

const MENU: PlatformMenu = {
  currency: 'MXN',
  categories: [{ id: 'c1', name: 'Tacos', dishIds: ['d1', 'd2'] }],
  dishes: [
    {
      id: 'd1',
      name: 'Taco al pastor',
      description: 'Con piña',
      priceCents: 2500,
      photoUrl: 'https://example.com/pastor.jpg',
      modifierGroupIds: ['g1'],
      isAvailable: true,
    },
    {
      id: 'd2',
      name: 'Gringa',
      description: null,
      priceCents: 6000,
      photoUrl: null,
      modifierGroupIds: [],
      isAvailable: false,
    },
  ],
  modifierGroups: [
    {
      id: 'g1',
      name: 'Salsa',
      minChoices: 0,
      maxChoices: 2,
      options: [{ id: 'o1', name: 'Salsa verde', priceCents: 500, isAvailable: true }],
    },
  ],
  hours: [{ weekday: 5, opens: '08:00', closes: '23:00' }],
};

async function startUber(t: TestContext, timeoutMs = 2_000) {
  const clock = manualClock(Date.parse('2026-11-28T18:00:00Z'));
  const simulator = await UberEatsSimulator.start({ now: clock.now });
  t.after(() => simulator.stop());
  const options = {
    clientId: simulator.clientId,
    clientSecret: simulator.clientSecret,
    storeId: simulator.store.id,
    apiUrl: simulator.url,
    authUrl: simulator.url,
    timeoutMs,
    now: clock.now,
  };
  const client = new UberEatsClient(options);
  const tokenRequests = () =>
    simulator.requests().filter((request) => request.path === '/oauth/v2/token').length;
  const placeOrder = async (body: Json = {}): Promise<string> =>
    (
      await post(`${simulator.url}/sim/orders`, {
        items: [
          {
            external_id: 'd1',
            quantity: 2,
            special_instructions: 'sin cebolla',
            options: [{ external_id: 'o1' }],
          },
        ],
        special_instructions: 'tocar el timbre',
        customer: { first_name: 'Lucía' },
        ...body,
      })
    ).order_id;
  const orderState = (id: string) => simulator.orders.get(id);
  return { clock, simulator, options, client, tokenRequests, placeOrder, orderState };
}

describe('Uber Eats client', () => {
  it('keeps its token across calls, shares one fetch, and fetches another after it expires', async (t) => {
    const { clock, client, tokenRequests } = await startUber(t);
    await Promise.all([client.readOrders(), client.readCancelledOrderIds(), client.readOrders()]);
    await client.readOrders();
    assert.equal(tokenRequests(), 1);
    clock.advance(TOKEN_LIFETIME_SECONDS * 1000);
    await client.readOrders();
    assert.equal(tokenRequests(), 2);
  });

  it('drops a token Uber no longer takes and retries the call once with a new one', async (t) => {
    const { simulator, client, tokenRequests } = await startUber(t);
    await client.readOrders();
    simulator.tokens.revokeAll();
    assert.deepEqual(await client.readOrders(), []);
    assert.equal(tokenRequests(), 2);
  });

  it('reports credentials Uber refuses as its no, in its words, and mints nothing', async (t) => {
    const { simulator, options } = await startUber(t);
    const wrong = new UberEatsClient({ ...options, clientSecret: 'not-the-secret' });
    await assert.rejects(
      wrong.readOrders(),
      (error) =>
        refused(error) &&
        (error as PlatformError).status === 401 &&
        /client ID or secret/.test(String(error)),
    );
    assert.equal(simulator.tokens.minted, 0);
  });

  it('verifies X-Uber-Signature over the raw body and reads the events', async (t) => {
    const { simulator, client } = await startUber(t);
    const event = (type: string) =>
      JSON.stringify({
        event_id: `e-${type}`,
        event_type: type,
        event_time: 1,
        meta: { resource_id: 'order-1', status: 'pos', user_id: simulator.store.id },
        resource_href: 'x',
      });
    const signed = (body: string) => ({ 'x-uber-signature': signatureOf(body, simulator.clientSecret) });
    const notification = event('orders.notification');
    assert.deepEqual(client.verifyWebhook(notification, signed(notification)), [
      { kind: 'order', eventId: 'e-orders.notification', orderId: 'order-1', order: null },
    ]);
    const cancel = event('orders.cancel');
    assert.deepEqual(client.verifyWebhook(cancel, signed(cancel)), [
      { kind: 'cancel', eventId: 'e-orders.cancel', orderId: 'order-1' },
    ]);
    const other = event('store.provisioned');
    assert.deepEqual(client.verifyWebhook(other, signed(other)), [
      { kind: 'other', eventId: 'e-store.provisioned' },
    ]);
    assert.equal(client.verifyWebhook(`${notification} `, signed(notification)), null);
    assert.equal(client.verifyWebhook(notification, { 'x-uber-signature': 'f'.repeat(64) }), null);
    assert.equal(client.verifyWebhook(notification, { 'x-uber-signature': 'not hex' }), null);
    assert.equal(client.verifyWebhook(notification, {}), null);
  });

  it('publishes the menu in Uber’s format, our ids in external_data, prices in centavos', async (t) => {
    const { simulator, client } = await startUber(t);
    await client.publishMenu(MENU);
    const menu = simulator.store.menu as Json;
    const dish = menu.items.find((item: Json) => item.external_data === 'd1');
    assert.equal(dish.price_info.price, 2500);
    assert.deepEqual(dish.modifier_group_ids, { ids: ['group-g1'] });
    assert.equal(menu.items.find((item: Json) => item.external_data === 'o1').price_info.price, 500);
    assert.deepEqual(menu.menus[0].service_availability, [
      { day_of_week: 'friday', time_periods: [{ start_time: '08:00', end_time: '23:00' }] },
    ]);
    assert.deepEqual(
      simulator.store.suspendedItems().map((item) => item.itemId),
      ['dish-d2'],
    );
  });

  it('maps an order: items, options, notes, amounts, code and first name', async (t) => {
    const { clock, client, placeOrder } = await startUber(t);
    await client.publishMenu(MENU);
    const id = await placeOrder();
    const order = await client.getOrder(id);
    assert.equal(order.id, id);
    assert.equal(order.code, id.replaceAll('-', '').slice(-5).toUpperCase());
    assert.equal(order.customerFirstName, 'Lucía');
    assert.equal(order.state, 'new');
    assert.equal(order.placedAt, clock.now());
    assert.equal(order.pickupAt, clock.now() + 15 * 60_000);
    assert.equal(order.notes, 'tocar el timbre');
    assert.equal(order.subtotalCents, 6000);
    assert.deepEqual(order.items, [
      {
        externalId: 'd1',
        name: 'Taco al pastor',
        quantity: 2,
        unitPriceCents: 3000,
        options: [{ externalId: 'o1', name: 'Salsa verde', quantity: 1, unitPriceCents: 500 }],
        notes: 'sin cebolla',
      },
    ]);
    assert.deepEqual(
      (await client.readOrders()).map((read) => read.id),
      [id],
    );
  });

  it('accepts with the pickup time in Unix seconds, once however often it is asked', async (t) => {
    const { clock, client, placeOrder, orderState } = await startUber(t);
    const id = await placeOrder();
    const pickupAt = clock.now() + 20 * 60_000;
    await client.accept({ id, pickupAt, cookingMinutes: 20 });
    await client.accept({ id, pickupAt, cookingMinutes: 20 });
    assert.equal(orderState(id).state, 'ACCEPTED');
    assert.equal(orderState(id).accepted?.pickupTime, pickupAt / 1000);
    await client.markReady(id);
    await client.markReady(id);
    assert.ok(orderState(id).readyAt !== undefined);
    await client.cancel(id, 'se acabó el gas');
    await client.cancel(id, 'se acabó el gas');
    assert.equal(orderState(id).state, 'CANCELED');
    assert.equal(orderState(id).cancelled?.details, 'se acabó el gas');
    await assert.rejects(client.accept({ id, pickupAt, cookingMinutes: 20 }), refused);
    await assert.rejects(client.markReady(id), refused);
  });

  it('denies naming unknown items, repeat-safe; an accepted order is not denied', async (t) => {
    const { clock, client, placeOrder, orderState } = await startUber(t);
    const denied = await placeOrder();
    const reason = { explanation: 'no lo tenemos', unknownItems: ['x-9'] };
    await client.deny(denied, reason);
    await client.deny(denied, reason);
    assert.deepEqual(orderState(denied).denied?.invalidItems, ['x-9']);
    assert.equal(orderState(denied).denied?.code, 'MISSING_ITEM');
    const accepted = await placeOrder();
    await client.accept({ id: accepted, pickupAt: clock.now(), cookingMinutes: 10 });
    await assert.rejects(client.deny(accepted, { explanation: 'no', unknownItems: [] }), refused);
    const cancelled = await placeOrder();
    clock.advance(12 * 60_000);
    assert.deepEqual(await client.readCancelledOrderIds(), [cancelled]);
    await assert.rejects(
      client.accept({ id: cancelled, pickupAt: clock.now(), cookingMinutes: 10 }),
      refused,
    );
  });

  it('suspends dishes and options by our ids, and lifts the suspension', async (t) => {
    const { simulator, client } = await startUber(t);
    await client.publishMenu({
      ...MENU,
      dishes: MENU.dishes.map((dish) => ({ ...dish, isAvailable: true })),
    });
    await client.setAvailability({ dishIds: ['d1'], optionIds: ['o1'], isAvailable: false });
    const suspended = () =>
      simulator.store
        .suspendedItems()
        .map((item) => item.itemId)
        .sort();
    assert.deepEqual(suspended(), ['dish-d1', 'option-o1']);
    await client.setAvailability({ dishIds: ['d1'], optionIds: ['o1'], isAvailable: true });
    assert.deepEqual(suspended(), []);
    await assert.rejects(
      client.setAvailability({ dishIds: ['nope'], optionIds: [], isAvailable: false }),
      refused,
    );
  });

  it('pauses the store until a time and resumes it', async (t) => {
    const { clock, simulator, client } = await startUber(t);
    const until = clock.now() + 20 * 60_000;
    await client.pause(until, 'cocina llena');
    assert.deepEqual(simulator.store.currentStatus(), {
      status: 'PAUSED',
      pausedUntil: until,
      reason: 'cocina llena',
    });
    await client.resume();
    assert.equal(simulator.store.currentStatus().status, 'ONLINE');
  });

  it('reads 5xx, a timeout and a lost answer as retryable, a 4xx as the platform’s no', async (t) => {
    const { simulator, client, placeOrder, orderState, clock } = await startUber(t, 300);
    const id = await placeOrder();
    simulator.setFaults({ fail5xx: 1 });
    await assert.rejects(
      client.getOrder(id),
      (error) => retryable(error) && (error as PlatformError).status === 500,
    );
    simulator.setFaults({ delayMs: 1_000, only: { delayMs: '/v2/eats/order/' } });
    await assert.rejects(client.getOrder(id), (error) => retryable(error) && /timed out/.test(String(error)));
    simulator.setFaults({ delayMs: 0, loseAnswer: 1, only: { loseAnswer: 'accept_pos_order$' } });
    await assert.rejects(client.accept({ id, pickupAt: clock.now(), cookingMinutes: 10 }), retryable);
    assert.equal(orderState(id).state, 'ACCEPTED');
    await client.accept({ id, pickupAt: clock.now(), cookingMinutes: 10 });
    await assert.rejects(
      client.getOrder('no-such-order'),
      (error) =>
        refused(error) && (error as PlatformError).status === 404 && /order not found/.test(String(error)),
    );
  });
});

async function startRappi(t: TestContext) {
  const simulator = await RappiSimulator.start({});
  t.after(() => simulator.stop());
  const storeId = simulator.platform.stores[0]?.id ?? '';
  const client = new RappiClient({
    clientId: 'sim-rappi-client',
    clientSecret: 'sim-rappi-secret',
    storeId,
    apiUrl: simulator.url,
    timeoutMs: 2_000,
    now: () => simulator.now(),
  });
  const placeOrder = async (body: Json = {}): Promise<string> =>
    (
      await post(`${simulator.url}/sim/orders`, {
        items: [
          {
            sku: 'd1',
            name: 'Taco al pastor',
            price: 25.5,
            quantity: 2,
            comments: 'sin cebolla',
            toppings: [{ sku: 'o1', name: 'Salsa verde', price: 5 }],
          },
        ],
        client: { first_name: 'Ana', last_name: 'López' },
        cooking_time: 15,
        min_cooking_time: 10,
        max_cooking_time: 30,
        ...body,
      })
    ).order_id;
  const orderState = (id: string) => simulator.platform.orders.get(id);
  /** Rappi hands new orders out at most every 45 s. */
  const nextRead = () => simulator.advance(45_000);
  return { simulator, client, storeId, placeOrder, orderState, nextRead };
}

describe('Rappi client', () => {
  it('keeps its token until the week is over, then logs in again', async (t) => {
    const { simulator, client, nextRead } = await startRappi(t);
    const logins = () =>
      simulator.received.filter((call) => call.endsWith('/token/login/integrations')).length;
    await Promise.all([client.readOrders(), client.getOrder('1').catch(() => undefined)]);
    nextRead();
    await client.readOrders();
    assert.equal(logins(), 1);
    simulator.advance(7 * 24 * 3_600_000);
    await client.readOrders();
    assert.equal(logins(), 2);
  });

  it('maps an order read once: pesos to centavos, toppings, comments, code and cooking bounds', async (t) => {
    const { client, placeOrder } = await startRappi(t);
    const id = await placeOrder();
    const [order] = await client.readOrders();
    assert.ok(order);
    assert.equal(order.id, id);
    assert.equal(order.code, id);
    assert.equal(order.customerFirstName, 'Ana');
    assert.equal(order.state, 'new');
    assert.equal(order.subtotalCents, 6100);
    assert.deepEqual(order.cookingMinutes, { min: 10, max: 30, suggested: 15 });
    assert.equal(order.pickupAt, order.placedAt + 15 * 60_000);
    assert.deepEqual(order.items, [
      {
        externalId: 'd1',
        name: 'Taco al pastor',
        quantity: 2,
        unitPriceCents: 3050,
        options: [{ externalId: 'o1', name: 'Salsa verde', quantity: 1, unitPriceCents: 500 }],
        notes: 'sin cebolla',
      },
    ]);
    assert.equal((await client.getOrder(id)).id, id);
    await assert.rejects(client.getOrder('404'), refused);
  });

  it('a read sooner than 45 s is a retryable 429 that hands nothing out', async (t) => {
    const { client, placeOrder, nextRead } = await startRappi(t);
    await client.readOrders();
    const id = await placeOrder();
    await assert.rejects(
      client.readOrders(),
      (error) => retryable(error) && (error as PlatformError).status === 429,
    );
    nextRead();
    assert.deepEqual(
      (await client.readOrders()).map((order) => order.id),
      [id],
    );
  });

  it('finds again, through orders/status/sent, an order handed out to a read whose answer was lost', async (t) => {
    const { simulator, client, placeOrder, orderState, nextRead } = await startRappi(t);
    const id = await placeOrder();
    await client.readCancelledOrderIds();
    simulator.faults = { ...simulator.faults, loseAnswer: 1, only: { loseAnswer: '/orders$' } };
    await assert.rejects(client.readOrders(), retryable);
    assert.equal(orderState(id)?.status, 'SENT');
    nextRead();
    assert.deepEqual(
      (await client.readOrders()).map((order) => order.id),
      [id],
    );
  });

  it('takes with the cooking time clamped to the order’s bounds, once however often it is asked', async (t) => {
    const { simulator, client, placeOrder, orderState } = await startRappi(t);
    const id = await placeOrder();
    await client.readOrders();
    simulator.faults = { ...simulator.faults, loseAnswer: 1, only: { loseAnswer: 'take$' } };
    await assert.rejects(client.accept({ id, pickupAt: 0, cookingMinutes: 45 }), retryable);
    await client.accept({ id, pickupAt: 0, cookingMinutes: 45 });
    assert.equal(orderState(id)?.status, 'TAKEN');
    assert.equal(orderState(id)?.takenCookingTime, 30);
    await client.markReady(id);
    await client.markReady(id);
    assert.equal(orderState(id)?.status, 'READY_FOR_PICKUP');
    await assert.rejects(client.deny(id, { explanation: 'no', unknownItems: [] }), refused);
    await assert.rejects(client.cancel(id, 'no'), (error) => refused(error) && /support/.test(String(error)));
  });

  it('rejects naming unknown SKUs, repeat-safe; a timed-out order cannot be taken', async (t) => {
    const { simulator, client, placeOrder, orderState, nextRead } = await startRappi(t);
    const id = await placeOrder();
    await client.readOrders();
    const reason = { explanation: 'no lo tenemos', unknownItems: ['d1'] };
    await client.deny(id, reason);
    await client.deny(id, reason);
    assert.deepEqual(orderState(id)?.rejection, {
      cancelType: 'ITEM_NOT_FOUND',
      reason: 'no lo tenemos',
      itemSkus: ['d1'],
    });
    const late = await placeOrder({ items: [{ sku: 'd3', price: 40 }] });
    nextRead();
    await client.readOrders();
    simulator.advance(4 * 60_000);
    await assert.rejects(client.accept({ id: late, pickupAt: 0, cookingMinutes: 15 }), refused);
    await client.cancel(late, 'tarde');
  });

  it('turns products and toppings off and on by SKU, and the store off and on', async (t) => {
    const { simulator, client } = await startRappi(t);
    const store = () => simulator.platform.stores[0];
    await client.setAvailability({ dishIds: ['d1'], optionIds: ['o1'], isAvailable: false });
    assert.deepEqual([...(store()?.unavailable.products ?? [])], ['d1']);
    assert.deepEqual([...(store()?.unavailable.toppings ?? [])], ['o1']);
    await client.setAvailability({ dishIds: ['d1'], optionIds: ['o1'], isAvailable: true });
    assert.equal(store()?.unavailable.products.size, 0);
    assert.equal(store()?.unavailable.toppings.size, 0);
    await client.pause(Date.now() + 20 * 60_000, 'cocina llena');
    assert.equal(store()?.enabled, false);
    await client.resume();
    assert.equal(store()?.enabled, true);
  });

  it('registers each webhook once, moves it to a new URL, and reads only what its secret signed', async (t) => {
    const { simulator, client } = await startRappi(t);
    const first = await client.webhooks.register('NEW_ORDER', 'http://pos.example/channels/rappi/webhook');
    const again = await client.webhooks.register('NEW_ORDER', 'http://pos.example/channels/rappi/webhook');
    assert.deepEqual(again, first, 'found, not registered twice');
    const moved = await client.webhooks.register('NEW_ORDER', 'http://pos2.example/channels/rappi/webhook');
    const stores = simulator.hub.forEvent('NEW_ORDER').map((webhook) => [webhook.url, [...webhook.stores]]);
    assert.deepEqual(stores, [
      ['http://pos.example/channels/rappi/webhook', []],
      ['http://pos2.example/channels/rappi/webhook', [client.storeId]],
    ]);
    simulator.hub.changeStatus('NEW_ORDER', false, undefined);
    assert.deepEqual(
      await client.webhooks.register('NEW_ORDER', 'http://pos2.example/channels/rappi/webhook'),
      moved,
    );
    assert.ok(simulator.hub.listens('NEW_ORDER', client.storeId), 'a disabled webhook is enabled again');
    const cancel = await client.webhooks.register('ORDER_EVENT_CANCEL', 'http://pos2.example/x');
    const registered = [moved, cancel];
    const body = JSON.stringify({ event: 'cancel_by_user', order_id: '77', store_id: client.storeId });
    const headers = (secret: string) => ({
      'rappi-signature': signRappi(secret, 1_700_000_000, body),
    });
    assert.deepEqual(client.verifyWebhook(body, headers(cancel.secret), registered), [
      { kind: 'cancel', eventId: 'ORDER_EVENT_CANCEL:77', orderId: '77' },
    ]);
    assert.notEqual(moved.secret, first.secret, 'the moved webhook is a new one with its own secret');
    assert.equal(client.verifyWebhook(body, headers(first.secret), registered), null);
    assert.equal(client.verifyWebhook(`${body} `, headers(cancel.secret), registered), null);
    assert.equal(client.verifyWebhook(body, {}, registered), null);
    assert.equal(client.verifyWebhook(body, headers(cancel.secret), []), null);
  });

  it('says the menu is Rappi’s portal’s and reads a 5xx as retryable', async (t) => {
    const { simulator, client } = await startRappi(t);
    await assert.rejects(client.publishMenu(MENU), (error) => refused(error) && /portal/.test(String(error)));
    simulator.faults = { ...simulator.faults, fail5xx: 1 };
    await assert.rejects(
      client.readOrders(),
      (error) => retryable(error) && (error as PlatformError).status === 500,
    );
  });
});

describe('delivery apps from the configuration', () => {
  it('builds a client for each platform configured, with its store, and none for the others', () => {
    const none = deliveryPlatformsFromConfig(loadConfig({}).deliveryApps, Date.now);
    assert.deepEqual(Object.keys(none), []);
    const config = loadConfig({
      POS_UBEREATS_CLIENT_ID: 'uber-id',
      POS_UBEREATS_CLIENT_SECRET: 'uber-secret',
      POS_UBEREATS_STORE_ID: 'uber-store',
      POS_RAPPI_CLIENT_ID: 'rappi-id',
      POS_RAPPI_CLIENT_SECRET: 'rappi-secret',
      POS_RAPPI_STORE_ID: '900100001',
    });
    const platforms = deliveryPlatformsFromConfig(config.deliveryApps, Date.now);
    assert.ok(platforms.ubereats instanceof UberEatsClient);
    assert.equal(platforms.ubereats.storeId, 'uber-store');
    assert.ok(platforms.rappi instanceof RappiClient);
    assert.equal(platforms.rappi.channel, 'rappi');
    assert.equal(platforms.rappi.storeId, '900100001');
  });
});
