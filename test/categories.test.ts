import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { insertCategory, insertDish } from './helpers/factories';
import {
  allRows,
  asUser,
  fireConcurrently,
  insertIngredient,
  insertProduct,
  withRowLockHeld,
} from './helpers/menu-factories';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const MALFORMED_TYPE = { message: 'Missing or malformed type' };
const MALFORMED_ID_TYPE = { message: 'Missing or malformed ID/type' };
const CREATE_FAILED = { message: 'Failed to create category' };
const CANNOT_DELETE = { message: 'Cannot delete category - it may be in use or not found' };

describeEachDatabase('categories', (target) => {
  async function setup(t: Parameters<typeof buildTestApp>[0]) {
    const testApp = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(testApp.app, testApp.db, 'staff');
    return { ...testApp, cookies, request: asUser(testApp.app, cookies) };
  }

  it('lists the live categories of one type by name, without their type', async (t) => {
    const { db, request } = await setup(t);
    const soups = await insertCategory(db, { name: 'Soups', type: 'dish' });
    const desserts = await insertCategory(db, { name: 'Desserts', type: 'dish' });
    await insertCategory(db, { name: 'Dairy', type: 'ingredient' });
    await insertCategory(db, { name: 'Gone', type: 'dish', isDeleted: true });

    const response = await request('GET', '/categories?type=dish');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), [
      { id: desserts.id, name: 'Desserts', station: 'kitchen' },
      { id: soups.id, name: 'Soups', station: 'kitchen' },
    ]);
  });

  it('gives dish categories a station, kept by an update without one, refused on other types', async (t) => {
    const { db, request } = await setup(t);
    const created = await request('POST', '/categories', { name: 'Drinks', type: 'dish', station: 'bar' });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().id as string;
    assert.deepEqual((await request('GET', `/categories/${id}?type=dish`)).json(), {
      id,
      name: 'Drinks',
      station: 'bar',
    });
    assert.equal(
      (await request('PUT', `/categories/${id}`, { name: 'Cocktails', type: 'dish' })).statusCode,
      200,
    );
    assert.equal((await request('GET', `/categories/${id}?type=dish`)).json().station, 'bar');
    const moved = await request('PUT', `/categories/${id}`, {
      name: 'Cocktails',
      type: 'dish',
      station: 'grill',
    });
    assert.equal(moved.statusCode, 200);
    assert.equal((await request('GET', `/categories/${id}?type=dish`)).json().station, 'grill');

    const before = await allRows(db, 'categories');
    const onIngredient = await request('POST', '/categories', {
      name: 'Dairy',
      type: 'ingredient',
      station: 'bar',
    });
    assert.equal(onIngredient.statusCode, 400);
    assert.deepEqual(onIngredient.json(), { message: 'Only dish categories have a station' });
    const malformed = await request('POST', '/categories', {
      name: 'Wines',
      type: 'dish',
      station: 'Bar Top',
    });
    assert.deepEqual(malformed.json(), CREATE_FAILED);
    assert.deepEqual(await allRows(db, 'categories'), before);

    const dairy = await insertCategory(db, { name: 'Dairy', type: 'ingredient' });
    assert.deepEqual((await request('GET', `/categories/${dairy.id}?type=ingredient`)).json(), {
      id: dairy.id,
      name: 'Dairy',
    });
  });

  it('answers 204 with no body when a type has no live category', async (t) => {
    const { db, request } = await setup(t);
    await insertCategory(db, { type: 'dish', isDeleted: true });
    const response = await request('GET', '/categories?type=dish');
    assert.equal(response.statusCode, 204);
    assert.equal(response.body, '');
  });

  it('refuses a list without a valid type', async (t) => {
    const { request } = await setup(t);
    for (const url of ['/categories', '/categories?type=drink', '/categories?type=']) {
      const response = await request('GET', url);
      assert.equal(response.statusCode, 400, url);
      assert.deepEqual(response.json(), MALFORMED_TYPE);
    }
  });

  it('gets a category by id and type', async (t) => {
    const { db, request } = await setup(t);
    const category = await insertCategory(db, { name: 'Flours', type: 'ingredient' });
    const response = await request('GET', `/categories/${category.id}?type=ingredient`);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { id: category.id, name: 'Flours' });
  });

  it('answers a missing, deleted or other-type category with the bare 404', async (t) => {
    const { db, request } = await setup(t);
    const deleted = await insertCategory(db, { type: 'dish', isDeleted: true });
    const dish = await insertCategory(db, { type: 'dish' });
    for (const url of [
      `/categories/${UNKNOWN_ID}?type=dish`,
      `/categories/${deleted.id}?type=dish`,
      `/categories/${dish.id}?type=product`,
    ]) {
      const response = await request('GET', url);
      assert.equal(response.statusCode, 404, url);
      assert.equal(response.body, 'Resource not found');
    }
  });

  it('refuses a get with a malformed id or without a valid type', async (t) => {
    const { db, request } = await setup(t);
    const malformed = await request('GET', '/categories/not-a-uuid?type=dish');
    assert.equal(malformed.statusCode, 400);
    assert.match(malformed.headers['content-type'] as string, /^text\/plain/);
    assert.equal(malformed.body, 'Missing or malformed ID');

    const category = await insertCategory(db);
    const untyped = await request('GET', `/categories/${category.id}`);
    assert.equal(untyped.statusCode, 400);
    assert.deepEqual(untyped.json(), MALFORMED_TYPE);
  });

  it('creates a category with a trimmed name', async (t) => {
    const { db, request } = await setup(t);
    const response = await request('POST', '/categories', { name: '  Desserts ', type: 'dish' });
    assert.equal(response.statusCode, 201);
    const { id, message } = response.json();
    assert.equal(message, 'Category added successfully');
    const rows = await allRows(db, 'categories');
    assert.equal(rows.length, 1);
    assert.deepEqual(
      { id: rows[0]?.id, name: rows[0]?.name, type: rows[0]?.type, is_deleted: rows[0]?.is_deleted },
      { id, name: 'Desserts', type: 'dish', is_deleted: 0 },
    );
  });

  it('refuses a create without a valid type and stores nothing', async (t) => {
    const { db, request } = await setup(t);
    for (const body of [
      { name: 'Drinks' },
      { name: 'Drinks', type: 'drink' },
      { name: 'Drinks', type: 1 },
      [],
    ]) {
      const response = await request('POST', '/categories', body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      assert.deepEqual(response.json(), MALFORMED_TYPE);
    }
    assert.deepEqual(await allRows(db, 'categories'), []);
  });

  it('refuses a create without a usable name and stores nothing', async (t) => {
    const { db, request } = await setup(t);
    for (const body of [{ type: 'dish' }, { name: '   ', type: 'dish' }, { name: 5, type: 'dish' }]) {
      const response = await request('POST', '/categories', body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      assert.deepEqual(response.json(), CREATE_FAILED);
    }
    assert.deepEqual(await allRows(db, 'categories'), []);
  });

  it('keeps names unique per type among live categories', async (t) => {
    const { db, request } = await setup(t);
    await insertCategory(db, { name: 'Drinks', type: 'product' });
    const before = await allRows(db, 'categories');

    const duplicate = await request('POST', '/categories', { name: 'Drinks', type: 'product' });
    assert.equal(duplicate.statusCode, 400);
    assert.deepEqual(duplicate.json(), CREATE_FAILED);
    assert.deepEqual(await allRows(db, 'categories'), before);

    const otherType = await request('POST', '/categories', { name: 'Drinks', type: 'dish' });
    assert.equal(otherType.statusCode, 201);
  });

  it('lets a deleted name be used again', async (t) => {
    const { db, request } = await setup(t);
    await insertCategory(db, { name: 'Drinks', type: 'dish', isDeleted: true });
    const response = await request('POST', '/categories', { name: 'Drinks', type: 'dish' });
    assert.equal(response.statusCode, 201);
    const live = (await allRows(db, 'categories')).filter((row) => row.is_deleted === 0);
    assert.deepEqual(
      live.map((row) => row.name),
      ['Drinks'],
    );
  });

  it('creates exactly one category when ten requests race for one name', async (t) => {
    const { app, db, cookies } = await setup(t);
    const results = await fireConcurrently(
      app,
      cookies,
      Array.from({ length: 10 }, () => ({
        method: 'POST',
        url: '/categories',
        body: { name: 'Tacos', type: 'dish' },
      })),
    );
    assert.deepEqual(results.map((result) => result.status).sort(), [201, ...Array(9).fill(400)]);
    for (const result of results.filter((r) => r.status === 400)) {
      assert.deepEqual(JSON.parse(result.body), CREATE_FAILED);
    }
    assert.equal((await allRows(db, 'categories')).length, 1);
  });

  it('renames a category', async (t) => {
    const { db, request } = await setup(t);
    const category = await insertCategory(db, { name: 'Soup', type: 'dish' });
    const response = await request('PUT', `/categories/${category.id}`, { name: 'Soups', type: 'dish' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { id: category.id, message: 'Category updated successfully' });
    const [row] = await allRows(db, 'categories');
    assert.equal(row?.name, 'Soups');
    assert.equal(row?.type, 'dish');

    const sameName = await request('PUT', `/categories/${category.id}`, { name: 'Soups', type: 'dish' });
    assert.equal(sameName.statusCode, 200);
  });

  it('refuses an update with a malformed id or type and changes nothing', async (t) => {
    const { db, request } = await setup(t);
    const category = await insertCategory(db, { name: 'Soup', type: 'dish' });
    const before = await allRows(db, 'categories');
    for (const [url, body] of [
      ['/categories/not-a-uuid', { name: 'Soups', type: 'dish' }],
      [`/categories/${category.id}`, { name: 'Soups' }],
      [`/categories/${category.id}`, { name: 'Soups', type: 'drink' }],
    ] as const) {
      const response = await request('PUT', url, body);
      assert.equal(response.statusCode, 400, `${url} ${JSON.stringify(body)}`);
      assert.deepEqual(response.json(), MALFORMED_ID_TYPE);
    }
    assert.deepEqual(await allRows(db, 'categories'), before);
  });

  it('takes the type of an update from the query, as GET has it, when the body has none', async (t) => {
    const { db, request } = await setup(t);
    const category = await insertCategory(db, { name: 'Soup', type: 'dish' });
    const url = `/categories/${category.id}?type=dish`;
    const read = (await request('GET', url)).json();
    const response = await request('PUT', url, { ...read, name: 'Soups' });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual((await request('GET', url)).json(), { ...read, name: 'Soups' });

    const before = await allRows(db, 'categories');
    for (const [query, body] of [
      ['?type=ingredient', { name: 'Stews', type: 'dish' }],
      ['?type=drink', { name: 'Stews' }],
      ['?type=drink', { name: 'Stews', type: 'dish' }],
    ] as const) {
      const refused = await request('PUT', `/categories/${category.id}${query}`, body);
      assert.equal(refused.statusCode, 400, `${query} ${JSON.stringify(body)}`);
      assert.deepEqual(refused.json(), MALFORMED_ID_TYPE);
    }
    assert.deepEqual(await allRows(db, 'categories'), before);
  });

  it('answers an update of a missing, deleted or other-type category with its 404 message', async (t) => {
    const { db, request } = await setup(t);
    const deleted = await insertCategory(db, { type: 'dish', isDeleted: true });
    const dish = await insertCategory(db, { type: 'dish' });
    const before = await allRows(db, 'categories');
    for (const [id, type] of [
      [UNKNOWN_ID, 'dish'],
      [deleted.id, 'dish'],
      [dish.id, 'ingredient'],
    ]) {
      const response = await request('PUT', `/categories/${id}`, { name: 'Renamed', type });
      assert.equal(response.statusCode, 404);
      assert.deepEqual(response.json(), { message: `Category with ID: ${id} not found` });
    }
    assert.deepEqual(await allRows(db, 'categories'), before);
  });

  it('refuses a rename to a taken or blank name and changes nothing', async (t) => {
    const { db, request } = await setup(t);
    await insertCategory(db, { name: 'Soups', type: 'dish' });
    const category = await insertCategory(db, { name: 'Salads', type: 'dish' });
    const before = await allRows(db, 'categories');
    for (const name of ['Soups', ' ']) {
      const response = await request('PUT', `/categories/${category.id}`, { name, type: 'dish' });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), { message: 'Failed to update category' });
    }
    assert.deepEqual(await allRows(db, 'categories'), before);
  });

  it('deletes a category logically with 204', async (t) => {
    const { db, request } = await setup(t);
    const category = await insertCategory(db, { type: 'product' });
    const response = await request('DELETE', `/categories/${category.id}?type=product`);
    assert.equal(response.statusCode, 204);
    assert.equal(response.body, '');
    const [row] = await allRows(db, 'categories');
    assert.equal(row?.is_deleted, 1);
    assert.equal((await request('GET', `/categories/${category.id}?type=product`)).statusCode, 404);
    assert.equal((await request('GET', '/categories?type=product')).statusCode, 204);
  });

  it('refuses to delete a category used by a live record of its type', async (t) => {
    const { db, request } = await setup(t);
    const dishCategory = await insertCategory(db, { type: 'dish' });
    await insertDish(db, { categoryId: dishCategory.id });
    const ingredientCategory = await insertCategory(db, { type: 'ingredient' });
    await insertIngredient(db, { categoryId: ingredientCategory.id });
    const productCategory = await insertCategory(db, { type: 'product' });
    await insertProduct(db, { categoryId: productCategory.id });
    const before = await allRows(db, 'categories');

    for (const category of [dishCategory, ingredientCategory, productCategory]) {
      const response = await request('DELETE', `/categories/${category.id}?type=${category.type}`);
      assert.equal(response.statusCode, 400, category.type);
      assert.deepEqual(response.json(), CANNOT_DELETE);
    }
    assert.deepEqual(await allRows(db, 'categories'), before);
  });

  it('deletes a category whose records are all deleted', async (t) => {
    const { db, request } = await setup(t);
    const category = await insertCategory(db, { type: 'product' });
    await insertProduct(db, { categoryId: category.id, isDeleted: true });
    const response = await request('DELETE', `/categories/${category.id}?type=product`);
    assert.equal(response.statusCode, 204);
  });

  it('refuses to delete a missing, deleted or other-type category', async (t) => {
    const { db, request } = await setup(t);
    const deleted = await insertCategory(db, { type: 'dish', isDeleted: true });
    const dish = await insertCategory(db, { type: 'dish' });
    const before = await allRows(db, 'categories');
    for (const url of [
      `/categories/${UNKNOWN_ID}?type=dish`,
      `/categories/${deleted.id}?type=dish`,
      `/categories/${dish.id}?type=ingredient`,
    ]) {
      const response = await request('DELETE', url);
      assert.equal(response.statusCode, 400, url);
      assert.deepEqual(response.json(), CANNOT_DELETE);
    }
    assert.deepEqual(await allRows(db, 'categories'), before);
  });

  it('refuses a delete with a malformed id or without a valid type', async (t) => {
    const { db, request } = await setup(t);
    const category = await insertCategory(db);
    const before = await allRows(db, 'categories');
    const malformed = await request('DELETE', '/categories/123?type=dish');
    assert.equal(malformed.statusCode, 400);
    assert.equal(malformed.body, 'Missing or malformed ID');
    const untyped = await request('DELETE', `/categories/${category.id}`);
    assert.equal(untyped.statusCode, 400);
    assert.deepEqual(untyped.json(), MALFORMED_TYPE);
    assert.deepEqual(await allRows(db, 'categories'), before);
  });

  it('never leaves a live dish in a deleted category when a delete races dish creates', async (t) => {
    const { app, db, cookies } = await setup(t);
    const category = await insertCategory(db, { type: 'dish' });
    const createDish = {
      method: 'POST',
      url: '/dishes',
      body: { name: 'Flan', price: 40, category_id: category.id },
    };
    const results = await fireConcurrently(app, cookies, [
      ...Array.from({ length: 5 }, () => createDish),
      { method: 'DELETE', url: `/categories/${category.id}?type=dish` },
      ...Array.from({ length: 5 }, () => createDish),
    ]);

    const deleteResult = results[5];
    const created = results.filter((result) => result.status === 201).length;
    const liveDishes = (await allRows(db, 'dishes')).filter((row) => row.is_deleted === 0);
    const [stored] = await allRows(db, 'categories');
    assert.equal(liveDishes.length, created);
    if (deleteResult?.status === 204) {
      assert.equal(stored?.is_deleted, 1);
      assert.equal(created, 0);
    } else {
      assert.equal(deleteResult?.status, 400);
      assert.equal(stored?.is_deleted, 0);
      assert.ok(created > 0);
    }
  });

  it('refuses a dish whose category is deleted while the dish waits for it', {
    skip: target.name !== 'postgres' && 'row locks exist only on PostgreSQL',
  }, async (t) => {
    const { db, databaseUrl, request } = await setup(t);
    const category = await insertCategory(db, { type: 'dish' });
    let pending: ReturnType<typeof request> | undefined;
    await withRowLockHeld(databaseUrl, 'categories', category.id, async (trx, untilSomeoneWaits) => {
      pending = request('POST', '/dishes', { name: 'Flan', price: 40, category_id: category.id });
      await untilSomeoneWaits();
      await trx.updateTable('categories').set({ is_deleted: 1 }).where('id', '=', category.id).execute();
    });
    const response = await pending;
    assert.equal(response?.statusCode, 400);
    assert.deepEqual(response?.json(), { message: 'category_id must name an existing dish category' });
    assert.deepEqual(await allRows(db, 'dishes'), []);
  });

  it('requires a login', async (t) => {
    const { app } = await buildTestApp(t, target);
    const response = await app.inject({ method: 'GET', url: '/categories?type=dish' });
    assert.equal(response.statusCode, 401);
    assert.deepEqual(response.json(), { message: 'Unauthorized', reason: 'missing' });
  });
});
