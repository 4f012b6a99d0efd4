import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../src/core/db/database';
import { grantedPermissions, isPermission, parsePermissions } from '../src/roles/permissions';
import { ROUTE_PERMISSIONS } from '../src/roles/route-permissions';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';

const SEEDED_ROLES = ['admin', 'manager', 'cashier', 'waiter', 'kitchen', 'staff'];

type Route = {
  method: string;
  path: string;
  operationId: string;
  permission: string | undefined;
  hasBody: boolean;
};

/** The route table as the OpenAPI document shows it: every protected operation and its permission. */
async function protectedRoutes(app: FastifyInstance): Promise<Route[]> {
  const document = (await app.inject({ method: 'GET', url: '/swagger/json' })).json();
  const routes: Route[] = [];
  for (const [path, methods] of Object.entries(
    document.paths as Record<
      string,
      Record<
        string,
        {
          operationId: string;
          security?: unknown[];
          description?: string;
          requestBody?: unknown;
          responses?: Record<string, { content?: Record<string, unknown> }>;
        }
      >
    >,
  )) {
    for (const [method, operation] of Object.entries(methods)) {
      if (Array.isArray(operation.security) && operation.security.length === 0) continue;
      // A stream answers by staying open; any signed-in user may open it (test/events-stream.test.ts).
      if (operation.responses?.['200']?.content?.['text/event-stream']) continue;
      routes.push({
        method: method.toUpperCase(),
        path,
        operationId: operation.operationId,
        permission: /^Requires the `([^`]+)` permission\./.exec(operation.description ?? '')?.[1],
        hasBody: operation.requestBody !== undefined,
      });
    }
  }
  return routes;
}

async function rolePermissions(db: Db, role: string): Promise<ReadonlySet<string>> {
  const row = await db
    .selectFrom('roles')
    .select('permissions')
    .where('name', '=', role)
    .executeTakeFirstOrThrow();
  return grantedPermissions(role, parsePermissions(row.permissions));
}

describeEachDatabase('permissions', (target) => {
  it('names a known permission on every write route, as the table says', async (t) => {
    const { app } = await buildTestApp(t, target);
    const routes = await protectedRoutes(app);
    assert.ok(routes.length > 50, `${routes.length} routes`);
    for (const route of routes) {
      const name = `${route.method} ${route.path}`;
      if (route.method !== 'GET') assert.ok(route.permission, `${name} names its permission`);
      if (route.permission) assert.ok(isPermission(route.permission), `${name}: ${route.permission}`);
      const tabled = ROUTE_PERMISSIONS[route.operationId];
      if (tabled) assert.equal(route.permission, tabled, name);
    }
  });

  it('answers 403 to each seeded role exactly on the routes whose permission it lacks', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const routes = await protectedRoutes(app);
    for (const role of SEEDED_ROLES) {
      const { cookies } = await loggedInUser(app, db, role);
      const holds = await rolePermissions(db, role);
      for (const route of routes) {
        const response = await app.inject({
          method: route.method as 'GET',
          url: route.path.replace(/\{[^}]+\}/g, randomUUID()),
          headers: { cookie: cookies },
          ...(route.hasBody && { payload: {} }),
        });
        const isRefused = route.permission !== undefined && !holds.has(route.permission);
        const name = `${role}: ${route.method} ${route.path} (${route.permission ?? 'any user'})`;
        if (isRefused) {
          assert.equal(response.statusCode, 403, name);
          assert.deepEqual(response.json(), { message: 'Unauthorized API access' }, name);
        } else {
          assert.notEqual(response.statusCode, 403, `${name}: ${response.body}`);
        }
      }
    }
  });

  it('lets the kitchen write nothing but dish statuses, and the admin everything', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const kitchen = await rolePermissions(db, 'kitchen');
    assert.deepEqual([...kitchen], ['kitchen.advance']);
    const writes = (await protectedRoutes(app)).filter((route) => route.method !== 'GET');
    const kitchenWrites = writes.filter((route) => route.permission && kitchen.has(route.permission));
    assert.ok(kitchenWrites.every((route) => route.permission === 'kitchen.advance'));
    const admin = await rolePermissions(db, 'admin');
    assert.ok(writes.every((route) => route.permission && admin.has(route.permission)));
  });

  it('keeps staff able to do what any signed-in user did before roles, and nothing admin-only', async (t) => {
    const { db } = await buildTestApp(t, target);
    const staff = await rolePermissions(db, 'staff');
    for (const permission of ['menu.write', 'floor.write', 'orders.write', 'orders.cancel', 'dishes.void']) {
      assert.ok(staff.has(permission), permission);
    }
    for (const permission of ['tickets.write', 'tickets.cancel', 'payments.take', 'kitchen.advance']) {
      assert.ok(staff.has(permission), permission);
    }
    for (const permission of [
      'users.manage',
      'roles.manage',
      'settings.write',
      'payments.refund',
      'payment_methods.manage',
      'wallet.use',
      'tickets.discount',
    ]) {
      assert.ok(!staff.has(permission), permission);
    }
  });
});
