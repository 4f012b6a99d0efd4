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

/** Each PostgreSQL test gets a schema of its own, so tests never see each other's rows. */
const postgres: DatabaseTarget = {
  name: 'postgres',
  url: async () => {
    const schema = `test_${randomBytes(6).toString('hex')}`;
    await runAdminStatement(`create schema ${schema}`);
    const url = new URL(postgresUrl as string);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return { url: url.toString(), drop: () => runAdminStatement(`drop schema ${schema} cascade`) };
  },
};

async function runAdminStatement(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
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
