import assert from 'node:assert/strict';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import SQLite from 'better-sqlite3';
import { buildApp } from '../src/app';
import { lastBackupAt, MANIFEST, SCHEDULED_BACKUP } from '../src/backups/scheduled-backups';
import { restoreCommand } from '../src/cli/backup-commands';
import { migrateToLatest, openDatabase } from '../src/core/db/database';
import { testConfig } from './helpers/app';
import { runScript } from './helpers/cli';
import { databaseTargets } from './helpers/database';
import { exitCodeOf, type ServerProcess, startServerProcess } from './helpers/server-process';

const CLI = 'pos';
const ADMIN = { name: 'Owner', pin: '2468' };

function temporaryFolder(t: TestContext): string {
  const folder = mkdtempSync(join(tmpdir(), 'pos-backup-'));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

async function startServer(t: TestContext, databasePath: string): Promise<ServerProcess> {
  const server = await startServerProcess({
    DATABASE_URL: `sqlite:${databasePath}`,
    POS_ADMIN_NAME: ADMIN.name,
    POS_ADMIN_PIN: ADMIN.pin,
  });
  t.after(() => stop(server));
  return server;
}

async function stop(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null) return;
  server.child.kill('SIGTERM');
  assert.equal(await exitCodeOf(server.child), 0, server.output());
}

async function loginCookie(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  assert.equal(response.status, 200, await response.text());
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}

function integrityOf(path: string): unknown {
  const database = new SQLite(path, { readonly: true, fileMustExist: true });
  try {
    return database.pragma('integrity_check', { simple: true });
  } finally {
    database.close();
  }
}

describe('backups of the SQLite database', () => {
  it('copies the live database under write load: a server on the copy has every order acknowledged before it began', async (t) => {
    const folder = temporaryFolder(t);
    const databasePath = join(folder, 'pos.db');
    const server = await startServer(t, databasePath);
    const cookie = await loginCookie(server.baseUrl);

    // Four writers, each opening orders one after another for as long as the test lets them.
    const acknowledged: { id: string; at: number }[] = [];
    let isWriting = true;
    const writer = async () => {
      while (isWriting) {
        const response = await fetch(`${server.baseUrl}/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify({ waiter: 'Load' }),
        });
        const body = await response.text();
        assert.equal(response.status, 201, body);
        acknowledged.push({ id: JSON.parse(body).id, at: performance.now() });
      }
    };
    const writers = Promise.all([writer(), writer(), writer(), writer()]);
    while (acknowledged.length < 200) await new Promise((resolve) => setTimeout(resolve, 20));

    const backupPath = join(folder, 'copy.db');
    const startedAt = performance.now();
    const result = await runScript(CLI, ['backup', '--to', backupPath], {
      databaseUrl: `sqlite:${databasePath}`,
    });
    const endedAt = performance.now();
    const writtenDuring = acknowledged.filter(({ at }) => at > startedAt && at < endedAt).length;
    isWriting = false;
    await writers;

    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stdout,
      `Backup of ${databasePath} written to ${backupPath} (${Math.ceil(statSync(backupPath).size / 1024)} KB, integrity check ok).\n`,
    );
    assert.ok(writtenDuring > 0, 'the server kept taking orders while the backup ran');
    assert.equal(statSync(backupPath).mode & 0o777, 0o600);
    assert.deepEqual(
      readdirSync(folder).filter((file) => file.startsWith('copy') || file.includes('.tmp')),
      ['copy.db'],
      'one self-contained file, no temporary left',
    );

    const before = acknowledged.filter(({ at }) => at < startedAt);
    assert.ok(before.length >= 200);
    await stop(server);
    const restored = await startServer(t, backupPath);
    const restoredCookie = await loginCookie(restored.baseUrl);
    const ids = new Set<string>();
    for (let offset = 0; ; offset += 1000) {
      const page = await fetch(`${restored.baseUrl}/orders?limit=1000&offset=${offset}`, {
        headers: { cookie: restoredCookie },
      });
      assert.equal(page.status, 200);
      const orders = (await page.json()) as { id: string }[];
      for (const order of orders) ids.add(order.id);
      if (orders.length < 1000) break;
    }
    const missing = before.filter(({ id }) => !ids.has(id));
    assert.deepEqual(missing, [], `${missing.length} of ${before.length} acknowledged orders missing`);
  });

  it('refuses to restore while a server has the database open, then restores and keeps the replaced file', async (t) => {
    const folder = temporaryFolder(t);
    const databasePath = join(folder, 'pos.db');
    const databaseUrl = `sqlite:${databasePath}`;
    const server = await startServer(t, databasePath);
    const cookie = await loginCookie(server.baseUrl);
    const backupPath = join(folder, 'before-dinner.db');
    assert.equal((await runScript(CLI, ['backup', '--to', backupPath], { databaseUrl })).code, 0);
    const late = await fetch(`${server.baseUrl}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ waiter: 'After the backup' }),
    });
    assert.equal(late.status, 201);
    const lateId = ((await late.json()) as { id: string }).id;

    const refused = await runScript(CLI, ['restore', '--from', backupPath], { databaseUrl });
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr,
      `error: A server (or another process) has ${databasePath} open: stop it, then restore; nothing was changed\n`,
    );
    assert.deepEqual(readdirSync(folder).sort(), ['before-dinner.db', 'pos.db', 'pos.db-shm', 'pos.db-wal']);
    const stillServing = await fetch(`${server.baseUrl}/orders/${lateId}`, { headers: { cookie } });
    assert.equal(stillServing.status, 200);

    await stop(server);
    const restored = await runScript(CLI, ['restore', '--from', backupPath], { databaseUrl });
    assert.equal(restored.code, 0, restored.stderr);
    const keptAs = /kept as (\S+)\./.exec(restored.stdout)?.[1] as string;
    assert.match(keptAs, new RegExp(`^${databasePath}\\.replaced-\\d{8}T\\d{6}Z$`));
    assert.equal(integrityOf(keptAs), 'ok');
    assert.equal(statSync(databasePath).mode & 0o777, 0o600);

    const again = await startServer(t, databasePath);
    const againCookie = await loginCookie(again.baseUrl);
    const gone = await fetch(`${again.baseUrl}/orders/${lateId}`, { headers: { cookie: againCookie } });
    assert.equal(gone.status, 404, 'the database is the backup, from before that order');
    await stop(again);
    const kept = new SQLite(keptAs, { readonly: true });
    t.after(() => kept.close());
    assert.ok(
      kept.prepare('select id from orders where id = ?').get(lateId),
      'the replaced database kept it',
    );
  });

  it('checks the file before restoring: not a database, not ours, missing', async (t) => {
    const folder = temporaryFolder(t);
    const databaseUrl = `sqlite:${join(folder, 'pos.db')}`;
    writeFileSync(join(folder, 'notes.txt'), 'x'.repeat(4096));
    const foreign = new SQLite(join(folder, 'other.db'));
    foreign.exec('create table things (id integer)');
    foreign.close();
    const cases: [string, RegExp][] = [
      ['notes.txt', /notes\.txt is not a SQLite database: file is not a database/],
      [
        'other.db',
        /other\.db is not a restaurant POS database \(no kysely_migration, app_settings, users, orders table\)/,
      ],
      ['missing.db', /There is no file at .*missing\.db/],
    ];
    for (const [file, message] of cases) {
      const result = await runScript(CLI, ['restore', '--from', join(folder, file)], { databaseUrl });
      assert.equal(result.code, 1, file);
      assert.match(result.stderr, message);
    }
    assert.equal(existsSync(join(folder, 'pos.db')), false, 'nothing was put in place');
    const usage = await runScript(CLI, ['restore'], { databaseUrl });
    assert.equal(usage.code, 2);
  });

  it('checks the migrations and the schema before replacing anything: the next start must succeed', async (t) => {
    const folder = temporaryFolder(t);
    const config = testConfig({ DATABASE_URL: `sqlite:${join(folder, 'pos.db')}` });
    const migrated = openDatabase(`sqlite:${join(folder, 'good.db')}`);
    await migrateToLatest(migrated.db);
    await migrated.close();
    const variant = (file: string, change: string) => {
      copyFileSync(join(folder, 'good.db'), join(folder, file));
      const database = new SQLite(join(folder, file));
      database.exec(change);
      database.close();
      return join(folder, file);
    };
    const lookalike = new SQLite(join(folder, 'lookalike.db'));
    lookalike.exec(
      'create table kysely_migration (name text, timestamp text); create table app_settings (name text); ' +
        'create table users (id text); create table orders (id text)',
    );
    lookalike.close();
    const cases: [string, RegExp][] = [
      [join(folder, 'lookalike.db'), /lookalike\.db does not record this server's migrations in order/],
      [
        variant('newer.db', "insert into kysely_migration values ('9999_from_the_future', '2030-01-01')"),
        /newer\.db comes from a newer version of the server \(unknown migrations: 9999_from_the_future\)/,
      ],
      [
        variant('gap.db', "delete from kysely_migration where name = '0003_orders'"),
        /gap\.db does not record this server's migrations in order/,
      ],
      [
        variant('altered.db', 'alter table orders drop column guests'),
        /altered\.db lacks what its migrations make \(orders\.guests\)/,
      ],
    ];
    for (const [file, message] of cases) {
      await assert.rejects(restoreCommand(config, file), message);
      assert.equal(existsSync(join(folder, 'pos.db')), false, `${file}: nothing was put in place`);
    }
    assert.match(
      await restoreCommand(config, join(folder, 'good.db')),
      /^Restored .*pos\.db from .*good\.db\./,
    );
  });

  it('keeps exactly POS_BACKUP_KEEP scheduled backups, each complete and 0600', async (t) => {
    const folder = temporaryFolder(t);
    const backupDir = join(folder, 'backups');
    mkdirSync(backupDir, { mode: 0o700 });
    writeFileSync(join(backupDir, 'notes.txt'), 'not a backup: left alone');
    const databaseUrl = `sqlite:${join(folder, 'pos.db')}`;
    const database = openDatabase(databaseUrl);
    const app = await buildApp(
      testConfig({
        DATABASE_URL: databaseUrl,
        POS_BACKUP_DIR: backupDir,
        POS_BACKUP_EVERY: '6h',
        POS_BACKUP_KEEP: '3',
      }),
      { database, startJobs: false },
    );
    t.after(async () => {
      await app.close();
      await database.close();
    });
    for (let run = 0; run < 5; run++) await app.jobs.run(SCHEDULED_BACKUP);
    const files = readdirSync(backupDir).sort();
    const backups = files.filter((file) => file !== 'notes.txt' && file !== MANIFEST);
    assert.equal(statSync(join(backupDir, MANIFEST)).mode & 0o777, 0o600);
    assert.equal(backups.length, 3, files.join(', '));
    assert.ok(files.includes('notes.txt'));
    for (const file of backups) {
      assert.match(file, /^pos-\d{8}T\d{6}\.\d{3}Z\.db$/);
      assert.equal(statSync(join(backupDir, file)).mode & 0o777, 0o600);
      assert.equal(integrityOf(join(backupDir, file)), 'ok');
    }
  });

  it('backs up at start when the newest backup is older than the interval (a box switched off nightly), not otherwise', async (t) => {
    const folder = temporaryFolder(t);
    const backupDir = join(folder, 'backups');
    mkdirSync(backupDir, { mode: 0o700 });
    const databaseUrl = `sqlite:${join(folder, 'pos.db')}`;
    const config = testConfig({
      DATABASE_URL: databaseUrl,
      POS_BACKUP_DIR: backupDir,
      POS_BACKUP_EVERY: '1d',
    });
    const backupsIn = () => readdirSync(backupDir).filter((file) => file !== MANIFEST);
    const startAndStop = async () => {
      const app = await buildApp(config, { startJobs: true });
      await app.ready();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await app.close();
    };

    await startAndStop();
    assert.equal(backupsIn().length, 1, 'none yet: one at start');
    assert.equal(lastBackupAt(backupDir) !== null, true);
    await startAndStop();
    assert.equal(backupsIn().length, 1, 'the last one is minutes old: none at this start');

    // The manifest's record of it, a day and a minute old: due at the next start.
    const [written] = backupsIn() as [string];
    writeFileSync(
      join(backupDir, MANIFEST),
      JSON.stringify([{ name: written, at: Date.now() - 86_460_000 }]),
    );
    await startAndStop();
    assert.equal(backupsIn().length, 2, 'overdue: one at start');
  });

  it('prunes by the time it wrote its own backups, not by name, and refuses a folder others can write', async (t) => {
    const folder = temporaryFolder(t);
    const backupDir = join(folder, 'backups');
    mkdirSync(backupDir, { mode: 0o700 });
    const planted = 'pos-99991231T235959.999Z.db';
    writeFileSync(join(backupDir, planted), 'not ours');
    const databaseUrl = `sqlite:${join(folder, 'pos.db')}`;
    const env = {
      DATABASE_URL: databaseUrl,
      POS_BACKUP_DIR: backupDir,
      POS_BACKUP_EVERY: '6h',
      POS_BACKUP_KEEP: '2',
    };
    const database = openDatabase(databaseUrl);
    t.after(() => database.close());
    const app = await buildApp(testConfig(env), { database, startJobs: false });
    t.after(() => app.close());
    const written: string[] = [];
    for (let run = 0; run < 4; run++) {
      await app.jobs.run(SCHEDULED_BACKUP);
      const newest = readdirSync(backupDir).filter(
        (file) => file.endsWith('.db') && !written.includes(file) && file !== planted,
      );
      written.push(...newest);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    assert.deepEqual(
      readdirSync(backupDir)
        .filter((file) => file.endsWith('.db'))
        .sort(),
      [...written.slice(-2), planted].sort(),
      'the two newest it wrote, and the planted file untouched',
    );

    chmodSync(backupDir, 0o770);
    await assert.rejects(app.jobs.run(SCHEDULED_BACKUP), /is writable by group or others/);
    await assert.rejects(
      buildApp(testConfig(env), { database, startJobs: false }),
      /is writable by group or others/,
    );
  });

  for (const target of databaseTargets) {
    if (target.name !== 'postgres') continue;
    it('says in one line that PostgreSQL is backed up with pg_dump and restored with pg_restore', async () => {
      const { url, drop } = await target.url();
      try {
        const backup = await runScript(CLI, ['backup', '--to', '/tmp/never.db'], { databaseUrl: url });
        assert.equal(backup.code, 1);
        assert.match(
          backup.stderr,
          /^error: DATABASE_URL is PostgreSQL: back it up with pg_dump --format=custom/,
        );
        assert.equal(backup.stderr.split('\n').length, 2, 'one line');
        const restore = await runScript(CLI, ['restore', '--from', '/tmp/never.db'], { databaseUrl: url });
        assert.equal(restore.code, 1);
        assert.match(restore.stderr, /^error: DATABASE_URL is PostgreSQL: restore it with pg_restore/);
      } finally {
        await drop();
      }
    });
  }
});
