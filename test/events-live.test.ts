import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../src/core/db/database';
import { type EventBatch, EventFanOut } from '../src/events/event-fanout';
import { EventFeed } from '../src/events/event-feed';
import { recordEvent } from '../src/events/record-event';
import { describeEachDatabase, TEST_JWT_SECRET, TEST_PIN_KEY, testConfig } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { insertDish } from './helpers/factories';
import { callerFor } from './helpers/orders-factories';
import { exitCodeOf, startServerProcess } from './helpers/server-process';
import { listeningTestApp, openStream } from './helpers/sse-client';

type TestApp = Awaited<ReturnType<typeof listeningTestApp>>;
type Seen = { position: number; payload: string };

const WRITERS = 8;
const READERS = 3;

/**
 * A bill made and paid in cash through the API: three events (ticket.created, payment.settled,
 * ticket.paid) written by the checkout services in their own transactions.
 */
async function billAndPay(test: TestApp, cookies: string, dishId: string): Promise<void> {
  const call = callerFor(test.app, cookies);
  const order = await call('POST', '/orders/with-dishes', {
    order: {},
    dishes: [{ dish_id: dishId, price_at_order: 10 }],
  });
  assert.equal(order.statusCode, 201, order.body);
  const bill = await call('POST', `/orders/${order.json().id}/tickets`, {});
  assert.equal(bill.statusCode, 201, bill.body);
  const paid = await call('POST', `/tickets/${bill.json().id}/payments`, {
    method: 'cash',
    amount: 10,
    tendered: 20,
  });
  assert.equal(paid.statusCode, 201, paid.body);
}

/**
 * A service that records its event and then does more work before committing: the window in which
 * a transaction holding a lower id commits after one holding a higher id. Every fifth rolls back.
 */
async function slowService(db: Db, writer: number, n: number, maxDelayMs: number): Promise<void> {
  await db
    .transaction()
    .execute(async (trx) => {
      await recordEvent(trx, { type: 'payment.pending', data: { writer, n }, at: Date.now() });
      await sleep(Math.random() * maxDelayMs);
      if (n % 5 === 4) throw new Error('rolled back');
    })
    .catch((error: Error) => {
      if (error.message !== 'rolled back') throw error;
    });
}

/** Polls the outbox the naive way, `id > last`, as fast as it can until told to stop. */
function naiveReader(db: Db) {
  const seen = new Set<number>();
  let stopped = false;
  const running = (async () => {
    let last = 0;
    while (!stopped) {
      const rows = await db.selectFrom('events').select('id').where('id', '>', last).orderBy('id').execute();
      for (const row of rows) {
        seen.add(Number(row.id));
        last = Math.max(last, Number(row.id));
      }
      await sleep(1);
    }
  })();
  return {
    seen,
    stop: async () => {
      stopped = true;
      await running;
    },
  };
}

/** Reads the stream in short connections, each resuming with Last-Event-ID where the last one ended. */
function resumingReader(test: TestApp, cookies: string) {
  const seen: Seen[] = [];
  let reconnects = 0;
  let target: number | undefined;
  // Counted from when the writers are done: before that, a slow machine's writers are not the reader's fault.
  let deadline = Number.POSITIVE_INFINITY;
  const running = (async () => {
    while (target === undefined || (seen.at(-1)?.position ?? 0) < target) {
      if (Date.now() > deadline) throw new Error(`reader stuck at ${seen.at(-1)?.position} of ${target}`);
      const last = seen.at(-1)?.position ?? 0;
      const stream = await openStream(test.base, cookies, '/events', { 'last-event-id': String(last) });
      assert.equal(stream.status, 200);
      await sleep(5 + Math.random() * 40);
      await stream.cancel();
      await stream.pump;
      reconnects++;
      for (const frame of stream.events()) {
        assert.notEqual(frame.event, 'reset', 'nothing was pruned, so no reset');
        seen.push({ position: Number(frame.id), payload: frame.data ?? '' });
      }
    }
  })();
  return {
    seen,
    reconnects: () => reconnects,
    finish: (latest: number) => {
      target = latest;
      deadline = Date.now() + 60_000;
      return running;
    },
  };
}

async function committedEvents(db: Db): Promise<{ id: number; position: number; payload: string }[]> {
  const rows = await db
    .selectFrom('events')
    .select(['id', 'position', 'payload'])
    .orderBy('position')
    .execute();
  return rows.map((row) => ({ id: Number(row.id), position: Number(row.position), payload: row.payload }));
}

/** A fan-out subscriber that keeps the positions it is handed. */
function subscriberAt(cursor: number) {
  const positions: number[] = [];
  const subscriber = {
    cursor,
    positions,
    deliver(batch: EventBatch) {
      const frames = batch.framesFor(subscriber.cursor, new Set(['tickets']), 'tickets')?.toString() ?? '';
      for (const match of frames.matchAll(/^id: (\d+)$/gm)) positions.push(Number(match[1]));
      subscriber.cursor = batch.lastPosition ?? subscriber.cursor;
    },
    close() {},
  };
  return subscriber;
}

describeEachDatabase('GET /events under load', (target) => {
  it(`delivers every committed event exactly once, in position order, to a reader that keeps resuming while ${WRITERS} writers commit`, async (t) => {
    const test = await listeningTestApp(t, target, { startJobs: true });
    const isPostgres = test.dialect === 'postgres';
    const { cookies } = await loggedInUser(test.app, test.db, 'admin');
    const dish = await insertDish(test.db);
    // Several readers, so one catches up on its own while the others take the shared reads.
    const readers = Array.from({ length: READERS }, () => resumingReader(test, cookies));
    const naive = naiveReader(test.db);
    // Half the writers go through the HTTP API (checkout services), half are services that hold their
    // transaction open after recording; on PostgreSQL long enough to commit out of id order often.
    const rounds = isPostgres ? 60 : 30;
    const writers = Array.from({ length: WRITERS }, async (_, writer) => {
      for (let n = 0; n < rounds; n++) {
        if (writer % 2 === 0) await billAndPay(test, cookies, dish.id);
        else await slowService(test.db, writer, n, isPostgres ? 8 : 1);
      }
    });
    await Promise.all(writers);
    await test.app.jobs.run('events-sequencer');
    const committed = await committedEvents(test.db);
    await Promise.all(readers.map((reader) => reader.finish(committed.at(-1)?.position ?? 0)));
    await naive.stop();

    for (const reader of readers) {
      assert.deepEqual(
        reader.seen.map((event) => event.position),
        committed.map((event) => event.position),
        'every committed event once, in position order',
      );
      assert.deepEqual(
        reader.seen.map((event) => event.payload),
        committed.map((event) => event.payload),
      );
    }
    const slowCommitted = committed.filter((event) => JSON.parse(event.payload).type === 'payment.pending');
    assert.equal(slowCommitted.length, (WRITERS / 2) * rounds * 0.8, 'none of the rolled-back events');
    // Each bill-and-pay: order.created, ticket.created, payment.settled, ticket.paid, and order.updated
    // as the paid order closes itself.
    assert.equal(committed.length, slowCommitted.length + (WRITERS / 2) * rounds * 5);

    // Commits out of id order: an event numbered after one with a higher id.
    let outOfOrder = 0;
    for (let index = 1; index < committed.length; index++) {
      if ((committed[index]?.id ?? 0) < (committed[index - 1]?.id ?? 0)) outOfOrder++;
    }
    const missedByNaive = committed.filter((event) => !naive.seen.has(event.id)).length;
    t.diagnostic(
      `${committed.length} events, ${readers.reduce((sum, reader) => sum + reader.reconnects(), 0)} reconnects of ${READERS} readers, ${outOfOrder} committed out of id order, ` +
        `${missedByNaive} missed by an \`id > last\` reader`,
    );
    if (isPostgres) {
      assert.ok(outOfOrder > 0, 'the load made transactions commit out of id order');
      assert.ok(missedByNaive > 0, 'an `id > last` reader misses rows under the same load');
    } else {
      // SQLite serializes writers: ids follow commit order and even the naive reader misses nothing.
      assert.equal(outOfOrder, 0);
      assert.equal(missedByNaive, 0);
    }
  });

  it('a subscriber that restarts the fan-out from an older position gets every event after it', async (t) => {
    const test = await listeningTestApp(t, target);
    const feed = new EventFeed(test.database, test.databaseUrl);
    const fanOut = new EventFanOut({ events: feed }, test.app.log);
    const record = (n: number) => recordEvent(test.db, { type: 'ticket.created', data: { n }, at: n });
    for (let n = 1; n <= 3; n++) await record(n);
    for (let n = 4; n <= 5; n++) await record(n);
    await feed.sequence();
    const ahead = subscriberAt(3);
    const behind = subscriberAt(1);
    // The first subscriber starts a read after 3; before it returns, the only subscriber is one at 1.
    fanOut.join(ahead);
    fanOut.leave(ahead);
    fanOut.join(behind);
    const deadline = Date.now() + 5000;
    while (behind.positions.length < 4 && Date.now() < deadline) await sleep(20);
    assert.deepEqual(behind.positions, [2, 3, 4, 5]);
    fanOut.leave(behind);
  });

  it('cuts off a client that stops reading instead of buffering without bound; it resumes from where it got', async (t) => {
    const test = await listeningTestApp(t, target);
    const { cookies } = await loggedInUser(test.app, test.db, 'staff');
    const { port } = new URL(test.base);
    const socket = connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    socket.pause();
    socket.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookies}\r\n\r\n`);
    await sleep(200);
    const padding = 'x'.repeat(100_000);
    const total = 200;
    for (let n = 1; n <= total; n++) {
      await recordEvent(test.db, { type: 'ticket.created', data: { n, padding }, at: n });
      // Separate reads of the fan-out, so the server sees its buffer grow between writes.
      if (n % 5 === 0) await sleep(30);
    }
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.resume();
    await Promise.race([
      once(socket, 'close'),
      sleep(5000).then(() => assert.fail('the stream was never cut off')),
    ]);
    const positions = [...received.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
    assert.ok(positions.length < total, `received all ${total} events`);
    assert.deepEqual(
      positions,
      positions.map((_, index) => index + 1),
    );
    const resumed = await openStream(test.base, cookies, '/events', {
      'last-event-id': String(positions.at(-1) ?? 0),
    });
    await resumed.until(() => resumed.events().length === total - positions.length, 10_000);
    assert.equal(resumed.events()[0]?.id, String((positions.at(-1) ?? 0) + 1));
    await resumed.cancel();
  });

  it('sends a heartbeat comment on a stream with no traffic', async (t) => {
    const test = await listeningTestApp(t, target, { env: { POS_EVENTS_HEARTBEAT_MS: '200' } });
    const { cookies } = await loggedInUser(test.app, test.db, 'staff');
    const stream = await openStream(test.base, cookies);
    const opened = Date.now();
    await stream.until(() => stream.frames.some((frame) => frame.comment === 'heartbeat'), 2000);
    assert.ok(Date.now() - opened < 2000);
    assert.deepEqual(stream.events(), []);
    await stream.cancel();
  });

  it('takes a heartbeat interval of at most the 15 s the contract allows', () => {
    for (const bad of ['50', '15001', '1.5', 'soon']) {
      assert.throws(
        () => testConfig({ POS_EVENTS_HEARTBEAT_MS: bad }),
        /POS_EVENTS_HEARTBEAT_MS must be an integer from 100 to 15000/,
      );
    }
    assert.equal(testConfig({ POS_EVENTS_HEARTBEAT_MS: '15000' }).eventsHeartbeatMs, 15_000);
    assert.equal(testConfig().eventsHeartbeatMs, 10_000);
  });

  it('ends the stream within 5 s when the user’s PIN is changed, and when the user is deleted', async (t) => {
    const test = await listeningTestApp(t, target);
    const admin = callerFor(test.app, (await loggedInUser(test.app, test.db, 'admin')).cookies);
    for (const revoke of ['pin', 'delete'] as const) {
      const { user, cookies } = await loggedInUser(test.app, test.db, 'staff');
      const stream = await openStream(test.base, cookies);
      await stream.until(() => stream.frames.length > 0);
      const response =
        revoke === 'pin'
          ? await admin('PUT', `/users/${user.id}`, { name: user.name, pin: '97531', role: 'staff' })
          : await admin('DELETE', `/users/${user.id}`);
      assert.ok(response.statusCode < 300, response.body);
      const started = Date.now();
      await stream.until(() => stream.isEnded(), 5000);
      assert.ok(Date.now() - started < 5000, revoke);
    }
  });

  if (target.name === 'postgres') {
    it('a change made through one server process reaches a stream held on another', async (t) => {
      const test = await listeningTestApp(t, target);
      const { user, cookies } = await loggedInUser(test.app, test.db, 'admin');
      const dish = await insertDish(test.db);
      const other = await startServerProcess({
        DATABASE_URL: test.databaseUrl,
        POS_PIN_KEY: TEST_PIN_KEY,
        POS_JWT_SECRET: TEST_JWT_SECRET,
      });
      t.after(async () => {
        other.child.kill('SIGTERM');
        await exitCodeOf(other.child);
      });
      // Process B runs on the real clock and test app A on a manual one: B's cookies come from B.
      const login = await fetch(`${other.baseUrl}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: user.name, pin: user.pin }),
      });
      assert.equal(login.status, 200);
      const cookiesOnB = login.headers
        .getSetCookie()
        .map((cookie) => cookie.split(';')[0])
        .join('; ');
      const stream = await openStream(other.baseUrl, cookiesOnB, '/events?topics=tickets');
      assert.equal(stream.status, 200);
      await stream.until(() => stream.frames.length > 0);
      const latencies: number[] = [];
      for (let round = 1; round <= 5; round++) {
        const call = callerFor(test.app, cookies);
        const order = await call('POST', '/orders/with-dishes', {
          order: {},
          dishes: [{ dish_id: dish.id, price_at_order: 10 }],
        });
        const bill = await call('POST', `/orders/${order.json().id}/tickets`, {});
        assert.equal(bill.statusCode, 201, bill.body);
        const committedAt = Date.now();
        await stream.until(() => stream.events().length === round, 5000);
        latencies.push(Date.now() - committedAt);
        const delivered = JSON.parse(stream.events()[round - 1]?.data ?? '{}');
        assert.equal(delivered.type, 'ticket.created');
        assert.equal(delivered.data.id, bill.json().id);
      }
      t.diagnostic(`process A to a stream on process B: ${latencies.join(', ')} ms`);
      await stream.cancel();
    });
  }
});
