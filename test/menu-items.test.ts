import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Db } from '../src/core/db/database';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { insertCategory } from './helpers/factories';
import { allRows, asUser, fireConcurrently } from './helpers/menu-factories';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

type CategoryType = 'dish' | 'ingredient' | 'product';

/** What the shared behaviour of the three kinds needs to know about each. */
const kinds = [
  {
    path: '/dishes',
    table: 'dishes',
    noun: 'Dish',
    type: 'dish',
    body: (categoryId: string, name = 'Flan') => ({ name, price: 40.5, category_id: categoryId }),
    stored: { price_cents: 4050 },
    // A spec-only body gets the menu's defaults.
    defaults: {
      description: '',
      available: true,
      modifier_group_ids: [],
      recipe: [],
      out_of_stock: false,
      channel_prices: {},
    },
  },
  {
    path: '/ingredients',
    table: 'ingredients',
    noun: 'Ingredient',
    type: 'ingredient',
    body: (categoryId: string, name = 'Flour') => ({
      name,
      category_id: categoryId,
      quantity: 2.5,
      unit: 'kg',
    }),
    // Thousandths of the unit: stock sums stay exact.
    stored: { stock: 2500, unit: 'kg' },
    defaults: { reorder_level: 0 },
  },
  {
    path: '/products',
    table: 'products',
    noun: 'Product',
    type: 'product',
    body: (categoryId: string, name = 'Cola', sku = `SKU-${name}`) => ({
      name,
      sku,
      price: 25,
      quantity: 24,
      category_id: categoryId,
    }),
    stored: { price_cents: 2500, stock: 24 },
    defaults: { reorder_level: 0 },
  },
] as const;

describeEachDatabase('menu items', (target) => {
  async function setup(t: Parameters<typeof buildTestApp>[0]) {
    const testApp = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(testApp.app, testApp.db, 'staff');
    return { ...testApp, cookies, request: asUser(testApp.app, cookies) };
  }

  for (const kind of kinds) {
    const rowsOf = (db: Db) => allRows(db, kind.table);
    const categoryOf = (db: Db, type: CategoryType = kind.type) => insertCategory(db, { type });

    it(`creates ${kind.table} and shows them`, async (t) => {
      const { db, request } = await setup(t);
      const category = await categoryOf(db);
      const response = await request('POST', kind.path, kind.body(category.id));
      assert.equal(response.statusCode, 201);
      const { id, message } = response.json();
      assert.equal(message, `${kind.noun} added successfully`);

      const [row] = await rowsOf(db);
      assert.equal(row?.id, id);
      assert.equal(row?.category_id, category.id);
      assert.equal(row?.is_deleted, 0);
      for (const [column, value] of Object.entries(kind.stored)) {
        assert.equal((row as Record<string, unknown>)[column], value, column);
      }

      const shown = await request('GET', `${kind.path}/${id}`);
      assert.equal(shown.statusCode, 200);
      assert.deepEqual(shown.json(), { id, ...kind.body(category.id), ...kind.defaults });
      const listed = await request('GET', kind.path);
      assert.deepEqual(listed.json(), [{ id, ...kind.body(category.id), ...kind.defaults }]);
    });

    it(`lists live ${kind.table} by name and answers 204 when there are none`, async (t) => {
      const { db, request } = await setup(t);
      assert.equal((await request('GET', kind.path)).statusCode, 204);
      const category = await categoryOf(db);
      const second = (await request('POST', kind.path, kind.body(category.id, 'B'))).json().id;
      const first = (await request('POST', kind.path, kind.body(category.id, 'A'))).json().id;
      const gone = (await request('POST', kind.path, kind.body(category.id, 'C'))).json().id;
      await request('DELETE', `${kind.path}/${gone}`);
      const listed = await request('GET', kind.path);
      assert.deepEqual(
        listed.json().map((item: { id: string }) => item.id),
        [first, second],
      );
      assert.equal(listed.body.includes('is_deleted'), false);
    });

    it(`updates a ${kind.type}`, async (t) => {
      const { db, request } = await setup(t);
      const category = await categoryOf(db);
      const other = await categoryOf(db);
      const { id } = (await request('POST', kind.path, kind.body(category.id))).json();
      const response = await request('PUT', `${kind.path}/${id}`, kind.body(other.id, 'Renamed'));
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), { id, message: `${kind.noun} updated successfully` });
      const [row] = await rowsOf(db);
      assert.equal(row?.name, 'Renamed');
      assert.equal(row?.category_id, other.id);
    });

    it(`deletes a ${kind.type} logically`, async (t) => {
      const { db, request } = await setup(t);
      const category = await categoryOf(db);
      const { id } = (await request('POST', kind.path, kind.body(category.id))).json();
      const response = await request('DELETE', `${kind.path}/${id}`);
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), { id, message: `${kind.noun} deleted successfully` });
      const [row] = await rowsOf(db);
      assert.equal(row?.is_deleted, 1);
      assert.equal((await request('GET', `${kind.path}/${id}`)).statusCode, 404);
      assert.equal((await request('PUT', `${kind.path}/${id}`, kind.body(category.id))).statusCode, 404);
      assert.equal((await request('DELETE', `${kind.path}/${id}`)).statusCode, 404);
    });

    it(`answers unknown and malformed ${kind.type} ids with the bare texts`, async (t) => {
      const { db, request } = await setup(t);
      const category = await categoryOf(db);
      for (const [method, payload] of [['GET'], ['PUT', kind.body(category.id)], ['DELETE']] as const) {
        const unknown = await request(method, `${kind.path}/${UNKNOWN_ID}`, payload);
        assert.equal(unknown.statusCode, 404, method);
        assert.equal(unknown.body, 'Resource not found');
        const malformed = await request(method, `${kind.path}/nope`, payload);
        assert.equal(malformed.statusCode, 400, method);
        assert.equal(malformed.body, 'Missing or malformed ID');
      }
      assert.deepEqual(await rowsOf(db), []);
    });

    it(`refuses a ${kind.type} in a category of another type, deleted or unknown`, async (t) => {
      const { db, request } = await setup(t);
      const otherType = await insertCategory(db, { type: kind.type === 'dish' ? 'product' : 'dish' });
      const deleted = await insertCategory(db, { type: kind.type, isDeleted: true });
      const message = `category_id must name an existing ${kind.type} category`;
      for (const categoryId of [otherType.id, deleted.id, UNKNOWN_ID]) {
        const response = await request('POST', kind.path, kind.body(categoryId));
        assert.equal(response.statusCode, 400);
        assert.deepEqual(response.json(), { message });
      }
      assert.deepEqual(await rowsOf(db), []);

      const category = await categoryOf(db);
      const { id } = (await request('POST', kind.path, kind.body(category.id))).json();
      const before = await rowsOf(db);
      for (const categoryId of [otherType.id, deleted.id]) {
        const response = await request('PUT', `${kind.path}/${id}`, kind.body(categoryId, 'Moved'));
        assert.equal(response.statusCode, 400);
        assert.deepEqual(response.json(), { message });
      }
      assert.deepEqual(await rowsOf(db), before);
    });

    it(`refuses a malformed ${kind.type} body with the fields named`, async (t) => {
      const { db, request } = await setup(t);
      const category = await categoryOf(db);
      const { name: _name, ...nameless } = kind.body(category.id);
      const response = await request('POST', kind.path, nameless);
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().message, 'Validation failed');
      assert.deepEqual(
        response.json().details.map((detail: { field: string }) => detail.field),
        ['name'],
      );
      const wrongCategory = await request('POST', kind.path, { ...kind.body(category.id), category_id: 'x' });
      assert.equal(wrongCategory.statusCode, 400);
      assert.equal(wrongCategory.json().details[0].field, 'category_id');
      assert.deepEqual(await rowsOf(db), []);
    });

    it(`keeps a category in use while a live ${kind.type} points at it`, async (t) => {
      const { db, request } = await setup(t);
      const category = await categoryOf(db);
      const { id } = (await request('POST', kind.path, kind.body(category.id))).json();
      const refused = await request('DELETE', `/categories/${category.id}?type=${kind.type}`);
      assert.equal(refused.statusCode, 400);
      assert.deepEqual(refused.json(), { message: 'Cannot delete category - it may be in use or not found' });

      await request('DELETE', `${kind.path}/${id}`);
      const accepted = await request('DELETE', `/categories/${category.id}?type=${kind.type}`);
      assert.equal(accepted.statusCode, 204);
    });
  }

  it('stores prices as cents and refuses more than two decimals, negatives and strings', async (t) => {
    const { db, request } = await setup(t);
    const category = await insertCategory(db, { type: 'dish' });
    const created = await request('POST', '/dishes', { name: 'Tea', price: 19.99, category_id: category.id });
    assert.equal(created.statusCode, 201);
    assert.equal((await allRows(db, 'dishes'))[0]?.price_cents, 1999);
    assert.equal((await request('GET', `/dishes/${created.json().id}`)).json().price, 19.99);

    const before = await allRows(db, 'dishes');
    for (const price of [1.005, -1, '5', null]) {
      const response = await request('POST', '/dishes', { name: 'Bad', price, category_id: category.id });
      assert.equal(response.statusCode, 400, String(price));
      assert.equal(response.json().details[0].field, 'price');
    }
    assert.deepEqual(await allRows(db, 'dishes'), before);
  });

  it('stores the largest accepted price on both engines', async (t) => {
    const { db, request } = await setup(t);
    const dishCategory = await insertCategory(db, { type: 'dish' });
    const productCategory = await insertCategory(db, { type: 'product' });
    const dish = await request('POST', '/dishes', {
      name: 'Caviar',
      price: 99_999_999.99,
      category_id: dishCategory.id,
    });
    assert.equal(dish.statusCode, 201, dish.body);
    assert.equal((await request('GET', `/dishes/${dish.json().id}`)).json().price, 99_999_999.99);
    const product = await request('POST', '/products', {
      name: 'Gold bar',
      sku: 'AU-1',
      price: 99_999_999.99,
      quantity: 1_000_000_000,
      category_id: productCategory.id,
    });
    assert.equal(product.statusCode, 201, product.body);
    assert.equal(
      (
        await request('POST', '/dishes', {
          name: 'Too dear',
          price: 100_000_000,
          category_id: dishCategory.id,
        })
      ).statusCode,
      400,
    );
  });

  it('keeps SKUs unique among live products', async (t) => {
    const { db, request } = await setup(t);
    const category = await insertCategory(db, { type: 'product' });
    const product = (name: string, sku: string) => ({
      name,
      sku,
      price: 1,
      quantity: 1,
      category_id: category.id,
    });
    const first = (await request('POST', '/products', product('Cola', 'COLA'))).json().id;
    const second = (await request('POST', '/products', product('Water', 'WATER'))).json().id;
    const before = await allRows(db, 'products');

    const taken = { message: 'A product with this SKU already exists' };
    const duplicate = await request('POST', '/products', product('Cola 2', 'COLA'));
    assert.equal(duplicate.statusCode, 400);
    assert.deepEqual(duplicate.json(), taken);
    const renamed = await request('PUT', `/products/${second}`, product('Water', 'COLA'));
    assert.equal(renamed.statusCode, 400);
    assert.deepEqual(renamed.json(), taken);
    assert.deepEqual(await allRows(db, 'products'), before);

    await request('DELETE', `/products/${first}`);
    const reused = await request('POST', '/products', product('Cola', 'COLA'));
    assert.equal(reused.statusCode, 201);
  });

  it('creates one product when ten requests race for one SKU', async (t) => {
    const { app, db, cookies } = await setup(t);
    const category = await insertCategory(db, { type: 'product' });
    const body = { name: 'Cola', sku: 'COLA', price: 1, quantity: 1, category_id: category.id };
    const results = await fireConcurrently(
      app,
      cookies,
      Array.from({ length: 10 }, () => ({ method: 'POST', url: '/products', body })),
    );
    assert.deepEqual(results.map((result) => result.status).sort(), [201, ...Array(9).fill(400)]);
    assert.equal((await allRows(db, 'products')).length, 1);
  });

  it('requires a login', async (t) => {
    const { app } = await buildTestApp(t, target);
    for (const path of ['/dishes', '/ingredients', '/products']) {
      assert.equal((await app.inject({ method: 'GET', url: path })).statusCode, 401);
    }
  });
});
