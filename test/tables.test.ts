import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { insertOrder, insertSpace, insertTable } from './helpers/factories';
import { allRows, asUser } from './helpers/menu-factories';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describeEachDatabase('tables', (target) => {
  async function setup(t: Parameters<typeof buildTestApp>[0]) {
    const testApp = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(testApp.app, testApp.db, 'staff');
    return { ...testApp, cookies, request: asUser(testApp.app, cookies) };
  }

  it('creates an available table by default and shows it', async (t) => {
    const { db, request } = await setup(t);
    const space = await insertSpace(db);
    const response = await request('POST', '/tables', { name: 'T1', space_id: space.id });
    assert.equal(response.statusCode, 201);
    const { id, message } = response.json();
    assert.equal(message, 'Table added successfully');
    const view = { id, name: 'T1', status: 'available', space_id: space.id, order_id: null };
    const [row] = await allRows(db, 'dining_tables');
    assert.deepEqual(
      { id: row?.id, name: row?.name, status: row?.status, space_id: row?.space_id, order_id: row?.order_id },
      view,
    );
    const shown = await request('GET', `/tables/${id}`);
    assert.equal(shown.statusCode, 200);
    assert.deepEqual(shown.json(), view);
  });

  it('creates a table with the status and null order it is given', async (t) => {
    const { db, request } = await setup(t);
    const space = await insertSpace(db);
    const response = await request('POST', '/tables', {
      name: 'T2',
      status: 'reserved',
      space_id: space.id,
      order_id: null,
    });
    assert.equal(response.statusCode, 201);
    assert.equal((await allRows(db, 'dining_tables'))[0]?.status, 'reserved');
  });

  it('refuses a table whose space is missing or deleted, or whose body is malformed', async (t) => {
    const { db, request } = await setup(t);
    const deleted = await insertSpace(db);
    await request('DELETE', `/spaces/${deleted.id}`);
    for (const spaceId of [UNKNOWN_ID, deleted.id]) {
      const response = await request('POST', '/tables', { name: 'T', space_id: spaceId });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), { message: 'space_id must name an existing space' });
    }
    const space = await insertSpace(db);
    for (const [body, field] of [
      [{ name: 'T', space_id: space.id, status: 'dirty' }, 'status'],
      [{ name: 'T', space_id: 'nope' }, 'space_id'],
      [{ space_id: space.id }, 'name'],
      [{ name: 'T', space_id: space.id, order_id: 'nope' }, 'order_id'],
    ] as const) {
      const response = await request('POST', '/tables', body);
      assert.equal(response.statusCode, 400, field);
      assert.equal(response.json().message, 'Validation failed');
      assert.ok(
        response.json().details.some((detail: { field: string }) => detail.field === field),
        JSON.stringify(response.json()),
      );
    }
    assert.deepEqual(await allRows(db, 'dining_tables'), []);
  });

  it('refuses a new table pointing at an unknown or unrelated order', async (t) => {
    const { db, request } = await setup(t);
    const space = await insertSpace(db);
    const order = await insertOrder(db);
    const unknown = await request('POST', '/tables', { name: 'T', space_id: space.id, order_id: UNKNOWN_ID });
    assert.equal(unknown.statusCode, 400);
    assert.deepEqual(unknown.json(), { message: 'order_id must name an existing order' });
    const unrelated = await request('POST', '/tables', { name: 'T', space_id: space.id, order_id: order.id });
    assert.equal(unrelated.statusCode, 400);
    assert.deepEqual(unrelated.json(), {
      message: 'order_id must be null or the active order of this table',
    });
    assert.deepEqual(await allRows(db, 'dining_tables'), []);
  });

  it('lists live tables and the tables of one space, 204 when none', async (t) => {
    const { db, request } = await setup(t);
    assert.equal((await request('GET', '/tables')).statusCode, 204);
    const terrace = await insertSpace(db);
    const bar = await insertSpace(db);
    const emptyRoom = await insertSpace(db);
    const t1 = await insertTable(db, { name: 'T1', spaceId: terrace.id });
    const b1 = await insertTable(db, { name: 'B1', spaceId: bar.id });
    const gone = await insertTable(db, { name: 'A0', spaceId: terrace.id });
    await request('DELETE', `/tables/${gone.id}`);

    const all = await request('GET', '/tables');
    assert.equal(all.statusCode, 200);
    assert.deepEqual(all.json(), [
      { id: b1.id, name: 'B1', status: 'available', space_id: bar.id, order_id: null },
      { id: t1.id, name: 'T1', status: 'available', space_id: terrace.id, order_id: null },
    ]);
    const ofTerrace = await request('GET', `/tables/by-space/${terrace.id}`);
    assert.deepEqual(
      ofTerrace.json().map((table: { id: string }) => table.id),
      [t1.id],
    );
    const none = await request('GET', `/tables/by-space/${emptyRoom.id}`);
    assert.equal(none.statusCode, 204);
    assert.equal(none.body, '');
  });

  it('answers tables of an unknown or malformed space with the bare texts', async (t) => {
    const { request } = await setup(t);
    const unknown = await request('GET', `/tables/by-space/${UNKNOWN_ID}`);
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.body, 'Resource not found');
    const malformed = await request('GET', '/tables/by-space/x');
    assert.equal(malformed.statusCode, 400);
    assert.equal(malformed.body, 'Missing or malformed ID');
  });

  it('answers unknown, deleted and malformed table ids with the bare texts', async (t) => {
    const { db, request } = await setup(t);
    const space = await insertSpace(db);
    const deleted = await insertTable(db, { spaceId: space.id });
    await request('DELETE', `/tables/${deleted.id}`);
    const before = await allRows(db, 'dining_tables');
    const body = { name: 'T', space_id: space.id };
    for (const [method, payload] of [['GET'], ['PUT', body], ['DELETE']] as const) {
      for (const id of [UNKNOWN_ID, deleted.id]) {
        const missing = await request(method, `/tables/${id}`, payload);
        assert.equal(missing.statusCode, 404, method);
        assert.equal(missing.body, 'Resource not found');
      }
      const malformed = await request(method, '/tables/1', payload);
      assert.equal(malformed.statusCode, 400, method);
      assert.equal(malformed.body, 'Missing or malformed ID');
    }
    assert.deepEqual(await allRows(db, 'dining_tables'), before);
  });

  it('updates a table, keeping status and order when they are omitted', async (t) => {
    const { db, request } = await setup(t);
    const space = await insertSpace(db);
    const patio = await insertSpace(db);
    const table = await insertTable(db, { spaceId: space.id, status: 'reserved' });
    const response = await request('PUT', `/tables/${table.id}`, { name: 'P1', space_id: patio.id });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { id: table.id, message: 'Table updated successfully' });
    const shown = (await request('GET', `/tables/${table.id}`)).json();
    assert.deepEqual(shown, {
      id: table.id,
      name: 'P1',
      status: 'reserved',
      space_id: patio.id,
      order_id: null,
    });

    const freed = await request('PUT', `/tables/${table.id}`, {
      name: 'P1',
      space_id: patio.id,
      status: 'available',
    });
    assert.equal(freed.statusCode, 200);
    assert.equal((await allRows(db, 'dining_tables'))[0]?.status, 'available');
  });

  it('refuses to move a table into a missing space', async (t) => {
    const { db, request } = await setup(t);
    const table = await insertTable(db);
    const before = await allRows(db, 'dining_tables');
    const response = await request('PUT', `/tables/${table.id}`, { name: 'T', space_id: UNKNOWN_ID });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), { message: 'space_id must name an existing space' });
    assert.deepEqual(await allRows(db, 'dining_tables'), before);
  });

  it('keeps a table with an active order occupied and bound to that order', async (t) => {
    const { db, request } = await setup(t);
    const table = await insertTable(db);
    const order = await insertOrder(db, { tableId: table.id, status: 'preparing' });
    const other = await insertOrder(db, { status: 'completed' });
    const before = await allRows(db, 'dining_tables');
    const base = { name: 'T', space_id: table.spaceId };
    for (const [change, message] of [
      [{ status: 'available' }, 'Cannot change status - the table has an active order'],
      [{ status: 'reserved', order_id: order.id }, 'Cannot change status - the table has an active order'],
      [{ order_id: null }, 'Cannot change order_id - the table has an active order'],
      [{ order_id: other.id }, 'Cannot change order_id - the table has an active order'],
    ] as const) {
      const response = await request('PUT', `/tables/${table.id}`, { ...base, ...change });
      assert.equal(response.statusCode, 400, JSON.stringify(change));
      assert.deepEqual(response.json(), { message });
    }
    assert.deepEqual(await allRows(db, 'dining_tables'), before);

    const renamed = await request('PUT', `/tables/${table.id}`, {
      ...base,
      name: 'Window',
      status: 'occupied',
      order_id: order.id,
    });
    assert.equal(renamed.statusCode, 200);
    const [row] = await allRows(db, 'dining_tables');
    assert.deepEqual([row?.name, row?.status, row?.order_id], ['Window', 'occupied', order.id]);
  });

  it('refuses to bind a free table to an order that is not active on it', async (t) => {
    const { db, request } = await setup(t);
    const table = await insertTable(db);
    const finished = await insertOrder(db, { tableId: table.id, status: 'completed' });
    const before = await allRows(db, 'dining_tables');
    const base = { name: 'T', space_id: table.spaceId };
    const unrelated = await request('PUT', `/tables/${table.id}`, { ...base, order_id: finished.id });
    assert.equal(unrelated.statusCode, 400);
    assert.deepEqual(unrelated.json(), {
      message: 'order_id must be null or the active order of this table',
    });
    const unknown = await request('PUT', `/tables/${table.id}`, { ...base, order_id: UNKNOWN_ID });
    assert.equal(unknown.statusCode, 400);
    assert.deepEqual(unknown.json(), { message: 'order_id must name an existing order' });
    assert.deepEqual(await allRows(db, 'dining_tables'), before);
  });

  it('deletes a table logically', async (t) => {
    const { db, request } = await setup(t);
    const table = await insertTable(db);
    await insertOrder(db, { tableId: table.id, status: 'cancelled' });
    const response = await request('DELETE', `/tables/${table.id}`);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { id: table.id, message: 'Table deleted successfully' });
    assert.equal((await allRows(db, 'dining_tables'))[0]?.is_deleted, 1);
    assert.equal((await request('GET', `/tables/${table.id}`)).statusCode, 404);
  });

  for (const status of ['pending', 'preparing', 'ready'] as const) {
    it(`refuses to delete a table with a ${status} order`, async (t) => {
      const { db, request } = await setup(t);
      const table = await insertTable(db);
      await insertOrder(db, { tableId: table.id, status });
      const before = await allRows(db, 'dining_tables');
      const response = await request('DELETE', `/tables/${table.id}`);
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), { message: 'Cannot delete table - it has an active order' });
      assert.deepEqual(await allRows(db, 'dining_tables'), before);
    });
  }

  it('finds the active order in the orders even when the table row forgot it', async (t) => {
    const { db, request } = await setup(t);
    const table = await insertTable(db);
    await insertOrder(db, { tableId: table.id, status: 'pending' });
    await db.updateTable('dining_tables').set({ status: 'available', order_id: null }).execute();
    const before = await allRows(db, 'dining_tables');
    const response = await request('DELETE', `/tables/${table.id}`);
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), { message: 'Cannot delete table - it has an active order' });
    assert.deepEqual(await allRows(db, 'dining_tables'), before);
  });

  it('requires a login', async (t) => {
    const { app } = await buildTestApp(t, target);
    assert.equal((await app.inject({ method: 'GET', url: '/tables' })).statusCode, 401);
    assert.equal((await app.inject({ method: 'DELETE', url: `/tables/${UNKNOWN_ID}` })).statusCode, 401);
  });
});
