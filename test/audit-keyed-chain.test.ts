import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { buildApp, PUBLISH_AUDIT_HEAD } from '../src/app';
import { auditRekeyCommand } from '../src/cli/commands';
import type { Db } from '../src/core/db/database';
import { createContext } from '../src/create-context';
import { buildTestApp, describeEachDatabase, type TestApp } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { captureLogs } from './helpers/log-capture';
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

  it('never re-keys at start: a log without its head, forged with plain SHA-256, fails after a restart', async (t) => {
    const { db, admin, ...test } = await withFiveEntries(t, target);
    await db.updateTable('audit_log').set({ after: '{"business_name":"Z"}' }).where('seq', '=', 3).execute();
    await rehashFrom(db, 1);
    await db.deleteFrom('app_settings').where('name', '=', 'audit_head').execute();
    const forged = await rows(db);
    const restarted = await restart(t, test);
    assert.deepEqual(await rows(db), forged, 'the start-up rewrote no entry');
    const { cookies } = await loggedInUser(restarted, db, 'admin');
    const verified = await verify(callerFor(restarted, cookies));
    assert.equal(verified.ok, false);
  });

  it('moves an intact unkeyed log to the keyed chain by an explicit command, once', async (t) => {
    const { db, admin, ...test } = await withFiveEntries(t, target);
    // The database as a version from before the key left it: a plain SHA-256 chain and no head.
    await rehashFrom(db, 1);
    await db.deleteFrom('app_settings').where('name', '=', 'audit_head').execute();
    const unkeyed = await rows(db);
    const ctx = await createContext(test.config, test.database, test.clock);
    assert.equal(
      await auditRekeyCommand(ctx),
      'Audit log moved to the keyed chain: 5 entries from before the key re-hashed, the head signed.',
    );
    assert.deepEqual(await verify(admin), { ok: true, entries: 6 });
    const rekeyed = await rows(db);
    assert.deepEqual(
      rekeyed.slice(0, 5).map((row) => [row.id, row.after]),
      unkeyed.map((row) => [row.id, row.after]),
    );
    assert.equal(rekeyed[5]?.action, 'cli.audit_rekeyed');
    const once = { message: 'The audit log was already moved to the keyed chain once' };
    await assert.rejects(auditRekeyCommand(ctx), once);
    // Deleting the head again does not earn a second re-key of a forged log.
    await rehashFrom(db, 2);
    await db.deleteFrom('app_settings').where('name', '=', 'audit_head').execute();
    await assert.rejects(auditRekeyCommand(ctx), once);
    assert.equal((await verify(admin)).ok, false);
  });

  it('re-keys an old log that took entries after the upgrade; the break they recorded waits for an admin', async (t) => {
    const { app, db, admin, ...test } = await withFiveEntries(t, target);
    await rehashFrom(db, 1);
    await db.deleteFrom('app_settings').where('name', '=', 'audit_head').execute();
    // Upgraded and in service before anyone ran the command: a login is recorded, after a break entry.
    await loggedInUser(app, db, 'admin');
    const ctx = await createContext(test.config, test.database, test.clock);
    assert.match(await auditRekeyCommand(ctx), /: 5 entries from before the key re-hashed/);
    const entries = await rows(db);
    assert.deepEqual(
      entries.slice(5).map((row) => row.action),
      ['audit.chain_broken', 'auth.login', 'cli.audit_rekeyed'],
    );
    const broken = entries[5] as Row;
    assert.deepEqual((await verify(admin)).broken_at, brokenAt(broken));
    const acknowledged = await admin('POST', `/audit/breaks/${broken.id}/acknowledge`, {
      note: 'The upgrade',
    });
    assert.equal(acknowledged.statusCode, 204);
    assert.deepEqual(await verify(admin), { ok: true, entries: 9 });
  });

  it('refuses to re-key an unkeyed log that was already broken, and leaves it as found', async (t) => {
    const { db, ...test } = await withFiveEntries(t, target);
    await rehashFrom(db, 1);
    await db.deleteFrom('app_settings').where('name', '=', 'audit_head').execute();
    await db.updateTable('audit_log').set({ after: '{"business_name":"Z"}' }).where('seq', '=', 2).execute();
    const before = await rows(db);
    const ctx = await createContext(test.config, test.database, test.clock);
    await assert.rejects(auditRekeyCommand(ctx), {
      message: 'The audit log is not an intact unkeyed chain: nothing changed',
    });
    assert.deepEqual(await rows(db), before);
  });

  it('refuses to re-key a log that is keyed already', async (t) => {
    const { db, ...test } = await withFiveEntries(t, target);
    const before = await rows(db);
    const ctx = await createContext(test.config, test.database, test.clock);
    await assert.rejects(auditRekeyCommand(ctx), {
      message: 'The audit log is keyed already: nothing changed',
    });
    assert.deepEqual(await rows(db), before);
  });

  it('records a deleted newest entry at the next audited action, and fails verify until an admin acknowledges it', async (t) => {
    const { app, db, admin } = await withFiveEntries(t, target);
    const deleted = (await rows(db))[4] as Row;
    await db.deleteFrom('audit_log').where('seq', '=', 5).execute();
    await loggedInUser(app, db, 'admin'); // one audited action: a login
    const after = await rows(db);
    const broken = after.find((row) => row.action === 'audit.chain_broken') as Row;
    assert.equal(broken.seq, 5);
    assert.deepEqual(JSON.parse(broken.before as string).signed_head, { seq: 5, hash: deleted.hash });
    assert.equal(JSON.parse(broken.after as string).chain_end.seq, 4);
    const failing = {
      ok: false,
      broken_at: brokenAt(broken),
      reason:
        'Before this entry the chain did not end where its signed head said (entries deleted or the head ' +
        'changed): an administrator has not acknowledged it yet',
    };
    assert.deepEqual(await verify(admin), failing);
    assert.equal((await admin('PUT', '/settings', { business_name: 'E' })).statusCode, 200);
    assert.deepEqual(await verify(admin), failing, 'still failing after more actions');

    const cook = callerFor(app, (await loggedInUser(app, db, 'kitchen')).cookies);
    const path = `/audit/breaks/${broken.id}/acknowledge`;
    assert.equal((await cook('POST', path, { note: 'Checked' })).statusCode, 403);
    assert.equal(
      (await admin('POST', `/audit/breaks/${after[0]?.id}/acknowledge`, { note: 'x' })).statusCode,
      400,
    );
    const acknowledged = await admin('POST', path, { note: 'Entry 5 deleted by a test' });
    assert.equal(acknowledged.statusCode, 204, acknowledged.body);
    const entries = await rows(db);
    const last = entries.at(-1) as Row;
    assert.deepEqual(
      [last.action, last.target_id, JSON.parse(last.after as string)],
      ['audit.break_acknowledged', broken.id, { note: 'Entry 5 deleted by a test' }],
    );
    assert.deepEqual(await verify(admin), { ok: true, entries: entries.length });
    assert.equal((await admin('POST', path, { note: 'again' })).statusCode, 400);
  });

  it('refuses a head rolled back behind one published outside the database (the anchor file, a printed Z head)', async (t) => {
    const folder = mkdtempSync(join(tmpdir(), 'pos-anchor-'));
    t.after(() => rmSync(folder, { recursive: true, force: true }));
    const anchorFile = join(folder, 'audit-head');
    const test = await buildTestApp(t, target, { env: { POS_AUDIT_ANCHOR_FILE: anchorFile } });
    const { app, db } = test;
    const admin = callerFor(app, (await loggedInUser(app, db, 'admin')).cookies);
    const headRow = () =>
      db
        .selectFrom('app_settings')
        .select('value')
        .where('name', '=', 'audit_head')
        .executeTakeFirstOrThrow();

    // The attack: copy the head, act, publish, delete the entries after the copy, put the copy back.
    const copied = await headRow();
    const copiedSeq = JSON.parse(copied.value).seq as number;
    for (const name of ['A', 'B', 'C']) {
      assert.equal((await admin('PUT', '/settings', { business_name: name })).statusCode, 200);
    }
    await app.jobs.run(PUBLISH_AUDIT_HEAD);
    const published = JSON.parse(readFileSync(anchorFile, 'utf8'));
    const { seq: printedSeq, hash: printedHash } = JSON.parse((await headRow()).value);
    assert.deepEqual([published.seq, published.hash], [printedSeq, printedHash]);
    assert.equal(statSync(anchorFile).mode & 0o777, 0o600);
    await db.deleteFrom('audit_log').where('seq', '>', copiedSeq).execute();
    await db
      .updateTable('app_settings')
      .set({ value: copied.value })
      .where('name', '=', 'audit_head')
      .execute();

    const rolledBack =
      'A head published outside the database (the anchor file beside it, or a Z report) is not in the ' +
      'chain: the newest entries were deleted and an older head put back';
    assert.equal((await verify(admin)).reason, rolledBack);
    // Another instance (a restart) reads the anchor from its file and says the same.
    const restarted = callerFor(await restart(t, test), (await loggedInUser(app, db, 'admin')).cookies);
    assert.equal((await verify(restarted)).reason, rolledBack);
    // The job does not publish the older head over the newer one.
    await app.jobs.run(PUBLISH_AUDIT_HEAD);
    assert.equal(JSON.parse(readFileSync(anchorFile, 'utf8')).seq, printedSeq);

    // The next audited action records the break rather than silently re-using the numbers.
    assert.equal((await admin('PUT', '/settings', { business_name: 'D' })).statusCode, 200);
    const broken = (await rows(db)).find((row) => row.action === 'audit.chain_broken') as Row;
    assert.equal(broken.seq, copiedSeq + 1);
    assert.deepEqual(JSON.parse(broken.before as string).published_head, {
      seq: printedSeq,
      hash: printedHash,
    });
    assert.equal(
      (await rows(db)).filter((row) => row.action === 'audit.chain_broken').length,
      1,
      'one break for the rollback',
    );

    // A head printed on a Z report, checked by hand, fails the same way; an administrator's
    // acknowledgment vouches for the log from there and moves the anchor.
    const printed = await admin('GET', `/audit/verify?seq=${printedSeq}&hash=${printedHash}`);
    assert.equal(printed.json().ok, false);
    assert.equal((await admin('GET', `/audit/verify?seq=${printedSeq}`)).statusCode, 400);
    const acknowledged = await admin('POST', `/audit/breaks/${broken.id}/acknowledge`, {
      note: 'Restored by us',
    });
    assert.equal(acknowledged.statusCode, 204, acknowledged.body);
    assert.equal((await verify(admin)).ok, true);
    assert.equal(JSON.parse(readFileSync(anchorFile, 'utf8')).seq, (await rows(db)).length);
  });

  it('publishes the signed head in each Z report and in the server log at every shift close', async (t) => {
    const logs = captureLogs();
    const { app, db } = await buildTestApp(t, target, { env: { LOG_LEVEL: 'info' }, logStream: logs.stream });
    const admin = callerFor(app, (await loggedInUser(app, db, 'admin')).cookies);
    const shift = (await admin('POST', '/shifts', { opening_cash: 10 })).json();
    assert.equal((await admin('POST', `/shifts/${shift.id}/close`, { counted_cash: 10 })).statusCode, 200);
    const stored = await db
      .selectFrom('app_settings')
      .select('value')
      .where('name', '=', 'audit_head')
      .executeTakeFirstOrThrow();
    const { seq, hash } = JSON.parse(stored.value);
    const report = (await admin('GET', `/shifts/${shift.id}/report`)).json();
    assert.deepEqual(report.audit_head, { seq, hash });
    assert.ok(logs.text().includes(`"audit_head":{"seq":${seq},"hash":"${hash}"}`), logs.text());
  });
});

/** A second instance on the same database, as after an upgrade and restart. */
async function restart(t: Parameters<typeof buildTestApp>[0], test: Omit<TestApp, 'db' | 'app'>) {
  const app = await buildApp(test.config, { database: test.database, clock: test.clock, startJobs: false });
  t.after(() => app.close());
  return app;
}
