import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { buildApp } from '../src/app';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../src/core/db/database';
import type { SyncFile } from '../src/core/db/wal-sync';
import { testConfig } from './helpers/app';
import { loggedInUser } from './helpers/auth';

type TestContext = { after: (fn: () => Promise<void> | void) => void };

/**
 * An fdatasync the test releases by hand, counting how often it ran; `whenWaiting()` resolves once a
 * sync is held at the gate, so the test knows where the flush stands without waiting for time to pass.
 */
function gatedSync() {
  let release: () => void = () => {};
  let gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let waiting = 0;
  let onWaiting: (() => void)[] = [];
  const state = {
    calls: 0,
    open: () => release(),
    close: () => {
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
    },
    whenWaiting: () =>
      waiting > 0 ? Promise.resolve() : new Promise<void>((resolve) => onWaiting.push(resolve)),
    sync: (async (file: FileHandle) => {
      state.calls++;
      waiting++;
      for (const notify of onWaiting) notify();
      onWaiting = [];
      await gate;
      waiting--;
      await file.datasync();
    }) as SyncFile,
  };
  return state;
}

/**
 * The app's database handle, reporting each flush the app asks for (an answer about to wait for the
 * disk) and when it completed, in one log with the answers the test records.
 */
function observedFlushes(database: DatabaseHandle) {
  const events: string[] = [];
  let asked = 0;
  let onAsked: { count: number; resolve: () => void }[] = [];
  const handle: DatabaseHandle = {
    ...database,
    flushCommits: () => {
      asked++;
      events.push('flush asked');
      for (const waiter of onAsked.filter((waiter) => waiter.count <= asked)) waiter.resolve();
      onAsked = onAsked.filter((waiter) => waiter.count > asked);
      const flushed = database.flushCommits();
      void flushed.then(
        () => events.push('flush done'),
        () => undefined,
      );
      return flushed;
    },
  };
  const whenAsked = (count: number) =>
    asked >= count ? Promise.resolve() : new Promise<void>((resolve) => onAsked.push({ count, resolve }));
  /** Forgets what happened so far (the setup's own requests). */
  const reset = () => {
    asked = 0;
    events.length = 0;
  };
  return { handle, events, whenAsked, reset };
}

/** Which happens first: a promise settling, or a condition being reached. */
async function firstOf(
  outcome: Promise<unknown>,
  condition: Promise<void>,
): Promise<'settled' | 'condition'> {
  const settled = outcome.then(
    () => 'settled' as const,
    () => 'settled' as const,
  );
  return Promise.race([settled, condition.then(() => 'condition' as const)]);
}

function sqliteFile(t: TestContext, syncWal?: SyncFile): { url: string; database: DatabaseHandle } {
  const folder = mkdtempSync(join(tmpdir(), 'pos-group-commit-'));
  const url = `sqlite:${join(folder, 'pos.sqlite')}`;
  const database = openDatabase(url, syncWal ? { syncWal } : {});
  t.after(async () => {
    await database.close();
    rmSync(folder, { recursive: true, force: true });
  });
  return { url, database };
}

async function createNotes(database: DatabaseHandle): Promise<void> {
  await sql`create table notes (id integer primary key, body text not null)`.execute(database.db);
  await database.flushCommits();
}

describe('SQLite group commit', () => {
  test('a write outside a transaction is pending until a sync of the WAL has finished', async (t) => {
    const sync = gatedSync();
    const { database } = sqliteFile(t, sync.sync);
    sync.open();
    await createNotes(database);
    assert.equal(database.hasUnflushedCommits(), false);

    await sql`select count(*) from notes`.execute(database.db);
    assert.equal(database.hasUnflushedCommits(), false, 'a read commits nothing');

    await sql`insert into notes (body) values ('soup')`.execute(database.db);
    assert.equal(database.hasUnflushedCommits(), true);
    await database.flushCommits();
    assert.equal(database.hasUnflushedCommits(), false);
  });

  test('writes inside a transaction count only once it commits', async (t) => {
    const sync = gatedSync();
    const { database } = sqliteFile(t, sync.sync);
    sync.open();
    await createNotes(database);

    await database.db.transaction().execute(async (trx) => {
      await sql`insert into notes (body) values ('bread')`.execute(trx);
      assert.equal(database.hasUnflushedCommits(), false, 'not committed yet');
    });
    assert.equal(database.hasUnflushedCommits(), true);

    await database.flushCommits();
    await database.db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into notes (body) values ('wine')`.execute(trx);
        throw new Error('changed my mind');
      })
      .catch(() => undefined);
    const rows = await sql<{ body: string }>`select body from notes order by id`.execute(database.db);
    assert.deepEqual(
      rows.rows.map((row) => row.body),
      ['bread'],
    );
  });

  test('one sync covers every commit made before it began, and only those', async (t) => {
    const sync = gatedSync();
    const { database } = sqliteFile(t, sync.sync);
    sync.open();
    await createNotes(database);
    sync.close();
    const callsBefore = sync.calls;

    await sql`insert into notes (body) values ('a')`.execute(database.db);
    await sql`insert into notes (body) values ('b')`.execute(database.db);
    const first = database.flushCommits();
    const alsoFirst = database.flushCommits();
    assert.equal(await firstOf(first, sync.whenWaiting()), 'condition', 'no answer before the sync finishes');
    await sql`insert into notes (body) values ('c')`.execute(database.db);
    const second = database.flushCommits();

    assert.equal(sync.calls - callsBefore, 1, 'the waiting flushes share one sync');
    sync.open();
    await Promise.all([first, alsoFirst, second]);
    assert.equal(sync.calls - callsBefore, 2, 'the commit made during the first sync needed a second');
    assert.equal(database.hasUnflushedCommits(), false);
  });

  test('an answer leaves only once the commit it reports is on disk', async (t) => {
    const sync = gatedSync();
    const { url, database } = sqliteFile(t, sync.sync);
    sync.open();
    const flushes = observedFlushes(database);
    const app = await buildApp(testConfig({ DATABASE_URL: url }), { database: flushes.handle });
    t.after(() => app.close());
    const { cookies } = await loggedInUser(app, database.db);
    await database.flushCommits();
    sync.close();
    flushes.reset();

    const answer = app.inject({
      method: 'POST',
      url: '/categories',
      headers: { cookie: cookies },
      payload: { name: 'Soups', type: 'dish' },
    });
    void answer.then(() => flushes.events.push('write answered'));
    const asked = flushes.whenAsked(1);
    assert.equal(await firstOf(answer, asked), 'condition', 'the answer asks for a flush before it leaves');
    assert.equal(await firstOf(answer, sync.whenWaiting()), 'condition', 'and the sync is held');
    const stored = await database.db.selectFrom('categories').select('name').execute();
    assert.deepEqual(stored, [{ name: 'Soups' }], 'committed, but not yet acknowledged');

    const read = app.inject({ method: 'GET', url: '/categories?type=dish', headers: { cookie: cookies } });
    void read.then(() => flushes.events.push('read answered'));
    assert.equal(
      await firstOf(read, flushes.whenAsked(2)),
      'condition',
      'a read that would show it waits too',
    );

    sync.open();
    assert.equal((await answer).statusCode, 201);
    assert.equal((await read).statusCode, 200);
    assert.deepEqual(flushes.events.slice(0, 4), ['flush asked', 'flush asked', 'flush done', 'flush done']);
    assert.deepEqual(flushes.events.slice(4).sort(), ['read answered', 'write answered']);
  });

  test('after a failed sync nothing more is acknowledged, and the process stays up', async (t) => {
    let failing = false;
    const { url, database } = sqliteFile(t, async (file) => {
      if (failing) throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
      await file.datasync();
    });
    const app = await buildApp(testConfig({ DATABASE_URL: url }), { database });
    t.after(() => app.close());
    await migrateToLatest(database.db);
    const { cookies } = await loggedInUser(app, database.db);
    await database.flushCommits();

    failing = true;
    const write = await app.inject({
      method: 'POST',
      url: '/categories',
      headers: { cookie: cookies },
      payload: { name: 'Soups', type: 'dish' },
    });
    assert.equal(write.statusCode, 500);
    assert.doesNotMatch(write.body, /EIO|fdatasync/, 'the cause is logged, not shown');

    failing = false;
    const later = await app.inject({
      method: 'GET',
      url: '/categories?type=dish',
      headers: { cookie: cookies },
    });
    assert.equal(later.statusCode, 500, 'once a sync failed, what is on disk cannot be trusted');
  });

  test('a database in memory has nothing to sync', async () => {
    const database = openDatabase('sqlite::memory:');
    try {
      await createNotes(database);
      await sql`insert into notes (body) values ('tea')`.execute(database.db);
      assert.equal(database.hasUnflushedCommits(), false);
    } finally {
      await database.close();
    }
  });
});
