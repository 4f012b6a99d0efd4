import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDatabase } from './helpers/app';
import { unmigratedDatabase } from './helpers/migrations';

describeEachDatabase('migration 0018 price override', (target) => {
  it('grants orders.price_override to manager and staff, and reports.read to staff, keeping edits', async (t) => {
    const { database, migrator } = await unmigratedDatabase(t, target);
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
