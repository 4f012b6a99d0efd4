import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDatabase } from './helpers/app';
import { unmigratedDatabase } from './helpers/migrations';

describeEachDatabase('migration 0024 floor moves', (target) => {
  it('adds guests to orders and grants orders.move to the floor roles, keeping edits', async (t) => {
    const { database, migrator } = await unmigratedDatabase(t, target);
    assert.equal((await migrator.migrateTo('0023_blind_shift_close')).error, undefined);
    // A restaurant whose waiters no longer print receipts.
    const waiterBefore = ['orders.write', 'tickets.write', 'payments.take'];
    await database.db
      .updateTable('roles')
      .set({ permissions: JSON.stringify(waiterBefore) })
      .where('name', '=', 'waiter')
      .execute();

    assert.equal((await migrator.migrateTo('0024_floor_moves')).error, undefined);
    const rows = await database.db
      .selectFrom('roles')
      .select(['name', 'permissions'])
      .orderBy('name')
      .execute();
    const held = Object.fromEntries(rows.map((row) => [row.name, JSON.parse(row.permissions) as string[]]));
    assert.deepEqual(held.waiter, [...waiterBefore, 'orders.move']);
    for (const role of ['cashier', 'manager', 'staff']) assert.ok(held[role]?.includes('orders.move'), role);
    assert.ok(!held.kitchen?.includes('orders.move'));
    const columns = await database.db.introspection.getTables();
    const guests = columns
      .find((table) => table.name === 'orders')
      ?.columns.find((column) => column.name === 'guests');
    assert.equal(guests?.isNullable, true);
  });
});
