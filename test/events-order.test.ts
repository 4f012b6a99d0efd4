import assert from 'node:assert/strict';
import { it } from 'node:test';
import { EventFeed } from '../src/events/event-feed';
import { eventsAfter } from '../src/events/events.repo';
import { recordEvent } from '../src/events/record-event';
import { buildTestApp, describeEachDatabase, type TestApp } from './helpers/app';

type Context = Parameters<typeof buildTestApp>[0];

async function startedFeed(t: Context, test: TestApp): Promise<EventFeed> {
  const feed = new EventFeed(test.database, test.databaseUrl);
  await feed.start(test.app.log);
  t.after(() => feed.stop());
  return feed;
}

function record(db: TestApp['db'], n: number) {
  return recordEvent(db, { type: 'ticket.created', data: { n }, at: 1000 + n });
}

function nextPositions(feed: EventFeed, above: number): Promise<number> {
  return new Promise((resolve) => {
    const stop = feed.onNewPositions((latest) => {
      if (latest <= above) return;
      stop();
      resolve(latest);
    });
  });
}

describeEachDatabase('event positions', (target) => {
  it('numbers events in commit order and wakes the feed after each commit', async (t) => {
    const test = await buildTestApp(t, target);
    const feed = await startedFeed(t, test);
    const woken = nextPositions(feed, 0);
    await test.db.transaction().execute(async (trx) => {
      await record(trx, 1);
      await record(trx, 2);
    });
    assert.equal(await woken, 2);
    const rows = await eventsAfter(test.db, 0, 10);
    assert.deepEqual(
      rows.map((row) => [row.position, JSON.parse(row.payload).data.n, row.topic]),
      [
        [1, 1, 'tickets'],
        [2, 2, 'tickets'],
      ],
    );
    assert.deepEqual(await eventsAfter(test.db, 1, 10).then((r) => r.map((row) => row.position)), [2]);
  });

  it('a rolled-back write leaves nothing in the outbox and wakes nobody', async (t) => {
    const test = await buildTestApp(t, target);
    const feed = await startedFeed(t, test);
    let wakes = 0;
    feed.onNewPositions(() => wakes++);
    await assert.rejects(
      test.db.transaction().execute(async (trx) => {
        await record(trx, 1);
        throw new Error('rolled back');
      }),
    );
    await feed.sequence();
    feed.wake();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(wakes, 0);
    assert.deepEqual(await eventsAfter(test.db, 0, 10), []);
  });

  if (target.name === 'postgres') {
    it('a naive `id > last` reader skips a late commit; the position reader does not', async (t) => {
      const test = await buildTestApp(t, target);
      const feed = await startedFeed(t, test);
      let releaseA!: () => void;
      const aMayCommit = new Promise<void>((resolve) => {
        releaseA = resolve;
      });
      let aInserted!: () => void;
      const aHasInserted = new Promise<void>((resolve) => {
        aInserted = resolve;
      });
      const transactionA = test.db.transaction().execute(async (trx) => {
        await record(trx, 1);
        aInserted();
        await aMayCommit;
      });
      await aHasInserted;
      await record(test.db, 2);
      await feed.sequence();

      const naiveFirst = await test.db.selectFrom('events').select('id').orderBy('id').execute();
      const naiveCursor = Math.max(...naiveFirst.map((row) => row.id));
      const ours = await eventsAfter(test.db, 0, 10);
      assert.deepEqual(
        ours.map((row) => JSON.parse(row.payload).data.n),
        [2],
      );
      const cursor = ours[0]?.position ?? 0;

      releaseA();
      await transactionA;
      await feed.sequence();
      const naiveThen = await test.db
        .selectFrom('events')
        .select('id')
        .where('id', '>', naiveCursor)
        .execute();
      assert.deepEqual(naiveThen, [], 'the naive reader never sees the event of transaction A');
      const oursThen = await eventsAfter(test.db, cursor, 10);
      assert.deepEqual(
        oursThen.map((row) => JSON.parse(row.payload).data.n),
        [1],
      );
      assert.equal(
        await test.db
          .selectFrom('events')
          .select('id')
          .execute()
          .then((r) => r.length),
        2,
      );
    });

    it('a LISTEN notification alone gets a new event numbered and announced', async (t) => {
      const test = await buildTestApp(t, target);
      const feed = await startedFeed(t, test);
      const woken = nextPositions(feed, 0);
      await record(test.db, 1);
      assert.equal(await woken, 1);
    });
  }
});
