import { Migrator, sql } from 'kysely';
import { type DatabaseHandle, openDatabase } from '../../src/core/db/database';
import { migrationProvider } from '../../src/core/db/migrations';
import type { DatabaseTarget } from './database';

type TestContext = { after: (fn: () => Promise<void> | void) => void };

/** The migrator of a test's database; as migrateToLatest does, PostgreSQL keeps the bookkeeping in the test's own schema. */
export async function migratorOf({ db, dialect }: DatabaseHandle): Promise<Migrator> {
  const schema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  return new Migrator({ db, provider: migrationProvider, ...(schema && { migrationTableSchema: schema }) });
}

/** A fresh database no migration has touched, for a test that migrates it step by step; dropped after the test. */
export async function unmigratedDatabase(
  t: TestContext,
  target: DatabaseTarget,
): Promise<{ database: DatabaseHandle; migrator: Migrator; url: string }> {
  const { url, drop } = await target.url();
  const database = openDatabase(url);
  t.after(async () => {
    await database.close();
    await drop();
  });
  return { database, migrator: await migratorOf(database), url };
}
