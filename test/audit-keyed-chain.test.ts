import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { it } from 'node:test';
import { buildApp } from '../src/app';
import type { Db } from '../src/core/db/database';
import { buildTestApp, describeEachDatabase, type TestApp } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { type Caller, callerFor } from './helpers/orders-factories';

type Row = {
  id: string;
  seq: number;
  at: number;
  actor_id: string | null;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: string | null;
  before: string | null;
  after: string | null;
  prev_hash: string;
  hash: string;
};

/** What someone with write access to the database, but not the key, can compute: plain SHA-256. */
function forgedHash(row: Row): string {
  const canonical = JSON.stringify([
    row.prev_hash,
    row.seq,
    row.id,
    row.at,
    row.actor_id,
    row.actor_name,
    row.action,
    row.target_type,
    row.target_id,
    row.before,
    row.after,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

async function rows(db: Db): Promise<Row[]> {
  const stored = await db.selectFrom('audit_log').selectAll().orderBy('seq').execute();
  return stored.map((row) => ({ ...row, seq: Number(row.seq), at: Number(row.at) }));
}

/** Rewrites every entry from `seq` on with hashes the forger can compute, as a consistent SHA-256 chain. */
async function rehashFrom(db: Db, seq: number): Promise<void> {
  const all = await rows(db);
  let previous = all[seq - 2]?.hash ?? '0'.repeat(64);
  for (const row of all.filter((entry) => entry.seq >= seq)) {
    const hash = forgedHash({ ...row, prev_hash: previous });
    await db.updateTable('audit_log').set({ prev_hash: previous, hash }).where('seq', '=', row.seq).execute();
    previous = hash;
  }
}

const brokenAt = (row: Row | undefined) =>
  row ? { id: row.id, seq: row.seq, at: row.at, action: row.action } : null;

async function withFiveEntries(
  t: Parameters<typeof buildTestApp>[0],
  target: Parameters<typeof buildTestApp>[1],
) {
  const test = await buildTestApp(t, target);
  const { cookies } = await loggedInUser(test.app, test.db, 'admin');
  const admin = callerFor(test.app, cookies);
  for (const name of ['A', 'B', 'C', 'D']) {
    assert.equal((await admin('PUT', '/settings', { business_name: name })).statusCode, 200);
  }
  return { ...test, admin };
}

async function verify(admin: Caller) {
  const response = await admin('GET', '/audit/verify');
  assert.equal(response.statusCode, 200, response.body);
  return response.json();
}

describeEachDatabase('audit chain keyed outside the database', (target) => {
  it('verifies a normal chain', async (t) => {
    const { admin } = await withFiveEntries(t, target);
    assert.deepEqual(await verify(admin), { ok: true, entries: 5 });
  });

  it('names an entry edited and re-hashed, with every later entry re-hashed too', async (t) => {
    const { db, admin } = await withFiveEntries(t, target);
    const third = (await rows(db))[2] as Row;
    await db.updateTable('audit_log').set({ after: '{"business_name":"Z"}' }).where('seq', '=', 3).execute();
    await rehashFrom(db, 3);
    assert.deepEqual(await verify(admin), {
      ok: false,
      broken_at: brokenAt(third),
      reason: 'The entry does not match its hash: it was changed',
    });
  });

  it('notices the newest entries deleted, and every entry deleted', async (t) => {
    const { db, admin } = await withFiveEntries(t, target);
    const all = await rows(db);
    await db.deleteFrom('audit_log').where('seq', '>=', 4).execute();
    assert.deepEqual(await verify(admin), {
      ok: false,
      broken_at: brokenAt(all[2]),
      reason: 'Entries after this one are missing: the newest were deleted',
    });
    await db.deleteFrom('audit_log').execute();
    assert.deepEqual(await verify(admin), {
      ok: false,
      broken_at: null,
      reason: 'Entries after this one are missing: the newest were deleted',
    });
  });

  it('notices a head moved back or removed by someone without the key', async (t) => {
    const { db, admin } = await withFiveEntries(t, target);
    const all = await rows(db);
    const stored = await db
      .selectFrom('app_settings')
      .select('value')
      .where('name', '=', 'audit_head')
      .executeTakeFirstOrThrow();
    const head = JSON.parse(stored.value);
    assert.equal(head.seq, 5);
    await db.deleteFrom('audit_log').where('seq', '>=', 4).execute();
    const moved = JSON.stringify({ ...head, seq: 3, hash: all[2]?.hash });
    await db.updateTable('app_settings').set({ value: moved }).where('name', '=', 'audit_head').execute();
    assert.deepEqual(await verify(admin), {
      ok: false,
      broken_at: brokenAt(all[2]),
      reason: 'The head of the chain does not match its signature: it was changed',
    });
    await db.deleteFrom('app_settings').where('name', '=', 'audit_head').execute();
    assert.deepEqual(await verify(admin), {
      ok: false,
      broken_at: brokenAt(all[2]),
      reason: 'The signed head of the chain is missing: the newest entries cannot be vouched for',
    });
  });

  it('refuses a head signed with the same key for another database, put over the truncated chain', async (t) => {
    const { db, admin } = await withFiveEntries(t, target);
    const other = await buildTestApp(t, target);
    const otherAdmin = callerFor(other.app, (await loggedInUser(other.app, other.db, 'admin')).cookies);
    for (const name of ['X', 'Y']) {
      assert.equal((await otherAdmin('PUT', '/settings', { business_name: name })).statusCode, 200);
    }
    const headOf = async (database: Db) =>
      (
        await database
          .selectFrom('app_settings')
          .select('value')
          .where('name', '=', 'audit_head')
          .executeTakeFirstOrThrow()
      ).value;
    const foreignHead = await headOf(other.db);
    assert.equal(JSON.parse(foreignHead).seq, 3);
    assert.deepEqual(await verify(otherAdmin), { ok: true, entries: 3 });
    const all = await rows(db);
    await db.deleteFrom('audit_log').where('seq', '>=', 4).execute();
    await db
      .updateTable('app_settings')
      .set({ value: foreignHead })
      .where('name', '=', 'audit_head')
      .execute();
    assert.deepEqual(await verify(admin), {
      ok: false,
      broken_at: brokenAt(all[2]),
      reason: 'The head of the chain does not match its signature: it was changed',
    });
  });

  it('re-keys the unkeyed chain of a database from before the key at start, once, and keeps appending to it', async (t) => {
    const { db, admin, ...test } = await withFiveEntries(t, target);
    // The database as the previous version left it: a plain SHA-256 chain and no head.
    await rehashFrom(db, 1);
    await db.deleteFrom('app_settings').where('name', '=', 'audit_head').execute();
    const unkeyed = await rows(db);
    const restarted = await restart(t, test);
    const { cookies } = await loggedInUser(restarted, db, 'admin');
    const again = callerFor(restarted, cookies);
    assert.deepEqual(await verify(again), { ok: true, entries: 6 });
    const rekeyed = await rows(db);
    assert.deepEqual(
      rekeyed.slice(0, 5).map((row) => [row.id, row.after]),
      unkeyed.map((row) => [row.id, row.after]),
    );
    assert.notEqual(rekeyed[0]?.hash, unkeyed[0]?.hash);
    // Once keyed, forging the old way is caught.
    await rehashFrom(db, 2);
    assert.equal((await verify(again)).ok, false);
  });

  it('leaves an unkeyed chain that was already broken as found, and says where it breaks', async (t) => {
    const { db, admin, ...test } = await withFiveEntries(t, target);
    await rehashFrom(db, 1);
    await db.deleteFrom('app_settings').where('name', '=', 'audit_head').execute();
    await db.updateTable('audit_log').set({ after: '{"business_name":"Z"}' }).where('seq', '=', 2).execute();
    const before = await rows(db);
    const restarted = await restart(t, test);
    assert.deepEqual(await rows(db), before);
    const { cookies } = await loggedInUser(restarted, db, 'admin');
    const verified = await verify(callerFor(restarted, cookies));
    assert.deepEqual([verified.ok, verified.broken_at?.seq], [false, 1]);
  });
});

/** A second instance on the same database, as after an upgrade and restart. */
async function restart(t: Parameters<typeof buildTestApp>[0], test: Omit<TestApp, 'db' | 'app'>) {
  const app = await buildApp(test.config, { database: test.database, clock: test.clock, startJobs: false });
  t.after(() => app.close());
  return app;
}
