import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { insertDish } from './helpers/factories';
import { insertIngredient } from './helpers/menu-factories';
import { unmigratedDatabase } from './helpers/migrations';
import { callerFor } from './helpers/orders-factories';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** Enough rows in one millisecond that random ids would list them in entry order only by a fluke. */
const ROWS = 12;

describeEachDatabase('identifiers', (target) => {
  it('gives plates and stock movements UUID v4 ids and still lists them in the order entered', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const call = callerFor(app, (await loggedInUser(app, db, 'admin')).cookies);
    const dishes = [];
    for (let index = 0; index < ROWS; index++) dishes.push(await insertDish(db, { name: `Dish ${index}` }));
    const created = await call('POST', '/orders/with-dishes', {
      order: {},
      dishes: dishes.map((dish) => ({ dish_id: dish.id })),
    });
    assert.equal(created.statusCode, 201, created.body);
    const plates = (await call('GET', `/orders/${created.json().id}/dishes`)).json();
    assert.deepEqual(
      plates.map((plate: { dish_name: string }) => plate.dish_name),
      dishes.map((dish) => dish.name),
    );
    for (const plate of plates) assert.match(plate.id, UUID_V4);

    const items = [];
    for (let index = 0; index < ROWS; index++)
      items.push(await insertIngredient(db, { name: `Item ${index}` }));
    const counted = await call('POST', '/inventory/counts', {
      counts: items.map((item) => ({ item_type: 'ingredient', item_id: item.id, counted: 5 })),
    });
    assert.equal(counted.statusCode, 200, counted.body);
    const movements = (await call('GET', '/inventory/movements')).json();
    const ids = items.map((item) => item.id);
    assert.deepEqual(
      movements.map((movement: { item_id: string }) => movement.item_id),
      // Newest first: the count sheet, which moves its items in the order it locks them (by id), then
      // the opening stock each item was created with, all in one millisecond.
      [...[...ids].sort().reverse(), ...[...ids].reverse()],
    );
    for (const movement of movements) assert.match(movement.id, UUID_V4);
  });

  it('numbers existing plates in the order their list showed, keeping their ids', async (t) => {
    const { database, migrator } = await unmigratedDatabase(t, target);
    assert.equal((await migrator.migrateTo('0031_order_reassign')).error, undefined);
    const db = database.db;
    const user = { id: '00000000-0000-7000-8000-00000000000a', name: 'Ana' };
    await db
      .insertInto('users')
      .values({ ...user, pin_hash: 'x', role: 'admin', created_at: 1, updated_at: 1 } as never)
      .execute();
    const category = '00000000-0000-7000-8000-00000000000b';
    await db
      .insertInto('categories')
      .values({ id: category, name: 'Food', type: 'dish', created_at: 1, updated_at: 1 } as never)
      .execute();
    const dish = '00000000-0000-7000-8000-00000000000c';
    await db
      .insertInto('dishes')
      .values({
        id: dish,
        name: 'Taco',
        price_cents: 100,
        category_id: category,
        created_at: 1,
        updated_at: 1,
      } as never)
      .execute();
    const order = '00000000-0000-7000-8000-00000000000d';
    await db
      .insertInto('orders')
      .values({
        id: order,
        user_id: user.id,
        waiter: 'Ana',
        status: 'pending',
        total_cents: 300,
        created_at: 1,
        updated_at: 1,
      } as never)
      .execute();
    // Two plates of one millisecond, told apart by their v7 ids, and an earlier one.
    const plates = [
      ['0190d000-0000-7000-8000-000000000002', 5],
      ['0190d000-0000-7000-8000-000000000001', 5],
      ['0190d000-0000-7000-8000-000000000009', 4],
    ] as const;
    for (const [id, createdAt] of plates) {
      await db
        .insertInto('order_dishes')
        .values({
          id,
          order_id: order,
          dish_id: dish,
          price_at_order_cents: 100,
          notes: '',
          created_at: createdAt,
        } as never)
        .execute();
    }
    assert.equal((await migrator.migrateToLatest()).error, undefined);
    const numbered = await db
      .selectFrom('order_dishes')
      .select(['id', 'ordinal'])
      .orderBy('ordinal')
      .execute();
    assert.deepEqual(
      numbered.map((row) => [row.id, Number(row.ordinal)]),
      [
        ['0190d000-0000-7000-8000-000000000009', 1],
        ['0190d000-0000-7000-8000-000000000001', 2],
        ['0190d000-0000-7000-8000-000000000002', 3],
      ],
    );
  });
});
