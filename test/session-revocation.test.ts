import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser, login } from './helpers/auth';

const me = (app: FastifyInstance, cookie: string) => app.inject({ url: '/users/me', headers: { cookie } });
const refresh = (app: FastifyInstance, cookie: string) =>
  app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie } });
const update = (app: FastifyInstance, cookie: string, id: string, payload: object) =>
  app.inject({ method: 'PUT', url: `/users/${id}`, headers: { cookie }, payload });

describeEachDatabase('session revocation on user changes', (target) => {
  it('ends every session of a user whose PIN an admin changes, at once', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const admin = await loggedInUser(app, db, 'admin');
    const staff = await loggedInUser(app, db, 'staff');
    const otherTablet = await login(app, staff.user.name, staff.user.pin);
    assert.equal((await me(app, staff.cookies)).statusCode, 200, 'the session is cached as live');

    const changed = await update(app, admin.cookies, staff.user.id, {
      name: staff.user.name,
      pin: '8642',
      role: 'staff',
    });
    assert.equal(changed.statusCode, 200, changed.body);
    for (const cookies of [staff.cookies, otherTablet]) {
      assert.deepEqual((await me(app, cookies)).json(), { message: 'Unauthorized', reason: 'revoked' });
      assert.equal((await refresh(app, cookies)).statusCode, 401);
    }
    const live = await db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', staff.user.id)
      .where('revoked_at', 'is', null)
      .execute();
    assert.deepEqual(live, []);
    assert.equal((await me(app, admin.cookies)).statusCode, 200, 'the admin making the change stays in');
    await login(app, staff.user.name, '8642');
  });

  it("keeps the caller's session when admins change their own PIN, and ends their others", async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const admin = await loggedInUser(app, db, 'admin');
    const otherDevice = await login(app, admin.user.name, admin.user.pin);
    const changed = await update(app, admin.cookies, admin.user.id, {
      name: admin.user.name,
      pin: '7531',
      role: 'admin',
    });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal((await me(app, admin.cookies)).statusCode, 200);
    assert.equal((await refresh(app, admin.cookies)).statusCode, 200);
    assert.deepEqual((await me(app, otherDevice)).json(), { message: 'Unauthorized', reason: 'revoked' });
  });

  it('ends the sessions of a user whose role changes', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const admin = await loggedInUser(app, db, 'admin');
    const staff = await loggedInUser(app, db, 'staff');
    const promoted = await update(app, admin.cookies, staff.user.id, {
      name: staff.user.name,
      role: 'admin',
    });
    assert.equal(promoted.statusCode, 200, promoted.body);
    assert.equal((await me(app, staff.cookies)).statusCode, 401);
    assert.equal((await refresh(app, staff.cookies)).statusCode, 401);
  });

  it('keeps the sessions when neither PIN nor role changes', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const admin = await loggedInUser(app, db, 'admin');
    const staff = await loggedInUser(app, db, 'staff');
    const unchanged = await update(app, admin.cookies, staff.user.id, {
      name: staff.user.name,
      role: 'staff',
    });
    assert.equal(unchanged.statusCode, 200, unchanged.body);
    assert.equal((await me(app, staff.cookies)).statusCode, 200);
  });
});
