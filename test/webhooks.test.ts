import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { openDatabase } from '../src/core/db/database';
import { type EventType, recordEvent } from '../src/events/record-event';
import {
  FINISHED_DELIVERY_RETENTION_MS,
  PRUNE_WEBHOOK_DELIVERIES,
  RETRY_WINDOW_MS,
  retryDelayMs,
  WEBHOOK_DELIVERIES,
} from '../src/webhooks/webhook-queue';
import { buildTestApp, describeEachDatabase, type TestApp } from './helpers/app';
import { loggedInUser, login } from './helpers/auth';
import { databaseDigest } from './helpers/db-digest';
import { type Caller, callerFor } from './helpers/orders-factories';
import { type ReceivedDelivery, WebhookReceiver } from './helpers/webhook-receiver';

type Context = Parameters<typeof buildTestApp>[0];
type Target = Parameters<typeof buildTestApp>[1];
const UNKNOWN_ID = '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e';
const HOUR_MS = 60 * 60_000;

type Delivery = {
  id: string;
  event_id: number;
  event_type: string;
  state: string;
  next_attempt_at: string | null;
  finished_at: string | null;
  attempts: { at: string; status_code: number | null; duration_ms: number; error: string | null }[];
};

async function webhookRoom(t: Context, target: Target) {
  const test = await buildTestApp(t, target);
  const { user, cookies } = await loggedInUser(test.app, test.db, 'admin');
  let session = { cookies, at: test.clock.now() };
  // Access tokens last a minute and these tests move the clock by hours: sign in again when it moved.
  const admin: Caller = async (...request) => {
    if (test.clock.now() !== session.at) {
      session = { cookies: await login(test.app, user.name, user.pin), at: test.clock.now() };
    }
    return callerFor(test.app, session.cookies)(...request);
  };
  const receiver = await WebhookReceiver.start();
  t.after(() => receiver.stop());
  return { ...test, admin, receiver };
}

async function createWebhook(
  admin: Caller,
  url: string,
  events: string[] = ['*'],
): Promise<{ id: string; secret: string }> {
  const created = await admin('POST', '/webhooks', { url, events });
  assert.equal(created.statusCode, 201, created.body);
  return created.json();
}

let eventNumber = 0;
function record(db: TestApp['db'], type: EventType = 'ticket.created') {
  eventNumber += 1;
  return recordEvent(db, { type, data: { n: eventNumber }, at: 1_700_000_000_000 + eventNumber });
}

/** What the server's timers would do: number the new events, then fan out and send. */
async function runJob(app: FastifyInstance): Promise<void> {
  await app.jobs.run('events-sequencer');
  await app.jobs.run(WEBHOOK_DELIVERIES);
}

async function deliveriesOf(admin: Caller, webhookId: string): Promise<Delivery[]> {
  const listed = await admin('GET', `/webhooks/${webhookId}/deliveries`);
  if (listed.statusCode === 204) return [];
  assert.equal(listed.statusCode, 200, listed.body);
  return listed.json();
}

function webhookAudit(db: TestApp['db']) {
  return db
    .selectFrom('audit_log')
    .select(['action', 'target_id', 'before', 'after'])
    .where('action', 'like', 'webhook.%')
    .orderBy('seq')
    .execute();
}

/** Checks `POS-Signature` as a receiver would; returns its timestamp. */
function verifiedTimestamp(secret: string, delivery: ReceivedDelivery): number {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(delivery.headers['pos-signature']));
  assert.ok(match, `signature header: ${delivery.headers['pos-signature']}`);
  const [, timestamp, signature] = match as unknown as [string, string, string];
  const expected = createHmac('sha256', secret).update(`${timestamp}.${delivery.body}`).digest();
  assert.ok(timingSafeEqual(expected, Buffer.from(signature, 'hex')), 'signature matches');
  return Number(timestamp);
}

describeEachDatabase('webhooks', (target) => {
  it('adds, lists, changes and removes webhooks; the secret is shown only once', async (t) => {
    const { app, db, admin } = await webhookRoom(t, target);
    const created = await admin('POST', '/webhooks', {
      url: 'https://example.com/pos',
      events: ['ticket.paid', 'payment.settled'],
      description: 'Accounting',
    });
    assert.equal(created.statusCode, 201, created.body);
    const { secret, ...view } = created.json();
    assert.match(secret, /^[0-9a-f]{64}$/);
    assert.deepEqual(view, {
      id: view.id,
      url: 'https://example.com/pos',
      events: ['ticket.paid', 'payment.settled'],
      description: 'Accounting',
      created_at: '2026-11-22T18:00:00.000Z',
      updated_at: '2026-11-22T18:00:00.000Z',
    });
    assert.deepEqual((await admin('GET', `/webhooks/${view.id}`)).json(), view);
    assert.deepEqual((await admin('GET', '/webhooks')).json(), [view]);

    const changed = await admin('PUT', `/webhooks/${view.id}`, {
      url: 'http://10.0.0.5:8080/x',
      events: ['*'],
    });
    assert.equal(changed.statusCode, 200, changed.body);
    const changedView = { ...view, url: 'http://10.0.0.5:8080/x', events: ['*'], description: null };
    assert.deepEqual(changed.json(), changedView);
    assert.deepEqual((await admin('GET', `/webhooks/${view.id}`)).json(), changedView);
    for (const answer of [
      changed,
      await admin('GET', '/webhooks'),
      await admin('GET', `/webhooks/${view.id}`),
    ]) {
      assert.ok(!answer.body.includes(secret), 'no other answer holds the secret');
    }

    const audited = await webhookAudit(db);
    assert.deepEqual(
      audited.map((entry) => [entry.action, entry.target_id]),
      [
        ['webhook.created', view.id],
        ['webhook.updated', view.id],
      ],
    );
    assert.ok(
      audited.every((entry) => !`${entry.before}${entry.after}`.includes(secret)),
      'audit without secret',
    );

    const { cookies } = await loggedInUser(app, db, 'staff');
    const staff = callerFor(app, cookies);
    const body = { url: 'https://example.com', events: ['*'] };
    for (const [method, url, payload] of [
      ['GET', '/webhooks'],
      ['GET', `/webhooks/${view.id}`],
      ['POST', '/webhooks', body],
      ['PUT', `/webhooks/${view.id}`, body],
      ['DELETE', `/webhooks/${view.id}`],
      ['GET', `/webhooks/${view.id}/deliveries`],
      ['POST', `/webhooks/${view.id}/deliveries/${UNKNOWN_ID}/retry`],
    ] as const) {
      const refused = await staff(method, url, payload);
      assert.deepEqual(
        [refused.statusCode, refused.json()],
        [403, { message: 'Unauthorized API access' }],
        url,
      );
    }

    assert.deepEqual((await admin('DELETE', `/webhooks/${view.id}`)).json(), {
      id: view.id,
      message: 'Webhook deleted successfully',
    });
    assert.equal((await admin('GET', '/webhooks')).statusCode, 204);
    assert.equal((await webhookAudit(db)).at(-1)?.action, 'webhook.deleted');
    for (const [method, url, payload] of [
      ['GET', `/webhooks/${view.id}`],
      ['PUT', `/webhooks/${view.id}`, body],
      ['DELETE', `/webhooks/${view.id}`],
      ['GET', `/webhooks/${view.id}/deliveries`],
      ['POST', `/webhooks/${view.id}/deliveries/${UNKNOWN_ID}/retry`],
    ] as const) {
      const missing = await admin(method, url, payload);
      assert.deepEqual([missing.statusCode, missing.body], [404, 'Resource not found'], `${method} ${url}`);
    }
    const malformed = await admin('GET', '/webhooks/not-a-uuid');
    assert.deepEqual([malformed.statusCode, malformed.body], [400, 'Missing or malformed ID']);
  });

  it('masks credentials in every view of a webhook, and keeps them when the masked URL is sent back', async (t) => {
    const { db, admin, receiver } = await webhookRoom(t, target);
    const port = new URL(receiver.url).port;
    const url = `http://pos:s3cret@127.0.0.1:${port}/hook?token=abc123&site=7`;
    const masked = `http://***:***@127.0.0.1:${port}/hook?token=***&site=7`;
    const created = await admin('POST', '/webhooks', { url, events: ['*'], description: 'Sync' });
    assert.equal(created.statusCode, 201, created.body);
    const { id } = created.json();
    const answers = [
      created,
      await admin('GET', '/webhooks'),
      await admin('GET', `/webhooks/${id}`),
      await admin('PUT', `/webhooks/${id}`, { url: masked, events: ['ticket.paid'] }),
      await admin('GET', `/audit?limit=100`),
    ];
    for (const answer of answers) {
      assert.ok(answer.statusCode < 300, answer.body);
      assert.ok(!answer.body.includes('s3cret') && !answer.body.includes('abc123'), answer.body);
    }
    assert.equal(created.json().url, masked);
    const stored = await db
      .selectFrom('webhooks')
      .select('url')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(stored.url, url, 'the masked URL sent back keeps the stored one');
  });

  it('with webhooks_block_private_targets on, refuses private targets when saved and when delivering', async (t) => {
    const { app, db, admin, receiver } = await webhookRoom(t, target);
    const port = new URL(receiver.url).port;
    const byName = await createWebhook(admin, `http://localhost:${port}/hook`);
    await record(db);
    await runJob(app);
    assert.equal(receiver.received.length, 1, 'off by default: a private target is allowed');

    const turnedOn = await admin('PUT', '/settings', { webhooks_block_private_targets: true });
    assert.deepEqual([turnedOn.statusCode, turnedOn.json().webhooks_block_private_targets], [200, true]);
    const before = await databaseDigest(db);
    for (const url of [
      `http://127.0.0.1:${port}/hook`,
      'http://[::1]:8080/',
      'http://169.254.169.254/latest/meta-data',
      'http://10.1.2.3/x',
      'http://172.20.0.1/x',
      'http://192.168.1.10/x',
      'http://[fe80::1]/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://0.0.0.0:9/x',
      'http://LOCALHOST./x',
      'http://printer.localhost/x',
    ]) {
      const refused = await admin('POST', '/webhooks', { url, events: ['*'] });
      assert.deepEqual(
        [refused.statusCode, refused.json()],
        [400, { message: 'The URL points at a loopback, link-local or private address' }],
        url,
      );
    }
    const moved = await admin('PUT', `/webhooks/${byName.id}`, { url: 'http://10.0.0.5/x', events: ['*'] });
    assert.equal(moved.statusCode, 400);
    assert.equal(await databaseDigest(db), before);

    // The webhook saved before the setting went on is refused at delivery, once its name is resolved.
    await record(db);
    await runJob(app);
    assert.equal(receiver.received.length, 1, 'nothing reached the private address');
    const [latest] = await deliveriesOf(admin, byName.id);
    assert.deepEqual(
      latest?.attempts.map((attempt) => [attempt.status_code, attempt.error]),
      [[null, 'The URL points at a loopback, link-local or private address']],
    );
  });

  it('refuses bad webhook bodies, changing nothing', async (t) => {
    const { db, admin } = await webhookRoom(t, target);
    const { id } = await createWebhook(admin, 'https://example.com/pos', ['order.created']);
    const before = await databaseDigest(db);
    const good = { url: 'https://example.com/pos', events: ['order.created'] };
    const badUrl = { message: 'The URL must be an absolute http or https URL' };
    const refusals: [Record<string, unknown>, number, string | object][] = [
      [{ ...good, url: 'ftp://example.com/pos' }, 400, badUrl],
      [{ ...good, url: 'javascript:alert(1)' }, 400, badUrl],
      [{ ...good, url: 'example.com/pos' }, 400, badUrl],
      [{ ...good, url: `https://example.com/${'x'.repeat(2048)}` }, 400, 'url'],
      [{ ...good, events: ['order.shipped'] }, 400, 'events'],
      [{ ...good, events: [] }, 400, 'events'],
      [{ ...good, events: ['*', '*'] }, 400, 'events'],
      [{ ...good, description: 'x'.repeat(501) }, 400, 'description'],
      [{ ...good, secret: 'mine' }, 400, 'secret'],
      [{ url: good.url }, 400, 'events'],
    ];
    for (const [payload, status, expected] of refusals) {
      for (const [method, url] of [
        ['POST', '/webhooks'],
        ['PUT', `/webhooks/${id}`],
      ] as const) {
        const refused = await admin(method, url, payload);
        assert.equal(refused.statusCode, status, `${method} ${JSON.stringify(payload).slice(0, 80)}`);
        if (typeof expected === 'object') assert.deepEqual(refused.json(), expected);
        else {
          assert.equal(refused.json().message, 'Validation failed');
          assert.ok(JSON.stringify(refused.json().details).includes(expected), refused.body);
        }
      }
    }
    assert.equal(await databaseDigest(db), before);
  });

  it('POSTs signed events to the receiver in order, only the wanted types, from its creation on', async (t) => {
    const { app, db, admin, receiver, clock } = await webhookRoom(t, target);
    const catchAll = await WebhookReceiver.start();
    t.after(() => catchAll.stop());
    await record(db, 'order.created');
    await runJob(app);
    const { id, secret } = await createWebhook(admin, receiver.url, ['order.created', 'ticket.paid']);
    const everything = await createWebhook(admin, catchAll.url);
    await record(db, 'order.created');
    await record(db, 'table.updated');
    await db.transaction().execute(async (trx) => {
      await record(trx, 'ticket.paid');
      await record(trx, 'order.created');
    });
    await runJob(app);

    const types = (delivered: ReceivedDelivery[]) =>
      delivered.map((delivery) => JSON.parse(delivery.body).type);
    assert.deepEqual(types(receiver.received), ['order.created', 'ticket.paid', 'order.created']);
    assert.deepEqual(types(catchAll.received), [
      'order.created',
      'table.updated',
      'ticket.paid',
      'order.created',
    ]);
    const positions = catchAll.eventIds;
    assert.deepEqual(
      positions,
      [...positions].sort((a, b) => a - b),
      'in event order',
    );
    assert.deepEqual(receiver.eventIds, [positions[0], positions[2], positions[3]]);

    const [first] = receiver.received as [ReceivedDelivery];
    assert.equal(first.headers['content-type'], 'application/json');
    assert.equal(first.headers['pos-event-id'], String(positions[0]));
    assert.equal(verifiedTimestamp(secret, first), Math.floor(clock.now() / 1000));
    assert.deepEqual(JSON.parse(first.body), {
      id: positions[0],
      type: 'order.created',
      at: 1_700_000_000_000 + eventNumber - 3,
      data: { n: eventNumber - 3 },
    });
    for (const delivery of receiver.received) verifiedTimestamp(secret, delivery);

    const deliveries = await deliveriesOf(admin, id);
    assert.deepEqual(
      deliveries.map((delivery) => [
        delivery.event_id,
        delivery.event_type,
        delivery.state,
        delivery.finished_at,
        delivery.attempts.map((attempt) => [attempt.at, attempt.status_code, attempt.error]),
      ]),
      [
        [
          positions[3],
          'order.created',
          'delivered',
          '2026-11-22T18:00:00.000Z',
          [['2026-11-22T18:00:00.000Z', 200, null]],
        ],
        [
          positions[2],
          'ticket.paid',
          'delivered',
          '2026-11-22T18:00:00.000Z',
          [['2026-11-22T18:00:00.000Z', 200, null]],
        ],
        [
          positions[0],
          'order.created',
          'delivered',
          '2026-11-22T18:00:00.000Z',
          [['2026-11-22T18:00:00.000Z', 200, null]],
        ],
      ],
      'newest first',
    );
    assert.equal((await deliveriesOf(admin, everything.id)).length, 4);
    const page = await admin('GET', `/webhooks/${id}/deliveries?limit=1&offset=1`);
    assert.deepEqual(
      [page.headers['x-total-count'], page.json().map((d: Delivery) => d.event_id)],
      ['3', [positions[2]]],
    );

    await runJob(app);
    assert.equal(receiver.received.length, 3, 'each event is sent once');
  });
  it('keeps the order while the receiver is down and delivers everything once it is back', async (t) => {
    const { app, db, admin, receiver, clock } = await webhookRoom(t, target);
    const { id } = await createWebhook(admin, receiver.url);
    receiver.answer = () => ({ status: 500 });
    await record(db);
    await record(db);
    await runJob(app);
    assert.equal(receiver.received.length, 1, 'the second waits behind the first');
    clock.advance(retryDelayMs(1) - 1);
    await runJob(app);
    assert.equal(receiver.received.length, 1, 'not before the backoff');
    clock.advance(1);
    await runJob(app);
    assert.equal(receiver.received.length, 2);

    await receiver.stop();
    clock.advance(retryDelayMs(2));
    await runJob(app);
    const [head] = await deliveriesOf(admin, id).then((list) => list.reverse());
    assert.equal(head?.state, 'pending');
    assert.deepEqual(head?.attempts.map((attempt) => [attempt.status_code, attempt.error]).slice(0, 2), [
      [500, 'HTTP 500'],
      [500, 'HTTP 500'],
    ]);
    // A refused connection, or the pooled connection the receiver closed as it stopped.
    assert.equal(head?.attempts[2]?.status_code, null);
    assert.equal(head?.attempts[2]?.error, 'Connection failed', 'no detail that maps the network');
    assert.equal(head?.next_attempt_at, new Date(clock.now() + retryDelayMs(3)).toISOString());

    await receiver.restart();
    receiver.answer = () => ({ status: 204 });
    await record(db);
    clock.advance(retryDelayMs(3));
    await runJob(app);
    const ids = receiver.eventIds;
    assert.equal(ids.length, 5);
    const firstId = ids[0] as number;
    assert.deepEqual(
      ids.slice(2),
      [firstId, firstId + 1, firstId + 2],
      'after the failures, all three in order',
    );
    const states = (await deliveriesOf(admin, id)).map((delivery) => [
      delivery.state,
      delivery.attempts.length,
    ]);
    assert.deepEqual(states, [
      ['delivered', 1],
      ['delivered', 1],
      ['delivered', 4],
    ]);
  });

  it('never follows a redirect: it is a failed attempt', async (t) => {
    const { app, db, admin, receiver } = await webhookRoom(t, target);
    const elsewhere = await WebhookReceiver.start();
    t.after(() => elsewhere.stop());
    receiver.answer = () => ({ status: 307, headers: { location: elsewhere.url } });
    const { id } = await createWebhook(admin, receiver.url);
    await record(db);
    await runJob(app);
    assert.equal(receiver.received.length, 1);
    assert.deepEqual(elsewhere.received, []);
    const [delivery] = await deliveriesOf(admin, id);
    assert.equal(delivery?.state, 'pending');
    assert.deepEqual(
      delivery?.attempts.map((attempt) => [attempt.status_code, attempt.error]),
      [[307, `Redirect not followed (HTTP 307 to ${elsewhere.url})`]],
    );
  });

  it('gives up 24 h after the first attempt, moves on, and sends a failed delivery again on request', async (t) => {
    const { app, db, admin, receiver, clock } = await webhookRoom(t, target);
    const { id } = await createWebhook(admin, receiver.url);
    receiver.answer = () => ({ status: 503 });
    await record(db);
    await record(db);
    const started = clock.now();
    await runJob(app);
    while (clock.now() < started + RETRY_WINDOW_MS - HOUR_MS) {
      clock.advance(HOUR_MS);
      await runJob(app);
    }
    const [first, second] = (await deliveriesOf(admin, id)).reverse() as [Delivery, Delivery];
    assert.deepEqual([first.state, second.state, second.attempts.length], ['pending', 'pending', 0]);
    assert.equal(first.next_attempt_at, new Date(started + RETRY_WINDOW_MS).toISOString(), 'the last try');

    receiver.answer = (delivery) => ({ status: JSON.parse(delivery.body).id === first.event_id ? 503 : 200 });
    clock.advance(HOUR_MS);
    await runJob(app);
    const after = (await deliveriesOf(admin, id)).reverse() as [Delivery, Delivery];
    const windowEnd = new Date(started + RETRY_WINDOW_MS).toISOString();
    assert.deepEqual(
      after.map((delivery) => [delivery.state, delivery.finished_at]),
      [
        ['failed', windowEnd],
        ['delivered', windowEnd],
      ],
    );
    assert.equal(after[0].attempts.at(-1)?.at, windowEnd);
    assert.equal(after[0].next_attempt_at, null);
    assert.deepEqual(receiver.eventIds.slice(-2), [first.event_id, second.event_id]);

    receiver.answer = () => ({ status: 200 });
    const retried = await admin('POST', `/webhooks/${id}/deliveries/${first.id}/retry`);
    assert.deepEqual(
      [retried.statusCode, retried.json()],
      [202, { id: first.id, message: 'Delivery queued for retry' }],
    );
    await runJob(app);
    assert.equal(receiver.eventIds.at(-1), first.event_id);
    const [again] = (await deliveriesOf(admin, id)).reverse() as [Delivery];
    assert.deepEqual([again.state, again.attempts.at(-1)?.status_code], ['delivered', 200]);

    const other = await createWebhook(admin, receiver.url);
    const wrongWebhook = await admin('POST', `/webhooks/${other.id}/deliveries/${first.id}/retry`);
    assert.deepEqual([wrongWebhook.statusCode, wrongWebhook.body], [404, 'Resource not found']);
    await db.updateTable('webhook_deliveries').set({ state: 'sending' }).where('id', '=', first.id).execute();
    const busy = await admin('POST', `/webhooks/${id}/deliveries/${first.id}/retry`);
    assert.deepEqual(
      [busy.statusCode, busy.json()],
      [409, { message: 'The delivery is being sent right now' }],
    );
  });

  it('stops delivering when the webhook is deleted', async (t) => {
    const { app, db, admin, receiver, clock } = await webhookRoom(t, target);
    const { id } = await createWebhook(admin, receiver.url);
    receiver.answer = () => ({ status: 500 });
    await record(db);
    await runJob(app);
    assert.equal((await admin('DELETE', `/webhooks/${id}`)).statusCode, 200);
    await record(db);
    clock.advance(HOUR_MS);
    await runJob(app);
    assert.equal(receiver.received.length, 1);
    assert.deepEqual(await db.selectFrom('webhook_deliveries').selectAll().execute(), []);
  });

  it('delivers each event exactly once when two instances run the job together', async (t) => {
    const test = await webhookRoom(t, target);
    const { app, db, admin, receiver, clock, config } = test;
    // PostgreSQL: a second pool, as a second server process would have; SQLite: one file, one writer.
    const database = target.name === 'postgres' ? openDatabase(test.databaseUrl) : test.database;
    const other = await buildApp(config, { database, clock, startJobs: false });
    t.after(async () => {
      await other.close();
      if (database !== test.database) await database.close();
    });
    const first = await createWebhook(admin, receiver.url);
    const second = await WebhookReceiver.start();
    t.after(() => second.stop());
    await createWebhook(admin, second.url, ['order.created']);
    receiver.delayMs = 5;
    for (let batch = 0; batch < 3; batch += 1) {
      await db.transaction().execute(async (trx) => {
        for (let n = 0; n < 10; n += 1) await record(trx, n % 2 === 0 ? 'order.created' : 'ticket.paid');
      });
      await Promise.all([runJob(app), runJob(other), runJob(app), runJob(other)]);
    }
    for (let round = 0; round < 20 && receiver.received.length < 30; round += 1) {
      await Promise.all([runJob(app), runJob(other)]);
    }
    const ids = receiver.eventIds;
    assert.equal(ids.length, 30);
    assert.deepEqual(
      ids,
      [...new Set(ids)].sort((a, b) => a - b),
      'each once, in order',
    );
    assert.equal(second.received.length, 15);
    const attempts = (await deliveriesOf(admin, first.id)).map((delivery) => delivery.attempts.length);
    assert.deepEqual(attempts, Array(30).fill(1));
    clock.advance(HOUR_MS);
    await Promise.all([runJob(app), runJob(other)]);
    assert.equal(receiver.received.length, 30);
  });

  it('prunes finished deliveries after 30 days, never unfinished ones', async (t) => {
    const { app, db, admin, receiver, clock } = await webhookRoom(t, target);
    const { id } = await createWebhook(admin, receiver.url);
    await record(db);
    await runJob(app);
    receiver.answer = () => ({ status: 500 });
    await record(db);
    await runJob(app);
    clock.advance(FINISHED_DELIVERY_RETENTION_MS);
    await app.jobs.run(PRUNE_WEBHOOK_DELIVERIES);
    assert.equal((await deliveriesOf(admin, id)).length, 2, 'kept until the retention has passed');
    clock.advance(1);
    await app.jobs.run(PRUNE_WEBHOOK_DELIVERIES);
    const kept = await deliveriesOf(admin, id);
    assert.deepEqual(
      kept.map((delivery) => delivery.state),
      ['pending'],
    );
    const attempts = await db.selectFrom('webhook_delivery_attempts').select('delivery_id').execute();
    assert.deepEqual(
      attempts.map((attempt) => attempt.delivery_id),
      [kept[0]?.id],
    );
  });

  it('leaves a delivery another instance is sending alone until its claim lapses', async (t) => {
    const { app, db, admin, receiver, clock } = await webhookRoom(t, target);
    const { id } = await createWebhook(admin, receiver.url);
    receiver.answer = () => ({ status: 500 });
    await record(db);
    await runJob(app);
    // What an instance that claimed the delivery for its next attempt and then crashed leaves behind.
    const claimedUntil = clock.now() + 60_000;
    await db
      .updateTable('webhook_deliveries')
      .set({ state: 'sending', attempts: 2, claimed_until: claimedUntil })
      .execute();
    receiver.answer = () => ({ status: 200 });
    clock.advance(retryDelayMs(1));
    await runJob(app);
    assert.equal(receiver.received.length, 1, 'not while the claim holds');
    clock.set(claimedUntil);
    await runJob(app);
    assert.equal(receiver.received.length, 2);
    const [delivery] = await deliveriesOf(admin, id);
    assert.deepEqual(
      [delivery?.state, delivery?.attempts.map((attempt) => attempt.status_code)],
      ['delivered', [500, 200]],
    );
  });
});
