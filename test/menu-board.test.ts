import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { KyselyPlugin } from 'kysely';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { databaseDigest } from './helpers/db-digest';
import { insertCategory, insertDish } from './helpers/factories';
import { createGroup, linkGroups, tacoMenu } from './helpers/modifier-factories';
import { callerFor } from './helpers/orders-factories';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** Counts the statements the app runs; every executed query passes through transformResult once. */
function queryCounter(): KyselyPlugin & { count: number } {
  const counter = {
    count: 0,
    transformQuery: (args: Parameters<KyselyPlugin['transformQuery']>[0]) => args.node,
    transformResult: async (args: Parameters<KyselyPlugin['transformResult']>[0]) => {
      counter.count += 1;
      return args.result;
    },
  };
  return counter;
}

describeEachDatabase('dishes, availability and the menu', (target) => {
  async function setup(t: Parameters<typeof buildTestApp>[0], plugins: KyselyPlugin[] = []) {
    const testApp = await buildTestApp(t, target, { plugins });
    const { cookies } = await loggedInUser(testApp.app, testApp.db, 'manager');
    return { ...testApp, call: callerFor(testApp.app, cookies) };
  }

  it('gives a spec-only dish body the defaults and keeps fields a PUT leaves out', async (t) => {
    const { db, call } = await setup(t);
    const category = await insertCategory(db);
    const group = await createGroup(call, { name: 'Sauce', min_select: 0, max_select: 1, options: [] });
    const created = await call('POST', '/dishes', { name: 'Flan', price: 40, category_id: category.id });
    assert.equal(created.statusCode, 201);
    const { id } = created.json();
    const base = { id, name: 'Flan', price: 40, category_id: category.id };
    assert.deepEqual((await call('GET', `/dishes/${id}`)).json(), {
      ...base,
      description: '',
      available: true,
      modifier_group_ids: [],
      recipe: [],
      out_of_stock: false,
      channel_prices: {},
    });
    const full = {
      description: 'Caramel custard',
      available: false,
      modifier_group_ids: [group.id],
      recipe: [],
      out_of_stock: false,
      channel_prices: { ubereats: 48 },
    };
    assert.equal((await call('PUT', `/dishes/${id}`, { ...base, ...full })).statusCode, 200);
    assert.deepEqual((await call('GET', `/dishes/${id}`)).json(), { ...base, ...full });
    assert.equal((await call('PUT', `/dishes/${id}`, { ...base, price: 42 })).statusCode, 200);
    assert.deepEqual((await call('GET', `/dishes/${id}`)).json(), { ...base, price: 42, ...full });
    assert.deepEqual((await call('GET', '/dishes')).json(), [{ ...base, price: 42, ...full }]);
  });

  it('refuses a dish naming a group that is not live, and a description too long, changing nothing', async (t) => {
    const { db, call } = await setup(t);
    const category = await insertCategory(db);
    const group = await createGroup(call, { name: 'Sauce', min_select: 0, max_select: 1, options: [] });
    await call('DELETE', `/modifier-groups/${group.id}`);
    const digest = await databaseDigest(db);
    const body = { name: 'Flan', price: 40, category_id: category.id };
    for (const ids of [[UNKNOWN_ID], [group.id]]) {
      const response = await call('POST', '/dishes', { ...body, modifier_group_ids: ids });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), { message: 'modifier_group_ids must name live modifier groups' });
    }
    const long = await call('POST', '/dishes', { ...body, description: 'x'.repeat(501) });
    assert.equal(long.statusCode, 400);
    assert.equal(long.json().message, 'Validation failed');
    assert.equal(await databaseDigest(db), digest);
  });

  it('lets the kitchen 86 a dish, with an event and an audit entry in the same change', async (t) => {
    const { app, db } = await setup(t);
    const dish = await insertDish(db, { name: 'Pozole' });
    const kitchen = callerFor(app, (await loggedInUser(app, db, 'kitchen')).cookies);
    const response = await kitchen('PUT', `/dishes/${dish.id}/availability`, { available: false });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().available, false);
    const stored = await db
      .selectFrom('dishes')
      .select('is_available')
      .where('id', '=', dish.id)
      .executeTakeFirst();
    assert.equal(Number(stored?.is_available), 0);
    const events = await db
      .selectFrom('events')
      .selectAll()
      .where('type', '=', 'dish.availability_changed')
      .execute();
    assert.equal(events.length, 1);
    assert.deepEqual(JSON.parse(events[0]?.payload as string).data, {
      dish_id: dish.id,
      available: false,
      reason: 'manual',
    });
    const audits = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'dish.availability_changed')
      .execute();
    assert.equal(audits.length, 1);
    assert.equal(audits[0]?.target_id, dish.id);
    // The same value again changes nothing and announces nothing.
    assert.equal(
      (await kitchen('PUT', `/dishes/${dish.id}/availability`, { available: false })).statusCode,
      200,
    );
    assert.equal(
      (await db.selectFrom('events').selectAll().where('type', '=', 'dish.availability_changed').execute())
        .length,
      1,
    );
    assert.equal(
      (await kitchen('PUT', `/dishes/${dish.id}/availability`, { available: true })).json().available,
      true,
    );
    assert.equal(
      (await kitchen('PUT', `/dishes/${UNKNOWN_ID}/availability`, { available: true })).statusCode,
      404,
    );
    // Marking sold out is not editing the menu.
    assert.equal(
      (await kitchen('PUT', `/dishes/${dish.id}`, { name: 'x', price: 1, category_id: dish.categoryId }))
        .statusCode,
      403,
    );
  });

  it('refuses the 86 to a role without menu.availability', async (t) => {
    const { app, db } = await setup(t);
    const dish = await insertDish(db);
    await db
      .updateTable('roles')
      .set({ permissions: '["orders.write"]' })
      .where('name', '=', 'waiter')
      .execute();
    const waiter = callerFor(app, (await loggedInUser(app, db, 'waiter')).cookies);
    const response = await waiter('PUT', `/dishes/${dish.id}/availability`, { available: false });
    assert.equal(response.statusCode, 403);
  });

  it('answers the whole menu: categories with their station, dishes, their groups in order and live options', async (t) => {
    const { app, db, call } = await setup(t);
    const menu = await tacoMenu(call, db);
    const empty = await insertCategory(db, { name: 'Desserts' });
    await call('PUT', `/modifier-groups/${menu.extras.id}`, {
      ...menu.extras,
      options: [menu.pineapple, { ...menu.cheese, available: false }],
    });
    await call('PUT', `/dishes/${menu.tacos.id}/availability`, { available: false });
    const waiter = callerFor(app, (await loggedInUser(app, db, 'waiter')).cookies);
    const response = await waiter('GET', '/menu');
    assert.equal(response.statusCode, 200);
    const categories = response.json().categories;
    const tacoCategory = categories.find((category: { id: string }) => category.id === menu.tacos.categoryId);
    assert.deepEqual(
      categories.find((category: { id: string }) => category.id === empty.id),
      { id: empty.id, name: 'Desserts', station: 'kitchen', dishes: [] },
    );
    assert.deepEqual(tacoCategory.dishes, [
      {
        id: menu.tacos.id,
        name: 'Tacos al pastor',
        description: '',
        price: 30,
        available: false,
        out_of_stock: false,
        // The menu leaves options' recipes to the group routes: it is read on every order screen.
        modifier_groups: [
          withoutRecipes(menu.tortilla),
          withoutRecipes({ ...menu.extras, options: [menu.pineapple, { ...menu.cheese, available: false }] }),
        ],
      },
    ]);
  });

  it('reads the menu in the same number of queries whatever its size', async (t) => {
    const counter = queryCounter();
    const { db, call } = await setup(t, [counter]);
    const queriesFor = async () => {
      const before = counter.count;
      const response = await call('GET', '/menu');
      assert.equal(response.statusCode, 200);
      return counter.count - before;
    };
    await tacoMenu(call, db);
    const small = await queriesFor();
    for (let index = 0; index < 10; index++) {
      const group = await createGroup(call, {
        name: `Group ${index}`,
        min_select: 0,
        max_select: 3,
        options: Array.from({ length: 5 }, (_, option) => ({
          name: `Option ${option}`,
          price_delta: option,
        })),
      });
      const category = await insertCategory(db);
      for (let dish = 0; dish < 3; dish++) {
        await linkGroups(call, await insertDish(db, { categoryId: category.id }), [group]);
      }
    }
    const large = await queriesFor();
    assert.equal(large, small);
    assert.ok(small <= 8, `${small} queries`);
  });
});

function withoutRecipes<Group extends { options: object[] }>(group: Group): Group {
  return {
    ...group,
    options: group.options.map((option) => {
      const { recipe: _recipe, ...rest } = option as { recipe?: unknown };
      return rest;
    }),
  };
}
