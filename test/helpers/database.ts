import { randomBytes } from 'node:crypto';
import pg from 'pg';
import {
  type DatabaseHandle,
  type DialectName,
  migrateToLatest,
  openDatabase,
} from '../../src/core/db/database';

export type DatabaseTarget = {
  name: DialectName;
  url: () => Promise<{ url: string; drop: () => Promise<void> }>;
};

const postgresUrl = process.env.TEST_DATABASE_URL;

const sqlite: DatabaseTarget = {
  name: 'sqlite',
  url: async () => ({ url: 'sqlite::memory:', drop: async () => {} }),
};

/**
 * Each test file (a process of its own) gets a PostgreSQL database of its own, and each test a schema
 * in it. Separate databases matter: introspection and migrations look across every schema of a
 * database, and other files drop their schemas while this one runs.
 */
let processDatabaseUrl: Promise<string> | undefined;

function databaseOfThisProcess(): Promise<string> {
  processDatabaseUrl ??= (async () => {
    const name = `pos_test_${process.pid}_${randomBytes(3).toString('hex')}`;
    await runAdminStatement(postgresUrl as string, `create database ${name}`);
    process.once('beforeExit', () => {
      void runAdminStatement(postgresUrl as string, `drop database if exists ${name} with (force)`);
    });
    const url = new URL(postgresUrl as string);
    url.pathname = `/${name}`;
    return url.toString();
  })();
  return processDatabaseUrl;
}

const postgres: DatabaseTarget = {
  name: 'postgres',
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

async function runAdminStatement(connectionString: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** SQLite always; PostgreSQL when TEST_DATABASE_URL names one. */
export const databaseTargets: DatabaseTarget[] = postgresUrl ? [sqlite, postgres] : [sqlite];

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
  const { url, drop } = await target.url();
  const database = openDatabase(url);
  await migrateToLatest(database.db);
  return {
    database,
    url,
    dispose: async () => {
      await database.close();
      await drop();
    },
  };
}
