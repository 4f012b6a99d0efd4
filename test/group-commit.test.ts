import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { buildApp } from '../src/app';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../src/core/db/database';
import type { SyncFile } from '../src/core/db/wal-sync';
import { testConfig } from './helpers/app';
import { loggedInUser } from './helpers/auth';

type TestContext = { after: (fn: () => Promise<void> | void) => void };

/** An fdatasync the test releases by hand, counting how often it ran. */
function gatedSync() {
  let release: () => void = () => {};
  let gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const state = {
    calls: 0,
    open: () => release(),
    close: () => {
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
    },
    sync: (async (file: FileHandle) => {
      state.calls++;
      await gate;
      await file.datasync();
    }) as SyncFile,
  };
  return state;
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

const isSettled = async (promise: Promise<unknown>) => {
  let settled = false;
  void promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await sleep(30);
  return settled;
};

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
    await sleep(10);
    await sql`insert into notes (body) values ('c')`.execute(database.db);
    const second = database.flushCommits();

    assert.equal(await isSettled(first), false, 'no answer before the sync finishes');
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
    const app = await buildApp(testConfig({ DATABASE_URL: url }), { database });
    t.after(() => app.close());
    const { cookies } = await loggedInUser(app, database.db);
    await database.flushCommits();
    sync.close();

    const answer = app.inject({
      method: 'POST',
      url: '/categories',
      headers: { cookie: cookies },
      payload: { name: 'Soups', type: 'dish' },
    });
    assert.equal(await isSettled(answer), false);
    const stored = await database.db.selectFrom('categories').select('name').execute();
    assert.deepEqual(stored, [{ name: 'Soups' }], 'committed, but not yet acknowledged');

    const read = app.inject({ method: 'GET', url: '/categories?type=dish', headers: { cookie: cookies } });
    assert.equal(await isSettled(read), false, 'a read that would show it waits too');

    sync.open();
    assert.equal((await answer).statusCode, 201);
    assert.equal((await read).statusCode, 200);
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
