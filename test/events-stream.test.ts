import assert from 'node:assert/strict';
import { it } from 'node:test';
import { recordEvent } from '../src/events/record-event';
import { describeEachDatabase, type TestApp } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { listeningTestApp, openStream } from './helpers/sse-client';

function record(test: TestApp, type: 'ticket.created' | 'payment.settled', n: number) {
  return recordEvent(test.db, { type, data: { n }, at: test.clock.now() });
}

describeEachDatabase('GET /events', (target) => {
  it('streams new events live, filters topics, and replays after Last-Event-ID (header and query)', async (t) => {
    const test = await listeningTestApp(t, target);
    const { cookies } = await loggedInUser(test.app, test.db, 'staff');
    const all = await openStream(test.base, cookies);
    const tickets = await openStream(test.base, cookies, '/events?topics=tickets');
    assert.equal(all.status, 200);
    // `: connected` promises every event committed after it.
    for (const stream of [all, tickets]) await stream.until(() => stream.frames.length > 0);
    await record(test, 'ticket.created', 1);
    await record(test, 'payment.settled', 2);
    await record(test, 'ticket.created', 3);
    await all.until(() => all.events().length === 3);
    assert.deepEqual(
      all.events().map((frame) => [frame.id, frame.event, JSON.parse(frame.data ?? '').data.n]),
      [
        ['1', 'ticket.created', 1],
        ['2', 'payment.settled', 2],
        ['3', 'ticket.created', 3],
      ],
    );
    await tickets.until(() => tickets.events().length === 2);
    assert.deepEqual(
      tickets.events().map((frame) => frame.id),
      ['1', '3'],
    );

    const byHeader = await openStream(test.base, cookies, '/events', { 'last-event-id': '1' });
    await byHeader.until(() => byHeader.events().length === 2);
    assert.deepEqual(
      byHeader.events().map((frame) => frame.id),
      ['2', '3'],
    );
    const byQuery = await openStream(test.base, cookies, '/events?last_event_id=2');
    await byQuery.until(() => byQuery.events().length === 1);
    assert.equal(byQuery.events()[0]?.id, '3');
    for (const stream of [all, tickets, byHeader, byQuery]) await stream.cancel();
  });

  it('refuses a malformed Last-Event-ID and an unknown topic with 400, and anonymous callers with 401', async (t) => {
    const test = await listeningTestApp(t, target);
    const { cookies } = await loggedInUser(test.app, test.db, 'staff');
    const badHeader = await fetch(`${test.base}/events`, {
      headers: { cookie: cookies, 'last-event-id': 'x' },
    });
    assert.equal(badHeader.status, 400);
    const badTopic = await fetch(`${test.base}/events?topics=wallet`, { headers: { cookie: cookies } });
    assert.equal(badTopic.status, 400);
    assert.equal((await fetch(`${test.base}/events`)).status, 401);
  });

  it('sends `event: reset` when the replay position is older than what is kept', async (t) => {
    const test = await listeningTestApp(t, target);
    await record(test, 'ticket.created', 1);
    await record(test, 'ticket.created', 2);
    await test.app.jobs.run('events-sequencer');
    test.clock.advance(26 * 60 * 60 * 1000);
    const { cookies } = await loggedInUser(test.app, test.db, 'staff');
    await record(test, 'ticket.created', 3);
    await test.app.jobs.run('events-sequencer');
    await test.app.jobs.run('events-prune');
    const stream = await openStream(test.base, cookies, '/events', { 'last-event-id': '0' });
    await stream.until(() => stream.events().length === 2);
    assert.deepEqual(
      stream.events().map((frame) => frame.event),
      ['reset', 'ticket.created'],
    );
    assert.equal(stream.events()[1]?.id, '3');
    assert.equal(
      await test.db
        .selectFrom('events')
        .select('id')
        .execute()
        .then((rows) => rows.length),
      1,
    );
    await stream.cancel();
  });

  it('ends the stream within 5 s of logout', async (t) => {
    const test = await listeningTestApp(t, target);
    const { cookies } = await loggedInUser(test.app, test.db, 'staff');
    const stream = await openStream(test.base, cookies);
    await stream.until(() => stream.frames.length > 0);
    const logout = await fetch(`${test.base}/auth/logout`, { method: 'POST', headers: { cookie: cookies } });
    assert.ok(logout.status < 300, String(logout.status));
    const started = Date.now();
    await stream.until(() => stream.isEnded(), 5000);
    assert.ok(Date.now() - started < 5000);
  });

  it('closes open streams on shutdown', async (t) => {
    const test = await listeningTestApp(t, target);
    const { cookies } = await loggedInUser(test.app, test.db, 'staff');
    const stream = await openStream(test.base, cookies);
    await stream.until(() => stream.frames.length > 0);
    await test.app.close();
    await stream.until(() => stream.isEnded(), 5000);
  });
});
