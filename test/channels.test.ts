import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';
import { it, type TestContext } from 'node:test';
import { buildApp } from '../src/app';
import { MENU_SETTLE_MS } from '../src/channels/channel-menu';
import type { Clock } from '../src/core/clock';
import { newId } from '../src/core/ids';
import { FISCAL_JOB } from '../src/fiscal/fiscal-job';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import type { DatabaseTarget } from './helpers/database';
import { databaseDigest } from './helpers/db-digest';
import { deliveryAppsEnv } from './helpers/delivery-sims';
import { insertDish } from './helpers/factories';
import { RESTAURANT_FISCAL, startPacSimulator } from './helpers/fiscal-factories';
import { insertIngredient } from './helpers/menu-factories';
import { callerFor } from './helpers/orders-factories';
import { RappiSimulator } from './rappi-sim/simulator';
import { signRappi } from './rappi-sim/webhooks';
import { UberEatsSimulator } from './ubereats-sim/simulator';

// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary fields.
type Json = any;

const INBOX = 'channel-inbox';
const CALLS = 'channel-calls';
const WATCH = 'channel-watch';

async function postJson(url: string, body: unknown): Promise<Json> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.ok(response.ok, `${url}: ${response.status} ${await response.clone().text()}`);
  return response.json();
}

async function getJson(url: string): Promise<Json> {
  return (await fetch(url)).json();
}

/** A port free now, so the server's public URL (POS_PUBLIC_URL) can name it before the server listens. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A restaurant with both delivery apps configured against their simulators, listening for Uber's
 * webhooks on a real port; the simulators share the app's clock where they can take one. With
 * `withPublicUrl`, that port is also POS_PUBLIC_URL, where Rappi's webhooks are registered.
 */
async function deliveryNight(
  t: TestContext,
  target: DatabaseTarget,
  options: { withPac?: boolean; withPublicUrl?: boolean } = {},
) {
  let appClock: Clock | undefined;
  const pac = options.withPac ? await startPacSimulator(t, () => appClock?.now() ?? Date.now()) : undefined;
  const uber = await UberEatsSimulator.start({
    now: () => appClock?.now() ?? Date.now(),
    webhookRetryBaseMs: 20,
  });
  const rappi = await RappiSimulator.start();
  t.after(async () => {
    await uber.stop();
    await rappi.stop();
  });
  const env = deliveryAppsEnv({ uber, rappi });
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const built = await buildTestApp(t, target, {
    env: { ...env, ...pac?.env, ...(options.withPublicUrl && { POS_PUBLIC_URL: publicUrl }) },
  });
  const { app, db, clock } = built;
  appClock = clock;
  await app.listen({ port, host: '127.0.0.1' });
  uber.webhooks.url = `http://127.0.0.1:${port}/channels/ubereats/webhook`;
  const { cookies } = await loggedInUser(app, db, 'admin');
  const call = callerFor(app, cookies);
  const tacos = await insertDish(db, { name: 'Tacos al pastor', priceCents: 8500 });
  const agua = await insertDish(db, { name: 'Agua de jamaica', priceCents: 3000 });
  const run = async (...jobs: string[]) => {
    for (const job of jobs) await app.jobs.run(job);
  };
  const placeUber = async (body: Json) => {
    const placed = await postJson(`${uber.url}/sim/orders`, body);
    await uber.webhooksSettled();
    return placed as { order_id: string; display_id: string };
  };
  const uberOrder = (id: string) =>
    (uber.snapshot().orders as Json[]).find((order) => order.id === id) as Json;
  const ordersOf = (channel: string) =>
    db.selectFrom('orders').selectAll().where('channel', '=', channel).orderBy('created_at').execute();
  return {
    ...built,
    uber,
    rappi,
    pac: pac?.sim,
    env,
    publicUrl,
    call,
    tacos,
    agua,
    run,
    placeUber,
    uberOrder,
    ordersOf,
  };
}

describeEachDatabase('delivery apps', (target) => {
  it('takes an Uber Eats order in once by webhook, accepts it, cooks it and tells Uber it is ready', async (t) => {
    const night = await deliveryNight(t, target);
    const { call, tacos, agua, run, uber, db } = night;
    uber.setWebhookFaults({ twice: 1 });
    const placed = await night.placeUber({
      items: [
        { external_id: tacos.id, quantity: 2, price: 9000, special_instructions: 'sin cebolla' },
        { external_id: agua.id, quantity: 1, price: 3500 },
      ],
      customer: { first_name: 'Lucía' },
    });
    // The webhook was sent twice and answered 200 both times; one inbox row holds it.
    const deliveries = uber.snapshot().webhooks.deliveries as Json[];
    assert.ok(deliveries.filter((delivery) => delivery.status === 200).length >= 2);
    await run(INBOX, INBOX);
    const [order, ...others] = await night.ordersOf('ubereats');
    assert.ok(order);
    assert.equal(others.length, 0, 'one platform order is one POS order');
    assert.equal(order.channel_code, placed.display_id);
    assert.equal(order.customer_first_name, 'Lucía');
    assert.equal(order.channel_state, 'accepted');
    assert.equal(
      Number(order.total_cents),
      2 * 9000 + 3500,
      'the plates carry the prices the platform charged',
    );

    const view = (await call('GET', `/orders/${order.id}/complete`)).json();
    assert.equal(view.order.channel, 'ubereats');
    assert.equal(view.order.channel_code, placed.display_id);
    assert.equal(view.order.balance, 0, 'the platform paid the bill in full');
    assert.deepEqual(
      view.dishes.map((dish: Json) => [dish.dish_name, dish.status, dish.notes]),
      [
        ['Tacos al pastor', 'sent', 'sin cebolla'],
        ['Tacos al pastor', 'sent', 'sin cebolla'],
        ['Agua de jamaica', 'sent', ''],
      ],
    );
    const payments = await db.selectFrom('payments').selectAll().execute();
    assert.deepEqual(
      payments.map((payment) => [payment.method, Number(payment.amount_cents), payment.shift_id]),
      [['ubereats', 21_500, null]],
      "the platform's money, never in a drawer",
    );

    await run(CALLS);
    assert.equal(night.uberOrder(placed.order_id).state, 'ACCEPTED');

    for (const dish of view.dishes) {
      for (const status of ['preparing', 'ready']) {
        const moved = await call('PUT', `/orders/${order.id}/dishes/${dish.id}/status`, { status });
        assert.equal(moved.statusCode, 200, moved.body);
      }
    }
    await run(WATCH, CALLS);
    assert.ok(night.uberOrder(placed.order_id).readyAt, 'Uber was told the order is ready');
    const done = (await call('GET', `/orders/${order.id}`)).json();
    assert.deepEqual([done.status, done.channel_state], ['completed', 'ready']);
  });

  it('accepts once when Uber’s answer to the accept is lost, and within the deadline', async (t) => {
    const night = await deliveryNight(t, target);
    const { tacos, run, uber } = night;
    const placed = await night.placeUber({ items: [{ external_id: tacos.id, price: 8500 }] });
    await run(INBOX);
    uber.setFaults({ loseAnswer: 1, only: { loseAnswer: 'accept_pos_order' } });
    await run(CALLS);
    assert.equal(night.uberOrder(placed.order_id).state, 'ACCEPTED', 'Uber did the work');
    const [call] = await night.db.selectFrom('channel_calls').selectAll().execute();
    assert.equal(call?.state, 'pending', 'the lost answer is retried');
    night.clock.advance(5_000);
    await run(CALLS);
    const calls = await night.db.selectFrom('channel_calls').selectAll().execute();
    assert.deepEqual(
      calls.map((row) => [row.action, row.state]),
      [['accept', 'done']],
    );
    const accepts = uber.requests().filter((request) => request.path.endsWith('/accept_pos_order'));
    assert.equal(accepts.length, 2);
  });

  it('takes an order in after a restart between its webhook and its acceptance', async (t) => {
    const night = await deliveryNight(t, target);
    const placed = await night.placeUber({ items: [{ external_id: night.tacos.id, price: 8500 }] });
    const stored = await night.db.selectFrom('channel_inbox').selectAll().execute();
    assert.equal(stored.length, 1, 'the webhook is stored before it is answered');
    await night.app.close();

    const again = await buildApp(night.config, {
      database: night.database,
      clock: night.clock,
      startJobs: false,
    });
    t.after(() => again.close());
    await again.jobs.run(INBOX);
    await again.jobs.run(CALLS);
    const orders = await night.ordersOf('ubereats');
    assert.equal(orders.length, 1);
    assert.equal(night.uberOrder(placed.order_id).state, 'ACCEPTED');
  });

  it('refuses a webhook with a wrong signature and changes nothing', async (t) => {
    const night = await deliveryNight(t, target);
    const body = JSON.stringify({
      event_id: 'e-forged',
      event_type: 'orders.notification',
      meta: { resource_id: 'forged', status: 'pos', user_id: 'u' },
      resource_href: `${night.uber.url}/v2/eats/order/forged`,
    });
    const before = await databaseDigest(night.db);
    const forged = createHmac('sha256', 'not-the-secret').update(body).digest('hex');
    for (const headers of [{ 'x-uber-signature': forged }, {}]) {
      const response = await night.app.inject({
        method: 'POST',
        url: '/channels/ubereats/webhook',
        headers: { 'content-type': 'application/json', ...headers },
        payload: body,
      });
      assert.equal(response.statusCode, 401);
    }
    assert.equal(await databaseDigest(night.db), before);
  });

  it('reads a Rappi order, takes it once and tells Rappi when it is ready', async (t) => {
    const night = await deliveryNight(t, target);
    const { rappi, run, call } = night;
    const placed = await postJson(`${rappi.url}/sim/orders`, {
      items: [{ sku: night.tacos.id, price: 90, quantity: 1, comments: 'bien dorados' }],
      client: { first_name: 'Ana' },
    });
    const rappiId = String(placed.order_id ?? placed.id);
    await run(WATCH, INBOX, CALLS);
    const [order, ...others] = await night.ordersOf('rappi');
    assert.ok(order);
    assert.equal(others.length, 0);
    assert.equal(order.channel_code, rappiId, "Rappi's order id is what the courier says");
    assert.equal(order.customer_first_name, 'Ana');
    assert.equal(Number(order.total_cents), 9000);
    assert.equal((await getJson(`${rappi.url}/sim/orders/${rappiId}`)).status, 'TAKEN');

    // A second read within the interval reads nothing; the next one finds nothing new.
    await run(WATCH, INBOX);
    night.clock.advance(46_000);
    rappi.advance(46_000);
    await run(WATCH, INBOX);
    assert.equal((await night.ordersOf('rappi')).length, 1);

    const [dish] = (await call('GET', `/orders/${order.id}/dishes`)).json();
    for (const status of ['preparing', 'ready'])
      await call('PUT', `/orders/${order.id}/dishes/${dish.id}/status`, { status });
    await run(WATCH, CALLS);
    assert.equal((await getJson(`${rappi.url}/sim/orders/${rappiId}`)).status, 'READY_FOR_PICKUP');
  });

  it('suspends an 86’d dish on both platforms at the next watch, and lifts it when it is back', async (t) => {
    const night = await deliveryNight(t, target);
    const { call, run, tacos, uber, rappi } = night;
    assert.equal((await call('POST', '/channels/ubereats/menu-sync')).statusCode, 202);
    await run(CALLS);
    assert.equal(uber.snapshot().store.menuUploads, 1);
    const off = await call('PUT', `/dishes/${tacos.id}/availability`, { available: false });
    assert.equal(off.statusCode, 200, off.body);
    await run(WATCH, CALLS);
    const suspended = uber.snapshot().store.suspendedItems as Json[];
    assert.equal(suspended.length, 1);
    const rappiState = await getJson(`${rappi.url}/sim/state`);
    assert.ok(JSON.stringify(rappiState).includes(tacos.id), 'Rappi turned the SKU off');

    await call('PUT', `/dishes/${tacos.id}/availability`, { available: true });
    await run(WATCH, CALLS);
    assert.deepEqual(uber.snapshot().store.suspendedItems, []);
  });

  it('publishes an edited menu again once the edits have stopped for a while', async (t) => {
    const night = await deliveryNight(t, target);
    const { call, run, tacos, uber, clock } = night;
    await run(WATCH, CALLS);
    assert.equal(uber.snapshot().store.menuUploads, 0, 'a menu never published by hand is left alone');
    await call('POST', '/channels/ubereats/menu-sync');
    await run(CALLS);
    await night.db.updateTable('dishes').set({ price_cents: 9500 }).where('id', '=', tacos.id).execute();
    await run(WATCH, CALLS);
    clock.advance(MENU_SETTLE_MS - 1);
    await run(WATCH, CALLS);
    assert.equal(uber.snapshot().store.menuUploads, 1, 'still being edited');
    clock.advance(1);
    await run(WATCH, CALLS);
    assert.equal(uber.snapshot().store.menuUploads, 2);
    await run(WATCH, CALLS);
    assert.equal(uber.snapshot().store.menuUploads, 2, 'published once');
  });

  it('publishes a dish at its Uber Eats price, and again once a changed channel price holds still', async (t) => {
    const night = await deliveryNight(t, target);
    const { call, run, tacos, agua, uber, clock } = night;
    const edit = (channelPrices: Json) =>
      call('PUT', `/dishes/${tacos.id}`, {
        name: 'Tacos al pastor',
        price: 85,
        category_id: tacos.categoryId,
        channel_prices: channelPrices,
      });
    assert.equal((await edit({ ubereats: 99, rappi: 95 })).statusCode, 200);
    const uberPrice = (dishId: string) =>
      ((uber.snapshot().store.menu as Json).items as Json[]).find((item) => item.external_data === dishId)
        .price_info.price;
    await call('POST', '/channels/ubereats/menu-sync');
    await run(CALLS);
    assert.equal(uberPrice(tacos.id), 9900, 'Uber’s own price, not Rappi’s');
    assert.equal(uberPrice(agua.id), 3000, 'a dish without one goes at its price');
    // An eater's cart is priced from the uploaded menu: the order carries what Uber charged.
    await night.placeUber({ items: [{ external_id: tacos.id }] });
    await run(INBOX);
    const [order] = await night.ordersOf('ubereats');
    assert.equal(Number(order?.total_cents), 9900);

    assert.equal((await edit({ ubereats: 105 })).statusCode, 200);
    await run(WATCH, CALLS);
    clock.advance(MENU_SETTLE_MS);
    await run(WATCH, CALLS);
    assert.equal(uber.snapshot().store.menuUploads, 2, 'only a channel price changed, and it is published');
    assert.equal(uberPrice(tacos.id), 10_500);
    assert.equal((await edit({ rappi: 90 })).statusCode, 200);
    await run(WATCH, CALLS);
    clock.advance(MENU_SETTLE_MS);
    await run(WATCH, CALLS);
    assert.equal(uber.snapshot().store.menuUploads, 2, 'Rappi’s price leaves Uber’s menu as it was');
  });

  it('shows an Uber order picked up once Uber says so, asking every 30 s while it is ready', async (t) => {
    const night = await deliveryNight(t, target);
    const { call, run, uber, clock, db } = night;
    const placed = await night.placeUber({ items: [{ external_id: night.tacos.id, price: 8500 }] });
    await run(INBOX, CALLS);
    const [order] = await night.ordersOf('ubereats');
    assert.ok(order);
    const [dish] = (await call('GET', `/orders/${order.id}/dishes`)).json();
    for (const status of ['preparing', 'ready'])
      await call('PUT', `/orders/${order.id}/dishes/${dish.id}/status`, { status });
    await run(WATCH, CALLS);
    // Read from the database: the clock runs past the session's lifetime.
    const stateOf = async () => (await night.ordersOf('ubereats'))[0]?.channel_state;
    assert.equal(await stateOf(), 'ready');
    const reads = () =>
      uber
        .requests()
        .filter((request) => request.method === 'GET' && request.path.endsWith(`/order/${placed.order_id}`))
        .length;
    const readsBefore = reads();

    await postJson(`${uber.url}/sim/orders/${placed.order_id}/finish`, {});
    await run(WATCH);
    assert.equal(reads(), readsBefore, 'not asked before 30 s');
    uber.setFaults({ fail5xx: 1, only: { fail5xx: `GET /v2/eats/order/` } });
    clock.advance(30_000);
    await run(WATCH);
    assert.equal(reads(), readsBefore + 1);
    assert.equal(await stateOf(), 'ready', 'Uber failed: asked again at the next check');
    clock.advance(29_999);
    await run(WATCH);
    assert.equal(reads(), readsBefore + 1);
    clock.advance(1);
    await run(WATCH);
    assert.equal(await stateOf(), 'picked_up');
    const events = await db
      .selectFrom('events')
      .select('payload')
      .where('type', '=', 'order.updated')
      .execute();
    assert.ok(
      events.some((event) => event.payload.includes('"channel_state":"picked_up"')),
      'the screens hear of it',
    );
    clock.advance(30_000);
    await run(WATCH);
    assert.equal(reads(), readsBefore + 2, 'a picked-up order is asked no more');
  });

  it('stops asking about a ready order three hours after it was ready', async (t) => {
    const night = await deliveryNight(t, target);
    const { call, run, uber, clock } = night;
    const placed = await night.placeUber({ items: [{ external_id: night.tacos.id, price: 8500 }] });
    await run(INBOX, CALLS);
    const [order] = await night.ordersOf('ubereats');
    assert.ok(order);
    assert.equal((await call('POST', `/orders/${order.id}/ready`)).statusCode, 200);
    await run(CALLS);
    clock.advance(30_000);
    await run(WATCH);
    assert.equal((await night.ordersOf('ubereats'))[0]?.channel_state, 'ready', 'still ACCEPTED');
    clock.advance(3 * 60 * 60_000);
    await postJson(`${uber.url}/sim/orders/${placed.order_id}/finish`, {});
    await run(WATCH);
    clock.advance(30_000);
    await run(WATCH);
    const [stored] = await night.ordersOf('ubereats');
    assert.deepEqual(
      [stored?.channel_state, stored?.channel_check_at],
      ['ready', null],
      'no longer followed',
    );
  });

  it('leaves a ready Rappi order ready: Rappi’s API shows an order only until it is taken', async (t) => {
    const night = await deliveryNight(t, target);
    const { rappi, run, call, clock } = night;
    await postJson(`${rappi.url}/sim/orders`, {
      items: [{ sku: night.tacos.id, price: 90, quantity: 1 }],
      client: { first_name: 'Ana' },
    });
    await run(WATCH, INBOX, CALLS);
    const [order] = await night.ordersOf('rappi');
    assert.ok(order);
    assert.equal((await call('POST', `/orders/${order.id}/ready`)).statusCode, 200);
    await run(CALLS);
    clock.advance(30_000);
    rappi.advance(30_000);
    await run(WATCH);
    const [stored] = await night.ordersOf('rappi');
    assert.deepEqual([stored?.channel_state, stored?.channel_check_at], ['ready', null]);
  });

  it('registers Rappi’s webhooks once where POS_PUBLIC_URL is set, and never without it', async (t) => {
    const without = await deliveryNight(t, target);
    await without.run(WATCH);
    assert.deepEqual(without.rappi.hub.webhooks, []);
    assert.equal(
      await without.db
        .selectFrom('channel_webhooks')
        .selectAll()
        .execute()
        .then((rows) => rows.length),
      0,
    );

    const night = await deliveryNight(t, target, { withPublicUrl: true });
    const { rappi, run, db, clock } = night;
    await run(WATCH);
    const url = `${night.publicUrl}/channels/rappi/webhook`;
    const storeId = String(night.env.POS_RAPPI_STORE_ID);
    assert.deepEqual(
      rappi.hub.webhooks.map((webhook) => [webhook.event, webhook.url, [...webhook.stores], webhook.enabled]),
      [
        ['NEW_ORDER', url, [storeId], true],
        ['ORDER_EVENT_CANCEL', url, [storeId], true],
      ],
    );
    const kept = await db.selectFrom('channel_webhooks').selectAll().orderBy('event').execute();
    assert.deepEqual(
      kept.map((row) => [row.channel, row.event, row.url, row.secret]),
      rappi.hub.webhooks.map((webhook) => ['rappi', webhook.event, url, webhook.secret]),
      "each event's own secret is kept",
    );
    const calls = () => rappi.received.filter((route) => route.includes('/webhook')).length;
    const registering = calls();
    clock.advance(46_000);
    rappi.advance(46_000);
    await run(WATCH);
    assert.equal(calls(), registering, 'registered once: the next reads ask nothing of the webhooks');

    // The server moves: the next read moves each webhook, and the store still has one per event.
    const moved = await buildApp(
      { ...night.config, publicUrl: 'http://127.0.0.1:1/pos' },
      { database: night.database, clock, startJobs: false },
    );
    t.after(() => moved.close());
    clock.advance(46_000);
    rappi.advance(46_000);
    await moved.jobs.run(WATCH);
    const movedUrl = 'http://127.0.0.1:1/pos/channels/rappi/webhook';
    assert.deepEqual(
      rappi.hub.webhooks
        .filter((webhook) => webhook.stores.has(storeId))
        .map((webhook) => [webhook.event, webhook.url]),
      [
        ['NEW_ORDER', movedUrl],
        ['ORDER_EVENT_CANCEL', movedUrl],
      ],
    );
    const rows = await db.selectFrom('channel_webhooks').select(['event', 'url']).orderBy('event').execute();
    assert.deepEqual(rows, [
      { event: 'NEW_ORDER', url: movedUrl },
      { event: 'ORDER_EVENT_CANCEL', url: movedUrl },
    ]);
  });

  it('registers Rappi’s webhooks again at the next read when Rappi failed to', async (t) => {
    const night = await deliveryNight(t, target, { withPublicUrl: true });
    const { rappi, run, db, clock } = night;
    await postJson(`${rappi.url}/sim/faults`, { fail5xx: 1, only: { fail5xx: 'webhook' } });
    await run(WATCH);
    assert.equal((await db.selectFrom('channel_webhooks').selectAll().execute()).length, 0);
    const [store] = await db
      .selectFrom('channel_stores')
      .selectAll()
      .where('channel', '=', 'rappi')
      .execute();
    assert.match(String(store?.last_error), /Rappi answered 500 .*webhook/);
    await run(WATCH);
    assert.equal(rappi.hub.webhooks.length, 0, 'not before the next read');
    clock.advance(46_000);
    rappi.advance(46_000);
    await run(WATCH);
    assert.deepEqual(
      rappi.hub.webhooks.map((webhook) => webhook.event),
      ['NEW_ORDER', 'ORDER_EVENT_CANCEL'],
    );
    assert.equal((await db.selectFrom('channel_webhooks').selectAll().execute()).length, 2);
  });

  it('takes a Rappi order in once by its webhook, sent twice and also read', async (t) => {
    const night = await deliveryNight(t, target, { withPublicUrl: true });
    const { rappi, run, db, clock } = night;
    await run(WATCH);
    await postJson(`${rappi.url}/sim/webhook-faults`, { twice: 1 });
    const placed = await postJson(`${rappi.url}/sim/orders`, {
      items: [{ sku: night.tacos.id, price: 90, quantity: 2 }],
      client: { first_name: 'Ana' },
    });
    const rappiId = String(placed.order_id);
    const deliveries = (await getJson(`${rappi.url}/sim/deliveries`)) as Json[];
    assert.deepEqual(
      deliveries.map((delivery) => [delivery.event, delivery.status]),
      [
        ['NEW_ORDER', 200],
        ['NEW_ORDER', 200],
      ],
    );
    const inbox = await db.selectFrom('channel_inbox').selectAll().execute();
    assert.deepEqual(
      inbox.map((row) => [row.kind, row.channel_order_id, row.payload !== null]),
      [['order', rappiId, true]],
      'stored once, with the order it carried',
    );
    // The next read sees the order too (Rappi's recently sent orders): still one order.
    clock.advance(46_000);
    rappi.advance(46_000);
    await run(WATCH);
    assert.equal((await db.selectFrom('channel_inbox').selectAll().execute()).length, 2);
    await run(INBOX, CALLS);
    const [order, ...others] = await night.ordersOf('rappi');
    assert.ok(order);
    assert.equal(others.length, 0, 'one platform order is one POS order');
    assert.deepEqual(
      [order.channel_code, order.customer_first_name, order.channel_state, Number(order.total_cents)],
      [rappiId, 'Ana', 'accepted', 18_000],
    );
    assert.equal((await getJson(`${rappi.url}/sim/orders/${rappiId}`)).status, 'TAKEN');
  });

  it('cancels a Rappi order when Rappi’s ORDER_EVENT_CANCEL arrives', async (t) => {
    const night = await deliveryNight(t, target, { withPublicUrl: true });
    const { rappi, run, db, call } = night;
    await run(WATCH);
    const placed = await postJson(`${rappi.url}/sim/orders`, {
      items: [{ sku: night.tacos.id, price: 90, quantity: 1 }],
      client: { first_name: 'Ana' },
    });
    await rappi.hub.settled();
    await run(INBOX, CALLS);
    const [order] = await night.ordersOf('rappi');
    assert.ok(order);
    await postJson(`${rappi.url}/sim/orders/${placed.order_id}/cancel`, {});
    const deliveries = (await getJson(`${rappi.url}/sim/deliveries`)) as Json[];
    assert.deepEqual(
      deliveries.map((delivery) => [delivery.event, delivery.status]),
      [
        ['NEW_ORDER', 200],
        ['ORDER_EVENT_CANCEL', 200],
      ],
    );
    await run(INBOX);
    const cancelled = (await call('GET', `/orders/${order.id}`)).json();
    assert.deepEqual([cancelled.status, cancelled.channel_state], ['cancelled', 'cancelled']);
    const payments = await db.selectFrom('payments').select(['method', 'status']).execute();
    assert.deepEqual(payments, [{ method: 'rappi', status: 'refunded' }], 'refunded in the books');
  });

  it('refuses a Rappi webhook signed with a wrong secret, or none, and changes nothing', async (t) => {
    const night = await deliveryNight(t, target, { withPublicUrl: true });
    await night.run(WATCH);
    const body = JSON.stringify({
      event: 'cancel_by_user',
      order_id: '1',
      store_id: night.env.POS_RAPPI_STORE_ID,
    });
    const before = await databaseDigest(night.db);
    const now = Math.floor(Date.now() / 1000);
    for (const headers of [
      { 'rappi-signature': signRappi('not-the-secret', now, body) },
      { 'rappi-signature': 't=1,sign=zz' },
      {},
    ]) {
      const response = await night.app.inject({
        method: 'POST',
        url: '/channels/rappi/webhook',
        headers: { 'content-type': 'application/json', ...headers },
        payload: body,
      });
      assert.equal(response.statusCode, 401);
    }
    assert.equal(await databaseDigest(night.db), before);
  });

  it('strikes an order Uber cancels: refunded in the books, plates voided, stock back', async (t) => {
    const night = await deliveryNight(t, target);
    const { call, run, uber, db } = night;
    const tortillas = await insertIngredient(db, { name: 'Tortilla' });
    await db
      .insertInto('recipe_lines')
      .values({
        id: newId(),
        dish_id: night.tacos.id,
        option_id: null,
        ingredient_id: tortillas.id,
        product_id: null,
        quantity: 3000,
        position: 0,
      })
      .execute();
    const stock = async () =>
      Number(
        (
          await db
            .selectFrom('ingredients')
            .select('stock')
            .where('id', '=', tortillas.id)
            .executeTakeFirstOrThrow()
        ).stock,
      );
    const opening = await stock();
    const placed = await night.placeUber({ items: [{ external_id: night.tacos.id, price: 8500 }] });
    await run(INBOX, CALLS);
    assert.ok((await stock()) < opening, 'the kitchen took the tortillas when the order was accepted');
    await postJson(`${uber.url}/sim/orders/${placed.order_id}/cancel`, {
      reason: 'CUSTOMER_CALLED_TO_CANCEL',
    });
    await uber.webhooksSettled();
    await run(INBOX);
    const [order] = await night.ordersOf('ubereats');
    assert.ok(order);
    assert.deepEqual([order.status, order.channel_state], ['cancelled', 'cancelled']);
    const view = (await call('GET', `/orders/${order.id}/complete`)).json();
    assert.deepEqual(
      view.dishes.map((dish: Json) => [dish.status, dish.void_reason]),
      [['voided', 'Cancelado por Uber Eats']],
    );
    const refunds = await db.selectFrom('refunds').selectAll().execute();
    assert.deepEqual(
      refunds.map((refund) => [Number(refund.amount_cents), refund.reason]),
      [[8500, 'Cancelado por Uber Eats']],
    );
    assert.equal(await stock(), opening, 'plates not started give their stock back');
    const day = (await call('GET', '/reports/day/2026-11-22')).json();
    assert.deepEqual(day.by_channel, [], 'a cancelled order leaves the sales');
  });

  it('splits the day report by channel with each platform’s commission', async (t) => {
    const night = await deliveryNight(t, target);
    const { call, run } = night;
    const settings = await call('PUT', '/channels/ubereats/settings', { commission_percent: 30 });
    assert.equal(settings.statusCode, 200, settings.body);
    await night.placeUber({ items: [{ external_id: night.tacos.id, price: 10000 }] });
    await run(INBOX);
    const channels = (await call('GET', '/channels')).json();
    assert.deepEqual(
      channels.map((channel: Json) => [channel.channel, channel.status, channel.commission_percent]),
      [
        ['ubereats', 'online', 30],
        ['rappi', 'online', 0],
      ],
    );
    const day = (await call('GET', '/reports/day/2026-11-22')).json();
    assert.deepEqual(day.by_channel, [
      { channel: 'ubereats', orders: 1, sales: 100, commission: 30, net: 70 },
    ]);
  });

  it('holds an order with an item the menu lacks, for a person to map, then accepts it', async (t) => {
    const night = await deliveryNight(t, target);
    const { call, run } = night;
    await night.placeUber({
      items: [
        { external_id: night.tacos.id, price: 8500 },
        { external_id: 'gringa-vieja', title: 'Gringa', price: 6000 },
      ],
    });
    await run(INBOX);
    const [held] = await night.ordersOf('ubereats');
    assert.ok(held);
    const view = (await call('GET', `/orders/${held.id}`)).json();
    assert.equal(view.channel_state, 'held');
    assert.deepEqual(view.unmapped_items, [
      { index: 1, name: 'Gringa', quantity: 1, reason: 'unknown_dish' },
    ]);
    assert.equal((await call('POST', `/orders/${held.id}/accept`)).statusCode, 409);
    const mapped = await call('POST', `/orders/${held.id}/map`, {
      items: [{ index: 1, dish_id: night.agua.id }],
    });
    assert.equal(mapped.statusCode, 200, mapped.body);
    const accepted = (await call('GET', `/orders/${held.id}`)).json();
    assert.equal(accepted.channel_state, 'accepted');
    assert.equal(accepted.total, 145);
  });

  it('waits for a person when auto-accept is off; a denial reaches Uber', async (t) => {
    const night = await deliveryNight(t, target);
    const { call, run } = night;
    await call('PUT', '/channels/ubereats/settings', { auto_accept: false });
    const placed = await night.placeUber({ items: [{ external_id: night.tacos.id, price: 8500 }] });
    await run(INBOX);
    const [order] = await night.ordersOf('ubereats');
    assert.ok(order);
    assert.equal(order.channel_state, 'awaiting');
    const denied = await call('POST', `/orders/${order.id}/deny`, { reason: 'Se acabó el pastor' });
    assert.equal(denied.statusCode, 200, denied.body);
    await run(CALLS);
    assert.equal(night.uberOrder(placed.order_id).state, 'DENIED');
    assert.equal((await call('POST', `/orders/${order.id}/accept`)).statusCode, 409);
  });

  it('stamps a delivery bill at the PAC with the platform’s payment form', async (t) => {
    const night = await deliveryNight(t, target, { withPac: true });
    const { call, run } = night;
    const business = await call('PUT', '/settings', { tax_rate: 16, prices_include_tax: true });
    assert.equal(business.statusCode, 200, business.body);
    const fiscal = await call('PUT', '/settings/fiscal', RESTAURANT_FISCAL);
    assert.equal(fiscal.statusCode, 200, fiscal.body);
    await night.placeUber({ items: [{ external_id: night.tacos.id, price: 11600 }] });
    await run(INBOX, FISCAL_JOB);
    const [receipt, ...others] = night.pac?.receipts() ?? [];
    assert.equal(others.length, 0);
    assert.equal(receipt?.payment_form, '31', 'intermediario de pagos');
    assert.equal(receipt?.total, 116);
  });

  it('pauses a store for some minutes and shows it paused', async (t) => {
    const night = await deliveryNight(t, target);
    const { call, run, uber } = night;
    const paused = await call('POST', '/channels/ubereats/pause', { minutes: 20 });
    assert.equal(paused.statusCode, 200, paused.body);
    assert.equal(paused.json().status, 'paused');
    await run(CALLS);
    assert.equal(uber.snapshot().store.status, 'PAUSED');
    assert.equal((await call('POST', '/channels/nowhere/pause', { minutes: 20 })).statusCode, 404);
  });
});
