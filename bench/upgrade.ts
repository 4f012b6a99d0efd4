import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Migrator, sql } from 'kysely';
import { runBackfills } from '../src/core/db/backfills';
import { type Db, migrateSchema, openDatabase } from '../src/core/db/database';
import { backfills, migrationProvider } from '../src/core/db/migrations';
import { describeProgress } from '../src/core/upgrade';
import { insertBilledOrders } from './lib/bulk-orders';
import { type Engine, freshDatabase, postgresServerUrl } from './lib/databases';

/**
 * `npm run bench:upgrade [-- --db sqlite|postgres] [--orders 1000000] [--from 0015_report_indexes]`
 * `npm run bench:upgrade -- --database sqlite:/path/pos.db` (an existing database, kept)
 *
 * A database at an older schema (by default the one before the sales facts, so the upgrade crosses
 * every migration that rewrites existing rows) filled with the scale bench's orders and bills, then
 * brought to the latest schema as a start-up does: the schema migrations, then the backfills. Prints
 * each step's time and the longest transaction: on SQLite Kysely runs a migration's statements
 * outside any transaction, so each statement is one; on PostgreSQL each migration is one.
 */
const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    orders: { type: 'string', default: '1000000' },
    from: { type: 'string', default: '0015_report_indexes' },
    // An existing database to upgrade (or to go on upgrading after an interruption), kept afterwards.
    database: { type: 'string' },
  },
});
const engine = values.db as Engine;
const orders = Number(values.orders);

async function main(): Promise<void> {
  const database = values.database
    ? { engine, url: values.database, drop: async () => {} }
    : await freshDatabase(engine, postgresServerUrl());
  try {
    let started = performance.now();
    if (!values.database) {
      const userId = await prepareOldSchema(database.url, values.from as string);
      await insertBilledOrders(database, { now: Date.now(), userId, waiter: 'Bench' }, orders);
      console.log(`${orders} orders at ${values.from} on ${engine}: seeded in ${seconds(started)} s`);
    }

    let longestStatement = { ms: 0, sql: '' };
    const handle = openDatabase(database.url, {
      log: (event) => {
        if (event.queryDurationMillis > longestStatement.ms) {
          longestStatement = {
            ms: event.queryDurationMillis,
            sql: event.query.sql.replace(/\s+/g, ' ').slice(0, 90),
          };
        }
      },
    });
    try {
      started = performance.now();
      const migrations: { name: string; ms: number }[] = [];
      await migrateSchema(handle.db, (progress) => {
        console.log(describeProgress(progress));
        if (progress.step === 'migration') migrations.push(progress);
      });
      const schemaSeconds = seconds(started);
      const schemaStatement = longestStatement;
      const slowest = migrations.reduce((max, each) => (each.ms > max.ms ? each : max), { name: '', ms: 0 });

      started = performance.now();
      let longestBatch = 0;
      let batches = 0;
      await runBackfills(handle.db as never, backfills, {
        onProgress: (progress) => {
          batches += 1;
          longestBatch = Math.max(longestBatch, progress.batchMs);
          if (batches % 20 === 0 || progress.done >= progress.total)
            console.log(describeProgress({ step: 'backfill', ...progress }));
        },
      });
      const backfillSeconds = seconds(started);
      console.log(`\n## upgrade on ${engine}: ${orders} orders from ${values.from}`);
      console.log(
        `schema migrations: ${migrations.length} in ${schemaSeconds} s; slowest ${slowest.name} ${slowest.ms} ms`,
      );
      console.log(
        `longest statement of the schema migrations: ${Math.round(schemaStatement.ms)} ms (${schemaStatement.sql}…)`,
      );
      console.log(
        `backfills: ${batches} batches in ${backfillSeconds} s; longest batch transaction ${longestBatch} ms`,
      );
      console.log(`total: ${(Number(schemaSeconds) + Number(backfillSeconds)).toFixed(1)} s`);
      console.log(
        `facts: ${await count(handle.db, 'sales_facts')}, orders: ${await count(handle.db, 'orders')}`,
      );
    } finally {
      await handle.close();
    }
  } finally {
    await database.drop();
  }
}

/** Migrates to `target` and writes what the orders need at that schema: a user, a menu, a floor. */
async function prepareOldSchema(url: string, target: string): Promise<string> {
  const handle = openDatabase(url);
  try {
    const { db } = handle;
    const schema =
      handle.dialect === 'postgres'
        ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
        : undefined;
    const migrator = new Migrator({
      db,
      provider: migrationProvider,
      ...(schema && { migrationTableSchema: schema }),
    });
    const { error } = await migrator.migrateTo(target);
    if (error) throw error;
    const at = Date.now();
    const userId = randomUUID();
    const categoryId = randomUUID();
    const spaceId = randomUUID();
    await sql`insert into users (id, name, name_key, pin_hash, role, created_at, updated_at)
      values (${userId}, 'Bench', 'bench', 'hash', 'admin', ${at}, ${at})`.execute(db);
    await sql`insert into categories (id, name, type, created_at, updated_at)
      values (${categoryId}, 'Mains', 'dish', ${at}, ${at})`.execute(db);
    for (let index = 0; index < 20; index++) {
      await sql`insert into dishes (id, name, price_cents, category_id, created_at, updated_at)
        values (${randomUUID()}, ${`Dish ${index}`}, ${500 + 100 * index}, ${categoryId}, ${at}, ${at})`.execute(
        db,
      );
    }
    await sql`insert into spaces (id, name, created_at, updated_at) values (${spaceId}, 'Floor', ${at}, ${at})`.execute(
      db,
    );
    for (let index = 0; index < 40; index++) {
      await sql`insert into dining_tables (id, name, space_id, created_at, updated_at)
        values (${randomUUID()}, ${`T${index}`}, ${spaceId}, ${at}, ${at})`.execute(db);
    }
    return userId;
  } finally {
    await handle.close();
  }
}

async function count(db: Db, table: 'sales_facts' | 'orders'): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return Number(rows[0]?.n);
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}

await main();
