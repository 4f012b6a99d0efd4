import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { insertSpace, insertTable } from './helpers/factories';
import { allRows, asUser, fireConcurrently, withRowLockHeld } from './helpers/menu-factories';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describeEachDatabase('spaces', (target) => {
  async function setup(t: Parameters<typeof buildTestApp>[0]) {
    const testApp = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(testApp.app, testApp.db, 'staff');
    return { ...testApp, cookies, request: asUser(testApp.app, cookies) };
  }

  it('creates a space and shows it', async (t) => {
    const { db, request } = await setup(t);
    const response = await request('POST', '/spaces', { name: ' Terrace ' });
    assert.equal(response.statusCode, 201);
    const { id, message } = response.json();
    assert.equal(message, 'Space added successfully');
    const [row] = await allRows(db, 'spaces');
    assert.deepEqual(
      { id: row?.id, name: row?.name, is_deleted: row?.is_deleted },
      { id, name: 'Terrace', is_deleted: 0 },
    );
    const shown = await request('GET', `/spaces/${id}`);
    assert.equal(shown.statusCode, 200);
    assert.deepEqual(shown.json(), { id, name: 'Terrace' });
  });

  it('lists live spaces by name and answers 204 when there are none', async (t) => {
    const { db, request } = await setup(t);
    const empty = await request('GET', '/spaces');
    assert.equal(empty.statusCode, 204);
    assert.equal(empty.body, '');
    const terrace = await insertSpace(db, { name: 'Terrace' });
    const bar = await insertSpace(db, { name: 'Bar' });
    const gone = await insertSpace(db, { name: 'Attic' });
    await request('DELETE', `/spaces/${gone.id}`);
    const listed = await request('GET', '/spaces');
    assert.equal(listed.statusCode, 200);
    assert.deepEqual(listed.json(), [
      { id: bar.id, name: 'Bar' },
      { id: terrace.id, name: 'Terrace' },
    ]);
  });

  it('refuses a space without a usable name and stores nothing', async (t) => {
    const { db, request } = await setup(t);
    for (const body of [{}, { name: '' }, { name: '  ' }, { name: 7 }]) {
      const response = await request('POST', '/spaces', body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      assert.equal(response.json().message, 'Validation failed');
      assert.equal(response.json().details[0].field, 'name');
    }
    assert.deepEqual(await allRows(db, 'spaces'), []);
  });

  it('renames a space', async (t) => {
    const { db, request } = await setup(t);
    const space = await insertSpace(db, { name: 'Patio' });
    const response = await request('PUT', `/spaces/${space.id}`, { name: 'Garden' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { id: space.id, message: 'Space updated successfully' });
    assert.equal((await allRows(db, 'spaces'))[0]?.name, 'Garden');

    const before = await allRows(db, 'spaces');
    const blank = await request('PUT', `/spaces/${space.id}`, { name: '' });
    assert.equal(blank.statusCode, 400);
    assert.deepEqual(await allRows(db, 'spaces'), before);
  });

  it('answers unknown, deleted and malformed space ids with the bare texts', async (t) => {
    const { db, request } = await setup(t);
    const deleted = await insertSpace(db);
    await request('DELETE', `/spaces/${deleted.id}`);
    const before = await allRows(db, 'spaces');
    for (const [method, payload] of [['GET'], ['PUT', { name: 'X' }], ['DELETE']] as const) {
      for (const id of [UNKNOWN_ID, deleted.id]) {
        const missing = await request(method, `/spaces/${id}`, payload);
        assert.equal(missing.statusCode, 404, method);
        assert.equal(missing.body, 'Resource not found');
      }
      const malformed = await request(method, '/spaces/12', payload);
      assert.equal(malformed.statusCode, 400, method);
      assert.equal(malformed.body, 'Missing or malformed ID');
    }
    assert.deepEqual(await allRows(db, 'spaces'), before);
  });

  it('deletes an empty space logically', async (t) => {
    const { db, request } = await setup(t);
    const space = await insertSpace(db);
    const response = await request('DELETE', `/spaces/${space.id}`);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { id: space.id, message: 'Space deleted successfully' });
    assert.equal((await allRows(db, 'spaces'))[0]?.is_deleted, 1);
  });

  it('refuses to delete a space that has live tables', async (t) => {
    const { db, request } = await setup(t);
    const space = await insertSpace(db);
    await insertTable(db, { spaceId: space.id });
    const before = await allRows(db, 'spaces');
    const response = await request('DELETE', `/spaces/${space.id}`);
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), { message: 'Cannot delete space - it has tables' });
    assert.deepEqual(await allRows(db, 'spaces'), before);
  });

  it('deletes a space whose tables are all deleted', async (t) => {
    const { db, request } = await setup(t);
    const space = await insertSpace(db);
    const table = await insertTable(db, { spaceId: space.id });
    assert.equal((await request('DELETE', `/tables/${table.id}`)).statusCode, 200);
    assert.equal((await request('DELETE', `/spaces/${space.id}`)).statusCode, 200);
  });

  it('never leaves a live table in a deleted space when a delete races table creates', async (t) => {
    const { app, db, cookies } = await setup(t);
    const space = await insertSpace(db);
    const createTable = { method: 'POST', url: '/tables', body: { name: 'T', space_id: space.id } };
    const results = await fireConcurrently(app, cookies, [
      ...Array.from({ length: 5 }, () => createTable),
      { method: 'DELETE', url: `/spaces/${space.id}` },
      ...Array.from({ length: 5 }, () => createTable),
    ]);
    const deleteResult = results[5];
    const created = results.filter((result) => result.status === 201).length;
    const liveTables = (await allRows(db, 'dining_tables')).filter((row) => row.is_deleted === 0);
    const [stored] = await allRows(db, 'spaces');
    assert.equal(liveTables.length, created);
    if (deleteResult?.status === 200) {
      assert.equal(stored?.is_deleted, 1);
      assert.equal(created, 0);
    } else {
      assert.equal(deleteResult?.status, 400);
      assert.equal(stored?.is_deleted, 0);
      assert.ok(created > 0);
    }
  });

  it('refuses a table whose space is deleted while the table waits for it', {
    skip: target.name !== 'postgres' && 'row locks exist only on PostgreSQL',
  }, async (t) => {
    const { db, databaseUrl, request } = await setup(t);
    const space = await insertSpace(db);
    let pending: ReturnType<typeof request> | undefined;
    await withRowLockHeld(databaseUrl, 'spaces', space.id, async (trx, untilSomeoneWaits) => {
      pending = request('POST', '/tables', { name: 'T1', space_id: space.id });
      await untilSomeoneWaits();
      await trx.updateTable('spaces').set({ is_deleted: 1 }).where('id', '=', space.id).execute();
    });
    const response = await pending;
    assert.equal(response?.statusCode, 400);
    assert.deepEqual(response?.json(), { message: 'space_id must name an existing space' });
    assert.deepEqual(await allRows(db, 'dining_tables'), []);
  });

  it('requires a login', async (t) => {
    const { app } = await buildTestApp(t, target);
    assert.equal((await app.inject({ method: 'GET', url: '/spaces' })).statusCode, 401);
    assert.equal(
      (await app.inject({ method: 'POST', url: '/spaces', payload: { name: 'X' } })).statusCode,
      401,
    );
  });
});
