import assert from 'node:assert/strict';
import { it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { buildApp } from '../src/app';
import { manualClock } from '../src/core/clock';
import { type Backfill, pendingBackfills, scheduleBackfill } from '../src/core/db/backfills';
import { migrateToLatest } from '../src/core/db/database';
import { backfills } from '../src/core/db/migrations';
import { BACKFILL } from '../src/core/db/migrations/0022_sales_facts_amount_splits';
import { hashPin } from '../src/core/pin';
import { userNameKey } from '../src/users/user-name';
import { describeEachDatabase, TEST_PIN_KEY, testConfig } from './helpers/app';
import { login } from './helpers/auth';
import { unmigratedDatabase } from './helpers/migrations';
import { callerFor } from './helpers/orders-factories';

/**
 * The last migration of the release before this one: a restaurant upgrading starts from its schema.
 * Move it forward when a release ships. Each migration's own test checks what it does to the data;
 * this one checks that the whole way from there to today runs, and that the server then serves what
 * the old release wrote.
 */
const PREVIOUS_RELEASE = '0028_inventory_report_index';

describeEachDatabase('upgrade from the previous release', (target) => {
  it("migrates the previous release's database with a served order, and the server serves it", async (t) => {
    const { database, migrator, url } = await unmigratedDatabase(t, target);
    assert.equal((await migrator.migrateTo(PREVIOUS_RELEASE)).error, undefined);
    const { db } = database;
    const at = Date.UTC(2026, 10, 20, 20, 0, 0);
    const ids = {
      user: '6a1f3c2e-8d4b-4f0a-9e7c-1b2d3e4f5a60',
      category: '7b2f3c2e-8d4b-4f0a-9e7c-1b2d3e4f5a61',
      dish: '8c3f3c2e-8d4b-4f0a-9e7c-1b2d3e4f5a62',
      order: '9d4f3c2e-8d4b-4f0a-9e7c-1b2d3e4f5a63',
      plates: ['ae5f3c2e-8d4b-4f0a-9e7c-1b2d3e4f5a64', 'bf6f3c2e-8d4b-4f0a-9e7c-1b2d3e4f5a65'],
    };
    const pinHash = await hashPin('2468', TEST_PIN_KEY, 'Olga');
    await sql`insert into users (id, name, name_key, pin_hash, role, pin_length, created_at, updated_at)
      values (${ids.user}, 'Olga', ${userNameKey('Olga')}, ${pinHash}, 'admin', 4, ${at}, ${at})`.execute(db);
    await sql`insert into categories (id, name, type, created_at, updated_at)
      values (${ids.category}, 'Tacos', 'dish', ${at}, ${at})`.execute(db);
    await sql`insert into dishes (id, name, price_cents, category_id, created_at, updated_at)
      values (${ids.dish}, 'Taco al pastor', 2500, ${ids.category}, ${at}, ${at})`.execute(db);
    await sql`insert into orders (id, user_id, waiter, status, total_cents, created_at, updated_at)
      values (${ids.order}, ${ids.user}, 'Olga', 'preparing', 5000, ${at}, ${at})`.execute(db);
    for (const [index, plate] of ids.plates.entries()) {
      await sql`insert into order_dishes (id, order_id, dish_id, price_at_order_cents, status, sent_at, created_at)
        values (${plate}, ${ids.order}, ${ids.dish}, 2500, 'sent', ${at}, ${at + index})`.execute(db);
    }

    const applied = await migrateToLatest(db);
    assert.ok(applied.length > 0, 'this release adds migrations');
    const app = await buildApp(testConfig({ DATABASE_URL: url }), {
      database,
      clock: manualClock(at + 60_000),
      startJobs: false,
    });
    t.after(() => app.close());
    const call = callerFor(app, await login(app, 'Olga', '2468'));
    const order = await call('GET', `/orders/${ids.order}`);
    assert.equal(order.statusCode, 200, order.body);
    assert.equal(order.json().total, 50);
    const plates = await call('GET', `/orders/${ids.order}/dishes`);
    assert.equal(plates.statusCode, 200, plates.body);
    assert.deepEqual(
      (plates.json() as { id: string; status: string }[]).map(({ id, status }) => ({ id, status })),
      ids.plates.map((id) => ({ id, status: 'sent' })),
    );
    // The upgraded database takes new writes: a bill for the order.
    const bill = await call('POST', `/orders/${ids.order}/tickets`, {});
    assert.equal(bill.statusCode, 201, bill.body);
  });

  it('answers /health "migrating" and every other route 503 while a backfill runs, then serves', async (t) => {
    const { database, url } = await unmigratedDatabase(t, target);
    await migrateToLatest(database.db);
    const migrating = database.db as unknown as Kysely<unknown>;
    await scheduleBackfill(migrating, BACKFILL);
    // The backfill waits for the test before it starts, as a million orders would take their time (held
    // outside any transaction: on SQLite one would hold the only connection).
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const real = backfills[BACKFILL] as Backfill;
    const app = await buildApp(testConfig({ DATABASE_URL: url }), {
      database,
      startJobs: false,
      backfills: { [BACKFILL]: { ...real, count: (db) => held.then(() => real.count(db)) } },
    });
    t.after(() => app.close());

    const health = await app.inject({ url: '/health' });
    assert.equal(health.statusCode, 503);
    assert.deepEqual(health.json(), { status: 'migrating', database: 'ok' });
    const route = await app.inject({ url: '/currencies' });
    assert.equal(route.statusCode, 503);
    assert.deepEqual(route.json(), { message: 'Migrating the database' });
    assert.equal((await app.inject({ url: '/health/live' })).statusCode, 200);

    release();
    await new Promise<void>((resolve) => app.upgrade.onFinished(resolve));
    assert.deepEqual((await app.inject({ url: '/health' })).json(), { status: 'ok', database: 'ok' });
    assert.equal((await app.inject({ url: '/currencies' })).statusCode, 200);
    assert.deepEqual(await pendingBackfills(migrating), []);
  });
});
