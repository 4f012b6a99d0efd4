import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser, login } from './helpers/auth';
import { insertUser } from './helpers/factories';

describeEachDatabase('users', (target) => {
  it('lets an admin create, list, read, update and delete users', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { user: admin, cookies } = await loggedInUser(app, db, 'admin');
    const headers = { cookie: cookies };

    const created = await app.inject({
      method: 'POST',
      url: '/users',
      headers,
      payload: { name: 'Rosa', pin: '5555' },
    });
    assert.equal(created.statusCode, 201);
    const { id, message } = created.json();
    assert.equal(message, 'User added successfully');

    const list = await app.inject({ method: 'GET', url: '/users', headers });
    assert.deepEqual(
      list
        .json()
        .map((user: { name: string }) => user.name)
        .sort(),
      [admin.name, 'Rosa'].sort(),
    );
    assert.deepEqual((await app.inject({ method: 'GET', url: `/users/${id}`, headers })).json(), {
      id,
      name: 'Rosa',
      role: 'staff',
      is_admin: false,
    });

    const updated = await app.inject({
      method: 'PUT',
      url: `/users/${id}`,
      headers,
      payload: { name: 'Rosa María', pin: '6666', role: 'admin' },
    });
    assert.equal(updated.statusCode, 200);
    assert.deepEqual(updated.json(), { id, message: 'User updated successfully' });
    await login(app, 'Rosa María', '6666');

    const deleted = await app.inject({ method: 'DELETE', url: `/users/${id}`, headers });
    assert.deepEqual(deleted.json(), { id, message: 'User deleted successfully' });
    assert.equal((await app.inject({ method: 'GET', url: `/users/${id}`, headers })).statusCode, 404);
    const row = await db
      .selectFrom('users')
      .select('is_deleted')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(row.is_deleted, 1);
  });

  it("answers the logged-in user with their role's permissions, so screens offer only what is allowed", async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const me = async (role: string) => {
      const { user, cookies } = await loggedInUser(app, db, role);
      const reply = await app.inject({ method: 'GET', url: '/users/me', headers: { cookie: cookies } });
      assert.equal(reply.statusCode, 200);
      assert.equal(reply.json().id, user.id);
      return reply.json().permissions as string[];
    };
    const waiter = await me('waiter');
    assert.deepEqual(waiter, [
      'menu.availability',
      'orders.move',
      'orders.write',
      'payments.take',
      'receipts.print',
      'shifts.use',
      'tickets.write',
    ]);
    const manager = await me('manager');
    assert.ok(manager.includes('tickets.discount') && manager.includes('payments.refund'));
    const admin = await me('admin');
    assert.ok(admin.includes('users.manage') && admin.includes('wallet.use'));
  });

  it('never returns PIN hashes', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const body = (await app.inject({ method: 'GET', url: '/users', headers: { cookie: cookies } })).body;
    assert.doesNotMatch(body, /pin|hash/i);
  });

  it('refuses a duplicate live name, and allows the name of a deleted user', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const headers = { cookie: cookies };
    const taken = await insertUser(db, { name: 'Taken' });
    const duplicate = await app.inject({
      method: 'POST',
      url: '/users',
      headers,
      payload: { name: 'Taken', pin: '1234' },
    });
    assert.equal(duplicate.statusCode, 400);
    assert.deepEqual(duplicate.json(), { message: 'A user with this name already exists' });

    await app.inject({ method: 'DELETE', url: `/users/${taken.id}`, headers });
    const reused = await app.inject({
      method: 'POST',
      url: '/users',
      headers,
      payload: { name: 'Taken', pin: '1234' },
    });
    assert.equal(reused.statusCode, 201);
  });

  it('creates one user when the same name is submitted concurrently', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        app.inject({
          method: 'POST',
          url: '/users',
          headers: { cookie: cookies },
          payload: { name: 'Twin', pin: '1234' },
        }),
      ),
    );
    assert.equal(responses.filter((response) => response.statusCode === 201).length, 1);
    assert.ok(responses.every((response) => [201, 400].includes(response.statusCode)));
    const rows = await db.selectFrom('users').select('id').where('name', '=', 'Twin').execute();
    assert.equal(rows.length, 1);
  });

  it('requires a PIN to rename, because the PIN salt contains the name', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const staff = await insertUser(db, { name: 'Old name' });
    const response = await app.inject({
      method: 'PUT',
      url: `/users/${staff.id}`,
      headers: { cookie: cookies },
      payload: { name: 'New name', role: 'staff' },
    });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), { message: 'A new PIN is required to rename a user' });
    const row = await db
      .selectFrom('users')
      .select('name')
      .where('id', '=', staff.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.name, 'Old name');
  });

  it('never removes or demotes the last admin', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { user: admin, cookies } = await loggedInUser(app, db, 'admin');
    const headers = { cookie: cookies };
    const deleted = await app.inject({ method: 'DELETE', url: `/users/${admin.id}`, headers });
    assert.equal(deleted.statusCode, 400);
    assert.deepEqual(deleted.json(), { message: 'Cannot remove the last admin' });
    const demoted = await app.inject({
      method: 'PUT',
      url: `/users/${admin.id}`,
      headers,
      payload: { name: admin.name, role: 'staff' },
    });
    assert.equal(demoted.statusCode, 400);
    const row = await db
      .selectFrom('users')
      .select(['role', 'is_deleted'])
      .where('id', '=', admin.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { role: 'admin', is_deleted: 0 });
  });

  it('keeps one admin when two admins delete each other at the same time', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const first = await loggedInUser(app, db, 'admin');
    const second = await loggedInUser(app, db, 'admin');
    const responses = await Promise.all([
      app.inject({ method: 'DELETE', url: `/users/${second.user.id}`, headers: { cookie: first.cookies } }),
      app.inject({ method: 'DELETE', url: `/users/${first.user.id}`, headers: { cookie: second.cookies } }),
    ]);
    assert.ok(responses.some((response) => response.statusCode === 200));
    const admins = await db
      .selectFrom('users')
      .select('id')
      .where('role', '=', 'admin')
      .where('is_deleted', '=', 0)
      .execute();
    assert.equal(admins.length, 1);
  });

  it('takes admin rights away at once when an admin is demoted, ending their sessions', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const other = await loggedInUser(app, db, 'admin');
    const listUsers = () => app.inject({ method: 'GET', url: '/users', headers: { cookie: other.cookies } });
    assert.equal((await listUsers()).statusCode, 200);
    const demoted = await app.inject({
      method: 'PUT',
      url: `/users/${other.user.id}`,
      headers: { cookie: cookies },
      payload: { name: other.user.name, role: 'staff' },
    });
    assert.equal(demoted.statusCode, 200);
    const refused = await listUsers();
    assert.equal(refused.statusCode, 401);
    assert.deepEqual(refused.json(), { message: 'Unauthorized', reason: 'revoked' });
    const staffAgain = await login(app, other.user.name, other.user.pin);
    assert.equal(
      (await app.inject({ method: 'GET', url: '/users', headers: { cookie: staffAgain } })).statusCode,
      403,
    );
  });

  it('logs a deleted user out everywhere', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const staff = await loggedInUser(app, db, 'staff');
    await app.inject({ method: 'DELETE', url: `/users/${staff.user.id}`, headers: { cookie: cookies } });
    assert.equal(
      (await app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie: staff.cookies } }))
        .statusCode,
      401,
    );
  });

  it('answers malformed ids, unknown ids and bad bodies with the contract errors', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const headers = { cookie: cookies };
    const malformed = await app.inject({ method: 'GET', url: '/users/not-a-uuid', headers });
    assert.equal(malformed.statusCode, 400);
    assert.equal(malformed.body, 'Missing or malformed ID');
    assert.match(malformed.headers['content-type'] as string, /^text\/plain/);

    const unknown = await app.inject({ method: 'GET', url: `/users/${randomUUID()}`, headers });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.body, 'Resource not found');

    const badPin = await app.inject({
      method: 'POST',
      url: '/users',
      headers,
      payload: { name: 'X', pin: '12ab', role: 'Chef de cuisine!' },
    });
    assert.equal(badPin.statusCode, 400);
    assert.equal(badPin.json().message, 'Validation failed');
    const fields = badPin.json().details.map((detail: { field: string }) => detail.field);
    assert.ok(fields.includes('pin') && fields.includes('role'), JSON.stringify(fields));
    assert.equal((await db.selectFrom('users').select('id').execute()).length, 1);
  });
});
