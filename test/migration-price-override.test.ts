import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Migrator, sql } from 'kysely';
import { openDatabase } from '../src/core/db/database';
import { migrationProvider } from '../src/core/db/migrations';
import { describeEachDatabase } from './helpers/app';

describeEachDatabase('migration 0018 price override', (target) => {
  it('grants orders.price_override to manager and staff, and reports.read to staff, keeping edits', async (t) => {
    const { url, drop } = await target.url();
    const database = openDatabase(url);
    t.after(async () => {
      await database.close();
      await drop();
    });
    // As migrateToLatest does: PostgreSQL keeps the bookkeeping in this test's own schema.
    const schema =
      database.dialect === 'postgres'
        ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0]
            ?.schema
        : undefined;
    const migrator = new Migrator({
      db: database.db,
      provider: migrationProvider,
      ...(schema && { migrationTableSchema: schema }),
    });
    assert.equal((await migrator.migrateTo('0017_webhooks')).error, undefined);
    // A restaurant that took menu editing away from its staff before upgrading.
    const staffBefore = ['orders.write', 'orders.cancel', 'tickets.write', 'payments.take'];
    await database.db
      .updateTable('roles')
      .set({ permissions: JSON.stringify(staffBefore) })
      .where('name', '=', 'staff')
      .execute();

    // Only as far as this migration: later ones grant permissions of their own.
    assert.equal((await migrator.migrateTo('0021_price_override')).error, undefined);
    const rows = await database.db
      .selectFrom('roles')
      .select(['name', 'permissions'])
      .orderBy('name')
      .execute();
    const held = Object.fromEntries(rows.map((row) => [row.name, JSON.parse(row.permissions) as string[]]));
    assert.deepEqual(held.staff, [...staffBefore, 'orders.price_override', 'reports.read']);
    assert.ok(held.manager?.includes('orders.price_override'));
    for (const role of ['cashier', 'waiter', 'kitchen']) {
      assert.ok(!held[role]?.includes('orders.price_override'), role);
    }
  });
});
