import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { PRINCIPAL_CACHE_TTL_MS } from '../src/core/principal-cache';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';

type Operation = { method: string; url: string; isPublic: boolean; permission: string | undefined };

/** Every operation the OpenAPI document lists, so routes added later are covered without touching this file. */
async function operations(app: FastifyInstance): Promise<Operation[]> {
  const document = (await app.inject({ method: 'GET', url: '/swagger/json' })).json();
  const list: Operation[] = [];
  for (const [path, methods] of Object.entries(
    document.paths as Record<string, Record<string, { security?: unknown[]; description?: string }>>,
  )) {
    for (const [method, operation] of Object.entries(methods)) {
      list.push({
        method: method.toUpperCase(),
        url: path.replace(/\{[^}]+\}/g, randomUUID()),
        isPublic: Array.isArray(operation.security) && operation.security.length === 0,
        permission: /^Requires the `([^`]+)` permission\./.exec(operation.description ?? '')?.[1],
      });
    }
  }
  return list;
}

const accessCookie = (cookies: string) => /accessToken=([^;]+)/.exec(cookies)?.[1] as string;
const refreshCookie = (cookies: string) => /refreshToken=([^;]+)/.exec(cookies)?.[1] as string;

describeEachDatabase('access control', (target) => {
  it('lists the spec public endpoints as public and everything else as protected', async (t) => {
    const { app } = await buildTestApp(t, target);
    const all = await operations(app);
    const publicOnes = all
      .filter((operation) => operation.isPublic)
      .map((operation) => `${operation.method} ${operation.url}`);
    for (const expected of ['GET /', 'GET /base-currency', 'POST /auth/login', 'POST /initial-setup']) {
      assert.ok(publicOnes.includes(expected), `${expected} is public`);
    }
    assert.ok(all.some((operation) => !operation.isPublic && operation.url.startsWith('/users')));
  });

  it('rejects a missing, expired, forged or wrong-kind token on every protected route with 401', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const validAccess = accessCookie(cookies);
    const forgedSignature = `${validAccess.slice(0, validAccess.lastIndexOf('.'))}.${'A'.repeat(43)}`;
    const otherKeyToken = await new SignJWT({ typ: 'access', sid: randomUUID() })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(randomUUID())
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('some-other-secret-that-is-long-enough'));
    const variants: Record<string, [cookie: string, reason: string]> = {
      'no token': ['', 'missing'],
      'forged signature': [`accessToken=${forgedSignature}`, 'invalid'],
      'signed with another key': [`accessToken=${otherKeyToken}`, 'invalid'],
      'refresh token as access token': [`accessToken=${refreshCookie(cookies)}`, 'invalid'],
      garbage: ['accessToken=not-a-jwt', 'invalid'],
    };

    const protectedOperations = (await operations(app)).filter((operation) => !operation.isPublic);
    assert.ok(protectedOperations.length > 0);
    for (const operation of protectedOperations) {
      for (const [variant, [cookie, reason]] of Object.entries(variants)) {
        const response = await app.inject({
          method: operation.method as 'GET',
          url: operation.url,
          headers: { cookie },
        });
        assert.equal(response.statusCode, 401, `${operation.method} ${operation.url} with ${variant}`);
        assert.deepEqual(response.json(), { message: 'Unauthorized', reason });
      }
    }

    clock.advance(61_000);
    for (const operation of protectedOperations) {
      const response = await app.inject({
        method: operation.method as 'GET',
        url: operation.url,
        headers: { cookie: cookies },
      });
      assert.equal(response.statusCode, 401, `${operation.method} ${operation.url} with an expired token`);
      assert.deepEqual(response.json(), { message: 'Unauthorized', reason: 'expired' });
    }
  });

  // This checks that the document tells the truth about the guard, not that the permissions are right:
  // both come from one table. What each role may do is written by hand in permissions.test.ts.
  it('answers 403 to staff on every route whose OpenAPI description names a permission staff lacks', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'staff');
    const staff = await db
      .selectFrom('roles')
      .select('permissions')
      .where('name', '=', 'staff')
      .executeTakeFirstOrThrow();
    const staffHolds = new Set(JSON.parse(staff.permissions) as string[]);
    const adminOperations = (await operations(app)).filter(
      (operation) => operation.permission !== undefined && !staffHolds.has(operation.permission),
    );
    assert.ok(adminOperations.some((operation) => operation.url === '/users'));
    for (const operation of adminOperations) {
      const response = await app.inject({
        method: operation.method as 'GET',
        url: operation.url,
        headers: { cookie: cookies },
      });
      assert.equal(response.statusCode, 403, `${operation.method} ${operation.url}`);
      assert.deepEqual(response.json(), { message: 'Unauthorized API access' });
    }
  });

  it('refuses a user deleted by another instance within a second, even with an unexpired access token', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const { user, cookies } = await loggedInUser(app, db, 'staff');
    const me = () => app.inject({ method: 'GET', url: '/users/me', headers: { cookie: cookies } });
    assert.equal((await me()).statusCode, 200);
    // Written straight to the database, as another instance sharing it would.
    await db.updateTable('users').set({ is_deleted: 1 }).where('id', '=', user.id).execute();
    clock.advance(PRINCIPAL_CACHE_TTL_MS);
    assert.equal((await me()).statusCode, 401);
  });
});
