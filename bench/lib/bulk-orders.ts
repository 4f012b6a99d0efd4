import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../../src/core/db/database';
import { backfillSalesFacts } from '../../src/orders/sales-facts';
import type { BenchDatabase } from './databases';

/**
 * History for the scale runs, written straight into the database: ~90 days of orders ending now.
 * Older orders are completed (92 %) or cancelled; only the last 3 hours hold every status, as in a
 * restaurant where nothing stays pending for weeks. 90 % of orders have 1 to 4 dishes and a total that
 * is their sum; 0.5 % are logically deleted; 30 % of the closed ones were take-away (no table).
 */
export type History = { now: number; userId: string; waiter: string };

const DAY_MS = 86_400_000;
const HISTORY_MS = 90 * DAY_MS;
const RECENT_MS = 3 * 3_600_000;
const STATUSES = ['pending', 'preparing', 'ready', 'completed', 'cancelled'] as const;
const SQLITE_BATCH = 20_000;
const POSTGRES_BATCH = 200_000;

/** A calendar day (UTC, our default POS_TIMEZONE) well inside the history, for the per-day queries. */
export function sampleDay(history: History): string {
  return new Date(history.now - 45 * DAY_MS).toISOString().slice(0, 10);
}

export async function insertOrders(database: BenchDatabase, history: History, count: number): Promise<void> {
  await insertBilledOrders(database, history, count);
  await addSalesFacts(database.url);
}

/**
 * The orders and their bills without the reports' facts: the tables they write are the same since
 * migration 0006, so bench/upgrade.ts fills a database at an older schema with them.
 */
export async function insertBilledOrders(
  database: BenchDatabase,
  history: History,
  count: number,
): Promise<void> {
  if (database.engine === 'sqlite') {
    const path = database.url.slice('sqlite:'.length);
    insertOrdersIntoSqlite(path, history, count);
    billOrdersInSqlite(path);
  } else {
    await insertOrdersIntoPostgres(database.url, history, count);
    await billOrdersInPostgres(database.url);
  }
}

/** The bills written above bypassed the services, so their report facts are added as the migration does. */
async function addSalesFacts(url: string): Promise<void> {
  const handle = openDatabase(url);
  try {
    await handle.db.transaction().execute((trx) => backfillSalesFacts(trx));
    if (handle.dialect === 'postgres') await sql`vacuum analyze sales_facts`.execute(handle.db);
  } finally {
    await handle.close();
  }
}

/**
 * Every completed order with dishes and no bill yet gets one Paid bill of all its dishes, paid half an
 * hour after the order: in cash, or (1 in 2) by card with a 10 % tip. Ids are the order's with the
 * first character changed, so they stay unique UUIDs on both engines without a UUID function.
 */
const BILLING_STATEMENTS = [
  `create temp table unbilled as select o.id, o.user_id, o.total_cents, o.created_at + 1800000 as paid_at,
     case when substr(o.id, 3, 1) < '8' then 'cash' else 'card' end as method,
     case when substr(o.id, 3, 1) < '8' then 0 else o.total_cents / 10 end as tip
   from orders o
   where o.status = 'completed' and o.is_deleted = 0 and o.total_cents > 0
     and not exists (select 1 from tickets t where t.order_id = o.id)`,
  `insert into tickets (id, order_id, status, subtotal_cents, discount_cents, total_cents, paid_cents, tips_cents,
     created_by, created_at, updated_at, paid_at)
   select 'b' || substr(u.id, 2), u.id, 2, u.total_cents, 0, u.total_cents, u.total_cents, u.tip,
     u.user_id, u.paid_at, u.paid_at, u.paid_at from unbilled u`,
  `insert into ticket_dishes (ticket_id, order_dish_id)
   select 'b' || substr(u.id, 2), od.id from unbilled u join order_dishes od on od.order_id = u.id`,
  `insert into payments (id, ticket_id, method, amount_cents, tip_cents, status, created_by, created_at, settled_at)
   select 'c' || substr(u.id, 2), 'b' || substr(u.id, 2), u.method, u.total_cents, u.tip, 'settled', u.user_id,
     u.paid_at, u.paid_at from unbilled u`,
  `update orders set billed_cents = total_cents, paid_cents = total_cents
   where id in (select id from unbilled)`,
  'drop table unbilled',
];

function billOrdersInSqlite(path: string): void {
  const db = new SQLite(path);
  try {
    db.transaction(() => {
      for (const statement of BILLING_STATEMENTS) db.exec(statement);
    })();
  } finally {
    db.close();
  }
}

async function billOrdersInPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    for (const statement of BILLING_STATEMENTS) await client.query(statement);
    await client.query('commit');
    for (const table of ['tickets', 'ticket_dishes', 'payments', 'orders'])
      await client.query(`vacuum analyze ${table}`);
  } finally {
    await client.end();
  }
}

function insertOrdersIntoSqlite(path: string, history: History, count: number): void {
  const db = new SQLite(path);
  try {
    // A loader's speed settings: this connection only, gone when it closes.
    db.pragma('synchronous = OFF');
    const menu = db.prepare('select id, price_cents from dishes order by id').all() as {
      id: string;
      price_cents: number;
    }[];
    const tableIds = (db.prepare('select id from dining_tables order by id').all() as { id: string }[]).map(
      (row) => row.id,
    );
    const insertOrder = db.prepare(
      `insert into orders (id, user_id, table_id, waiter, status, total_cents, is_deleted, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertDish = db.prepare(
      `insert into order_dishes (id, order_id, dish_id, price_at_order_cents, notes, created_at)
       values (?, ?, ?, ?, '', ?)`,
    );
    const insertBatch = db.transaction((size: number) => {
      for (let index = 0; index < size; index++) {
        const id = randomUUID();
        const createdAt = history.now - Math.floor(Math.random() * HISTORY_MS);
        const isRecent = createdAt > history.now - RECENT_MS;
        const dishCount = Math.random() < 0.1 ? 0 : 1 + Math.floor(Math.random() * 4);
        const firstDish = Math.floor(Math.random() * menu.length);
        const dishes = Array.from(
          { length: dishCount },
          (_, offset) => menu[(firstDish + offset) % menu.length],
        );
        const total = dishes.reduce((sum, dish) => sum + (dish?.price_cents ?? 0), 0);
        const status = isRecent
          ? STATUSES[Math.floor(Math.random() * STATUSES.length)]
          : Math.random() < 0.92
            ? 'completed'
            : 'cancelled';
        const tableId =
          isRecent || Math.random() < 0.3 ? null : tableIds[Math.floor(Math.random() * tableIds.length)];
        const isDeleted = Math.random() < 0.005 ? 1 : 0;
        insertOrder.run(
          id,
          history.userId,
          tableId,
          history.waiter,
          status,
          total,
          isDeleted,
          createdAt,
          createdAt,
        );
        for (const dish of dishes) {
          insertDish.run(randomUUID(), id, dish?.id, dish?.price_cents, createdAt);
        }
      }
    });
    for (let done = 0; done < count; done += SQLITE_BATCH) insertBatch(Math.min(SQLITE_BATCH, count - done));
  } finally {
    db.close();
  }
}

async function insertOrdersIntoPostgres(url: string, history: History, count: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let done = 0; done < count; done += POSTGRES_BATCH) {
      await insertPostgresBatch(client, history, Math.min(POSTGRES_BATCH, count - done));
    }
    // Autovacuum vacuums and analyzes after a load like this (PostgreSQL 13+ triggers on inserts too);
    // do it now, so plans and the visibility map that index-only scans need are the steady state's.
    await client.query('vacuum analyze orders');
    await client.query('vacuum analyze order_dishes');
  } finally {
    await client.end();
  }
}

async function insertPostgresBatch(client: pg.Client, history: History, size: number): Promise<void> {
  await client.query('begin');
  await client.query(
    `create temp table seed_orders on commit drop as
     select gen_random_uuid()::text as id, g,
       ($1::bigint - floor(random() * $2::bigint))::bigint as created_at,
       random() as status_draw, random() as table_draw, random() as dish_draw,
       floor(random() * 1000)::int as first_dish
     from generate_series(1, $3::int) as g`,
    [history.now, HISTORY_MS, size],
  );
  await client.query(
    `alter table seed_orders add column dish_count int;
     update seed_orders set dish_count = case when dish_draw < 0.1 then 0 else 1 + floor(dish_draw * 40)::int % 4 end`,
  );
  await client.query(
    `with menu as (select array_agg(id order by id) as ids, array_agg(price_cents order by id) as prices,
                          count(*)::int as n from dishes),
          floor_plan as (select array_agg(id order by id) as ids, count(*)::int as n from dining_tables)
     insert into orders (id, user_id, table_id, waiter, status, total_cents, is_deleted, created_at, updated_at)
     select s.id, $1, case when s.created_at > $3::bigint or s.table_draw < 0.3 then null
                           else f.ids[1 + floor(s.table_draw * 1000)::int % f.n] end,
       $2,
       case when s.created_at > $3::bigint then (array['pending','preparing','ready','completed','cancelled'])[1 + floor(s.status_draw * 5)::int]
            when s.status_draw < 0.92 then 'completed' else 'cancelled' end,
       (select coalesce(sum(m.prices[1 + (s.first_dish + j) % m.n]), 0) from generate_series(0, s.dish_count - 1) as j),
       case when s.table_draw > 0.995 then 1 else 0 end,
       s.created_at, s.created_at
     from seed_orders s, menu m, floor_plan f`,
    [history.userId, history.waiter, history.now - RECENT_MS],
  );
  await client.query(
    `with menu as (select array_agg(id order by id) as ids, array_agg(price_cents order by id) as prices,
                          count(*)::int as n from dishes)
     insert into order_dishes (id, order_id, dish_id, price_at_order_cents, notes, created_at)
     select gen_random_uuid()::text, s.id, m.ids[1 + (s.first_dish + j) % m.n], m.prices[1 + (s.first_dish + j) % m.n],
            '', s.created_at
     from seed_orders s, menu m, generate_series(0, s.dish_count - 1) as j`,
  );
  await client.query('commit');
}
