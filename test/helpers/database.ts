import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import {
  type DatabaseHandle,
  type DialectName,
  migrateToLatest,
  type OpenOptions,
  openDatabase,
} from '../../src/core/db/database';

type DisposableUrl = { url: string; drop: () => Promise<void> };

export type DatabaseTarget = {
  name: DialectName;
  /** An empty database, for tests that migrate it themselves. */
  url: () => Promise<DisposableUrl>;
  /** A database for a test to run on: one already migrated where the target has a quicker way than migrating. */
  testUrl: () => Promise<DisposableUrl & { isMigrated: boolean; options?: OpenOptions }>;
};

const postgresUrl = process.env.TEST_DATABASE_URL;

/**
 * Every database a test run makes is named after TEST_DATABASE_URL's, so one made by a run that was
 * killed is easy to find, and `.ci/run` drops them all with its own.
 */
const runPrefix = postgresUrl ? new URL(postgresUrl).pathname.slice(1, 31) : '';

/** SQLite in memory: every call is a database of its own. */
export const sqliteTarget: DatabaseTarget = {
  name: 'sqlite',
  url: async () => ({ url: 'sqlite::memory:', drop: async () => {} }),
  testUrl: async () => ({
    url: 'sqlite::memory:',
    drop: async () => {},
    isMigrated: true,
    options: { sqliteImage: await migratedSqliteImage() },
  }),
};

let sqliteImage: Promise<Buffer> | undefined;

/** A migrated SQLite database, serialized once per test process; each test opens a copy of it in memory. */
function migratedSqliteImage(): Promise<Buffer> {
  sqliteImage ??= (async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pos-test-image-'));
    const database = openDatabase('sqlite::memory:');
    try {
      await migrateToLatest(database.db);
      const file = join(folder, 'migrated.db');
      await sql`vacuum into ${file}`.execute(database.db);
      return readFileSync(file);
    } finally {
      await database.close();
      rmSync(folder, { recursive: true, force: true });
    }
  })();
  return sqliteImage;
}

/**
 * Each test file (a process of its own) gets a PostgreSQL database of its own, and each test a schema
 * in it. Separate databases matter: introspection and migrations look across every schema of a
 * database, and other files drop their schemas while this one runs.
 */
let processDatabaseUrl: Promise<string> | undefined;

function databaseOfThisProcess(): Promise<string> {
  processDatabaseUrl ??= (async () => {
    const name = `${runPrefix}_p${process.pid}_${randomBytes(3).toString('hex')}`;
    await runAdminStatement(postgresUrl as string, `create database ${name}`);
    dropWhenTheProcessEnds(name);
    return withDatabase(postgresUrl as string, name);
  })();
  return processDatabaseUrl;
}

/**
 * Migrating a PostgreSQL schema takes about a second, which hundreds of tests paid again and again. A
 * database copied from a migrated template takes a tenth of that. The template is made once for all
 * the test processes of a run (an advisory lock lets one build it while the others wait) and is named
 * by the migrations' source, so a changed migration gets a new template.
 */
let migratedTemplate: Promise<string> | undefined;

const TEMPLATE_LOCK = 0x706f_7374;

function templateOfTheMigrations(): Promise<string> {
  migratedTemplate ??= (async () => {
    const folder = join(import.meta.dirname, '..', '..', 'src', 'core', 'db', 'migrations');
    const source = createHash('sha256');
    for (const file of readdirSync(folder).sort())
      source.update(file).update(readFileSync(join(folder, file)));
    const name = `${runPrefix}_tmpl_${source.digest('hex').slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    try {
      await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
      const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (rowCount === 0) {
        // Built under another name and renamed when whole, so a run killed half-way leaves no template.
        const building = `${name}_building`;
        await admin.query(`drop database if exists ${building} with (force)`);
        await admin.query(`create database ${building}`);
        const database = openDatabase(withDatabase(postgresUrl as string, building));
        try {
          await migrateToLatest(database.db);
        } finally {
          await database.close();
        }
        await admin.query(`alter database ${building} rename to ${name}`);
      }
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
      await admin.end();
    }
    return name;
  })();
  return migratedTemplate;
}

/**
 * Databases are dropped when the test process has nothing left to do, not when their test ends: a
 * test may close a connection of its own after the hook that would drop the database, and a forced
 * drop would kill it in use.
 */
const databasesToDrop: string[] = [];

function dropWhenTheProcessEnds(name: string): void {
  if (databasesToDrop.length === 0) {
    process.once('beforeExit', () => {
      void (async () => {
        for (const database of databasesToDrop.splice(0)) {
          await runAdminStatement(postgresUrl as string, `drop database if exists ${database} with (force)`);
        }
      })();
    });
  }
  databasesToDrop.push(name);
}

function withDatabase(url: string, database: string): string {
  const copy = new URL(url);
  copy.pathname = `/${database}`;
  return copy.toString();
}

const postgres: DatabaseTarget = {
  name: 'postgres',
  testUrl: async () => {
    const template = await templateOfTheMigrations();
    const name = `${runPrefix}_t${process.pid}_${randomBytes(4).toString('hex')}`;
    // WAL_LOG copies the small template block by block; FILE_COPY would checkpoint the whole server each time.
    await runAdminStatement(
      postgresUrl as string,
      `create database ${name} template ${template} strategy wal_log`,
    );
    dropWhenTheProcessEnds(name);
    return { url: withDatabase(postgresUrl as string, name), drop: async () => {}, isMigrated: true };
  },
  url: async () => {
    const databaseUrl = await databaseOfThisProcess();
    const schema = `test_${randomBytes(6).toString('hex')}`;
    await runAdminStatement(databaseUrl, `create schema ${schema}`);
    const url = new URL(databaseUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return {
      url: url.toString(),
      drop: () => runAdminStatement(databaseUrl, `drop schema ${schema} cascade`),
    };
  },
};

/**
 * Drops the migrated templates this run's processes shared. Called by the test runner's own process
 * once every file has finished (test/helpers/after-the-run.ts): no single test process knows it is the last.
 */
export async function dropRunTemplates(): Promise<void> {
  if (!postgresUrl) return;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      'select datname from pg_database where datname like $1',
      [`${runPrefix.replaceAll('_', '\\_')}\\_tmpl\\_%`],
    );
    for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`);
  } finally {
    await admin.end();
  }
}

async function runAdminStatement(connectionString: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** SQLite always; PostgreSQL when TEST_DATABASE_URL names one; TEST_ENGINES=sqlite or postgres keeps one. */
export const databaseTargets: DatabaseTarget[] = chosenTargets(
  postgresUrl ? [sqliteTarget, postgres] : [sqliteTarget],
);

function chosenTargets(available: DatabaseTarget[]): DatabaseTarget[] {
  const names = process.env.TEST_ENGINES?.split(',').map((name) => name.trim());
  if (!names) return available;
  const chosen = available.filter((target) => names.includes(target.name));
  if (chosen.length !== names.length) {
    throw new Error(
      `TEST_ENGINES=${process.env.TEST_ENGINES}: each must be sqlite, or postgres with TEST_DATABASE_URL set`,
    );
  }
  return chosen;
}

let announced = false;
export function announceSkippedTargets(): void {
  if (!postgresUrl && !announced) {
    announced = true;
    console.log('# PostgreSQL suites skipped: set TEST_DATABASE_URL to run them.');
  }
}

/** A fresh, migrated database on the target, and how to throw it away. */
export async function openTestDatabase(
  target: DatabaseTarget,
): Promise<{ database: DatabaseHandle; url: string; dispose: () => Promise<void> }> {
  const { url, drop, isMigrated, options } = await target.testUrl();
  const database = openDatabase(url, options);
  if (!isMigrated) await migrateToLatest(database.db);
  return {
    database,
    url,
    dispose: async () => {
      await database.close();
      await drop();
    },
  };
}
