import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { describeEachDatabase } from './helpers/app';
import { unmigratedDatabase } from './helpers/migrations';

describeEachDatabase('migration 0027 inventory', (target) => {
  it('turns quantities into exact base units, each item opening with a count, and grants inventory', async (t) => {
    const { database, migrator } = await unmigratedDatabase(t, target);
    assert.equal((await migrator.migrateTo('0026_pin_length')).error, undefined);
    const db = database.db;
    const now = Date.UTC(2026, 10, 20);
    await sql`insert into categories (id, name, type, created_at, updated_at)
      values ('c0000000-0000-4000-8000-000000000001', 'Pantry', 'ingredient', ${now}, ${now}),
             ('c0000000-0000-4000-8000-000000000002', 'Drinks', 'product', ${now}, ${now})`.execute(db);
    // 0.1 + 0.2 as a double, and nothing at all: what floats left behind.
    await sql`insert into ingredients (id, name, category_id, quantity, unit, created_at, updated_at)
      values ('10000000-0000-4000-8000-000000000001', 'Cheese', 'c0000000-0000-4000-8000-000000000001', ${0.1 + 0.2}, 'kg', ${now}, ${now}),
             ('10000000-0000-4000-8000-000000000002', 'Salt', 'c0000000-0000-4000-8000-000000000001', 0, 'kg', ${now}, ${now})`.execute(
      db,
    );
    await sql`insert into products (id, name, sku, price_cents, quantity, category_id, created_at, updated_at)
      values ('20000000-0000-4000-8000-000000000001', 'Cola', 'COLA', 2500, 24, 'c0000000-0000-4000-8000-000000000002', ${now}, ${now})`.execute(
      db,
    );

    assert.equal((await migrator.migrateTo('0027_inventory')).error, undefined);
    const ingredients = await db
      .selectFrom('ingredients')
      .select(['name', 'stock', 'stock_moves'])
      .orderBy('name')
      .execute();
    assert.deepEqual(
      ingredients.map((row) => [row.name, Number(row.stock), Number(row.stock_moves)]),
      [
        ['Cheese', 300, 1],
        ['Salt', 0, 0],
      ],
    );
    const movements = await db.selectFrom('stock_movements').selectAll().orderBy('item_type').execute();
    assert.deepEqual(
      movements.map((row) => [
        row.item_type,
        Number(row.delta),
        Number(row.stock_after),
        row.reason,
        row.note,
        Number(row.seq),
      ]),
      [
        ['ingredient', 300, 300, 'count', 'Opening stock', 1],
        ['product', 24, 24, 'count', 'Opening stock', 1],
      ],
    );
    const roles = await db.selectFrom('roles').select(['name', 'permissions']).execute();
    const held = Object.fromEntries(roles.map((row) => [row.name, JSON.parse(row.permissions) as string[]]));
    for (const role of ['manager', 'staff']) {
      assert.ok(held[role]?.includes('inventory.write'), role);
      assert.ok(held[role]?.includes('inventory.read'), role);
    }
    assert.ok(held.kitchen?.includes('inventory.read'));
    assert.ok(!held.waiter?.includes('inventory.read'));
  });
});
