import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../src/core/db/database';
import { grantedPermissions, isPermission, parsePermissions } from '../src/permissions/permissions';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { databaseDigest } from './helpers/db-digest';
import { insertCategory, insertDish, insertTable, type UserFixture } from './helpers/factories';
import { type Caller, callerFor } from './helpers/orders-factories';

/**
 * What each seeded role may do, written by hand from what a restaurant expects of it
 * (contract-operations.md), never read from the code's tables: a change to the permission table or to
 * a check in a service shows here as a failing cell. `yes`: the action succeeds; `no`: 403
 * `{"message":"Unauthorized API access"}` and nothing stored changes. `admin` shows that every action
 * can succeed, so a refusal is the role's and not a broken request.
 */
const ROLES = ['waiter', 'cashier', 'kitchen', 'manager', 'admin'] as const;
type Role = (typeof ROLES)[number];
const yes = true;
const no = false;

// biome-ignore format: the matrix reads as a table
const MATRIX: Record<string, readonly [waiter: boolean, cashier: boolean, kitchen: boolean, manager: boolean, admin: boolean]> = {
  //                                                  waiter cashier kitchen manager admin
  'cancel an order: DELETE /orders/{id}':               [no,   no,     no,     yes,    yes],
  'cancel an order: PUT /orders/{id} cancelled':        [no,   no,     no,     yes,    yes],
  'cancel a bill: POST /tickets/{id}/cancel':           [no,   yes,    no,     yes,    yes],
  'void a plate: DELETE /orders/{id}/dishes/{dishId}':  [no,   no,     no,     yes,    yes],
  'void a plate: PUT …/dishes/{dishId}/status voided':  [no,   no,     no,     yes,    yes],
  'void a plate: POST …/dishes/{dishId}/void':          [no,   no,     no,     yes,    yes],
  'take back a plate not sent: DELETE …/{dishId}':      [yes,  yes,    no,     yes,    yes],
  'serve a ready plate: POST …/{dishId}/serve':         [yes,  yes,    no,     yes,    yes],
  'serve a ready plate: PUT …/{dishId}/status served':  [no,   no,     yes,    yes,    yes],
  'move a party: POST /orders/{id}/move':               [yes,  yes,    no,     yes,    yes],
  'merge two orders: POST /orders/{id}/merge':          [yes,  yes,    no,     yes,    yes],
  'move plates: POST /orders/{id}/dishes/move':         [yes,  yes,    no,     yes,    yes],
  'discount a bill: POST /orders/{id}/tickets':         [no,   no,     no,     yes,    yes],
  'refund a payment: POST /payments/{id}/refund':       [no,   no,     no,     yes,    yes],
  'override a price: POST /orders/{id}/dishes':         [no,   no,     no,     yes,    yes],
  'read the sales report: GET /reports/sales':          [no,   no,     no,     yes,    yes],
  "read the day's sales: GET /orders/total-sales/{d}":  [no,   no,     no,     yes,    yes],
  'use the wallet: PUT /users/me/wallet-password':      [no,   no,     no,     no,     yes],
  'change the settings: PUT /settings':                 [no,   no,     no,     yes,    yes],
  'manage users: POST /users':                          [no,   no,     no,     no,     yes],
  'manage printers: POST /printers':                    [no,   no,     no,     yes,    yes],
  '86 a dish: PUT /dishes/{id}/availability':           [yes,  yes,    yes,    yes,    yes],
  'edit modifiers: POST /modifier-groups':              [no,   no,     no,     yes,    yes],
  'read the stock: GET /inventory/stock':               [no,   no,     yes,    yes,    yes],
  'read stock movements: GET /inventory/movements':     [no,   no,     yes,    yes,    yes],
  'read the inventory report: GET /reports/inventory':  [no,   no,     yes,    yes,    yes],
  'record a delivery: POST /inventory/movements':       [no,   no,     no,     yes,    yes],
  'record waste: POST /inventory/movements waste':      [no,   no,     no,     yes,    yes],
  'enter a count sheet: POST /inventory/counts':        [no,   no,     no,     yes,    yes],
  'edit the floor: POST /spaces':                       [no,   no,     no,     yes,    yes],
  'split a bill: POST /orders/{id}/tickets':            [yes,  yes,    no,     yes,    yes],
  'take a payment: POST /tickets/{id}/payments':        [yes,  yes,    no,     yes,    yes],
  'add a payment method: POST /payment-methods':        [no,   no,     no,     yes,    yes],
  'manage roles: POST /roles':                          [no,   no,     no,     no,     yes],
  "see another's shifts: GET /shifts?user_id":          [no,   no,     no,     yes,    yes],
  'read the audit log: GET /audit':                     [no,   no,     no,     yes,    yes],
  'read a bill: GET /tickets/{id}':                     [yes,  yes,    no,     yes,    yes],
  'give an order to another waiter: PUT /orders/{id}': [no,   no,     no,     yes,    yes],
};

/** One request of an action, on a state the administrator prepared for it; `status` on success. */
type Action = (
  admin: Caller,
  db: Db,
  actor: UserFixture,
) => Promise<{ method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; body?: unknown; status: number }>;

/** An open order of two dishes at their menu price (12.50 and 7.50), made by the administrator. */
async function openOrder(admin: Caller, db: Db): Promise<{ orderId: string; dishIds: string[] }> {
  const [first, second] = [
    await insertDish(db, { priceCents: 1250 }),
    await insertDish(db, { priceCents: 750 }),
  ];
  const created = await admin('POST', '/orders/with-dishes', {
    order: {},
    dishes: [{ dish_id: first.id }, { dish_id: second.id }],
  });
  assert.equal(created.statusCode, 201, created.body);
  const orderId = created.json().id as string;
  const dishes = (await admin('GET', `/orders/${orderId}/dishes`)).json() as { id: string }[];
  return { orderId, dishIds: dishes.map((dish) => dish.id) };
}

async function sentOrder(admin: Caller, db: Db): Promise<{ orderId: string; dishIds: string[] }> {
  const order = await openOrder(admin, db);
  assert.equal((await admin('POST', `/orders/${order.orderId}/send`)).statusCode, 200);
  return order;
}

/** A sent order whose first plate the kitchen has made ready. */
async function readyOrder(admin: Caller, db: Db): Promise<{ orderId: string; dishIds: string[] }> {
  const order = await sentOrder(admin, db);
  const url = `/orders/${order.orderId}/dishes/${order.dishIds[0]}/status`;
  for (const status of ['preparing', 'ready']) {
    assert.equal((await admin('PUT', url, { status })).statusCode, 200);
  }
  return order;
}

async function billOf(admin: Caller, orderId: string): Promise<string> {
  const bill = await admin('POST', `/orders/${orderId}/tickets`, {});
  assert.equal(bill.statusCode, 201, bill.body);
  return bill.json().id as string;
}

const ACTIONS: Record<keyof typeof MATRIX, Action> = {
  'cancel an order: DELETE /orders/{id}': async (admin, db) => {
    const { orderId } = await openOrder(admin, db);
    return { method: 'DELETE', url: `/orders/${orderId}`, status: 200 };
  },
  'cancel an order: PUT /orders/{id} cancelled': async (admin, db) => {
    const { orderId } = await openOrder(admin, db);
    return { method: 'PUT', url: `/orders/${orderId}`, body: { status: 'cancelled' }, status: 200 };
  },
  'cancel a bill: POST /tickets/{id}/cancel': async (admin, db) => {
    const ticketId = await billOf(admin, (await openOrder(admin, db)).orderId);
    return { method: 'POST', url: `/tickets/${ticketId}/cancel`, status: 200 };
  },
  'void a plate: DELETE /orders/{id}/dishes/{dishId}': async (admin, db) => {
    const { orderId, dishIds } = await sentOrder(admin, db);
    return { method: 'DELETE', url: `/orders/${orderId}/dishes/${dishIds[0]}`, status: 200 };
  },
  'void a plate: PUT …/dishes/{dishId}/status voided': async (admin, db) => {
    const { orderId, dishIds } = await sentOrder(admin, db);
    const url = `/orders/${orderId}/dishes/${dishIds[0]}/status`;
    return { method: 'PUT', url, body: { status: 'voided', reason: 'Dropped on the floor' }, status: 200 };
  },
  'void a plate: POST …/dishes/{dishId}/void': async (admin, db) => {
    const { orderId, dishIds } = await sentOrder(admin, db);
    const url = `/orders/${orderId}/dishes/${dishIds[0]}/void`;
    return { method: 'POST', url, body: { reason: 'Dropped on the floor' }, status: 200 };
  },
  'take back a plate not sent: DELETE …/{dishId}': async (admin, db) => {
    const { orderId, dishIds } = await openOrder(admin, db);
    return { method: 'DELETE', url: `/orders/${orderId}/dishes/${dishIds[0]}`, status: 200 };
  },
  'serve a ready plate: POST …/{dishId}/serve': async (admin, db) => {
    const { orderId, dishIds } = await readyOrder(admin, db);
    return { method: 'POST', url: `/orders/${orderId}/dishes/${dishIds[0]}/serve`, status: 200 };
  },
  'serve a ready plate: PUT …/{dishId}/status served': async (admin, db) => {
    const { orderId, dishIds } = await readyOrder(admin, db);
    const url = `/orders/${orderId}/dishes/${dishIds[0]}/status`;
    return { method: 'PUT', url, body: { status: 'served' }, status: 200 };
  },
  'move a party: POST /orders/{id}/move': async (admin, db) => {
    const { orderId } = await openOrder(admin, db);
    const table = await insertTable(db);
    return { method: 'POST', url: `/orders/${orderId}/move`, body: { table_id: table.id }, status: 200 };
  },
  'merge two orders: POST /orders/{id}/merge': async (admin, db) => {
    const [into, from] = [await openOrder(admin, db), await openOrder(admin, db)];
    const body = { from_order_id: from.orderId };
    return { method: 'POST', url: `/orders/${into.orderId}/merge`, body, status: 200 };
  },
  'move plates: POST /orders/{id}/dishes/move': async (admin, db) => {
    const [from, to] = [await openOrder(admin, db), await openOrder(admin, db)];
    const body = { order_dish_ids: [from.dishIds[0]], to_order_id: to.orderId };
    return { method: 'POST', url: `/orders/${from.orderId}/dishes/move`, body, status: 200 };
  },
  'discount a bill: POST /orders/{id}/tickets': async (admin, db) => {
    const { orderId } = await openOrder(admin, db);
    const body = { discount: { type: 'percent', value: 10, reason: 'Regular' } };
    return { method: 'POST', url: `/orders/${orderId}/tickets`, body, status: 201 };
  },
  'refund a payment: POST /payments/{id}/refund': async (admin, db) => {
    const ticketId = await billOf(admin, (await openOrder(admin, db)).orderId);
    const paid = await admin('POST', `/tickets/${ticketId}/payments`, { method: 'cash', amount: 20 });
    assert.equal(paid.statusCode, 201, paid.body);
    const body = { amount: 5, reason: 'Cold soup' };
    return { method: 'POST', url: `/payments/${paid.json().id}/refund`, body, status: 201 };
  },
  'override a price: POST /orders/{id}/dishes': async (admin, db) => {
    const { orderId } = await openOrder(admin, db);
    const dish = await insertDish(db, { priceCents: 1250 });
    const body = [{ dish_id: dish.id, price_at_order: 0.01 }];
    return { method: 'POST', url: `/orders/${orderId}/dishes`, body, status: 201 };
  },
  'read the sales report: GET /reports/sales': async () => ({
    method: 'GET',
    url: '/reports/sales?from=2026-11-01&to=2026-11-30&group_by=day',
    status: 200,
  }),
  "read the day's sales: GET /orders/total-sales/{d}": async () => ({
    method: 'GET',
    url: '/orders/total-sales/2026-11-22',
    status: 200,
  }),
  'use the wallet: PUT /users/me/wallet-password': async (_admin, _db, actor) => ({
    method: 'PUT',
    url: '/users/me/wallet-password',
    body: { pin: actor.pin, new_password: 'correct horse battery' },
    status: 200,
  }),
  'change the settings: PUT /settings': async () => ({
    method: 'PUT',
    url: '/settings',
    body: { business_name: 'La Esquina' },
    status: 200,
  }),
  'manage users: POST /users': async () => ({
    method: 'POST',
    url: '/users',
    body: { name: `new-${Math.random().toString(36).slice(2, 10)}`, pin: '24680', role: 'waiter' },
    status: 201,
  }),
  'manage printers: POST /printers': async () => ({
    method: 'POST',
    url: '/printers',
    body: { name: `Bar ${Math.random().toString(36).slice(2, 8)}`, host: '192.168.1.60', role: 'receipt' },
    status: 201,
  }),
  '86 a dish: PUT /dishes/{id}/availability': async (_admin, db) => ({
    method: 'PUT',
    url: `/dishes/${(await insertDish(db)).id}/availability`,
    body: { available: false },
    status: 200,
  }),
  'give an order to another waiter: PUT /orders/{id}': async (admin, db) => {
    const { orderId } = await openOrder(admin, db);
    return { method: 'PUT', url: `/orders/${orderId}`, body: { waiter: 'Someone else' }, status: 200 };
  },
  'read a bill: GET /tickets/{id}': async (admin, db) => {
    const { orderId } = await openOrder(admin, db);
    return { method: 'GET', url: `/tickets/${await billOf(admin, orderId)}`, status: 200 };
  },
  'edit modifiers: POST /modifier-groups': async () => ({
    method: 'POST',
    url: '/modifier-groups',
    body: {
      name: `Extras ${Math.random().toString(36).slice(2, 8)}`,
      min_select: 0,
      max_select: 1,
      options: [],
    },
    status: 201,
  }),
  'read the stock: GET /inventory/stock': async (admin, db) => {
    await pantryItem(admin, db);
    return { method: 'GET', url: '/inventory/stock', status: 200 };
  },
  'read stock movements: GET /inventory/movements': async (admin, db) => {
    await pantryItem(admin, db);
    return { method: 'GET', url: '/inventory/movements', status: 200 };
  },
  'read the inventory report: GET /reports/inventory': async () => ({
    method: 'GET',
    url: '/reports/inventory?from=2026-11-01&to=2026-11-30',
    status: 200,
  }),
  'record a delivery: POST /inventory/movements': async (admin, db) => ({
    method: 'POST',
    url: '/inventory/movements',
    body: { item_type: 'ingredient', item_id: await pantryItem(admin, db), delta: 2, reason: 'receiving' },
    status: 201,
  }),
  'record waste: POST /inventory/movements waste': async (admin, db) => ({
    method: 'POST',
    url: '/inventory/movements',
    body: { item_type: 'ingredient', item_id: await pantryItem(admin, db), delta: -1, reason: 'waste' },
    status: 201,
  }),
  'enter a count sheet: POST /inventory/counts': async (admin, db) => ({
    method: 'POST',
    url: '/inventory/counts',
    body: { counts: [{ item_type: 'ingredient', item_id: await pantryItem(admin, db), counted: 3 }] },
    status: 200,
  }),
  'edit the floor: POST /spaces': async () => ({
    method: 'POST',
    url: '/spaces',
    body: { name: `Terrace ${Math.random().toString(36).slice(2, 8)}` },
    status: 201,
  }),
  'split a bill: POST /orders/{id}/tickets': async (admin, db) => {
    const { orderId } = await openOrder(admin, db);
    return { method: 'POST', url: `/orders/${orderId}/tickets`, body: {}, status: 201 };
  },
  'take a payment: POST /tickets/{id}/payments': async (admin, db) => {
    const ticketId = await billOf(admin, (await openOrder(admin, db)).orderId);
    return {
      method: 'POST',
      url: `/tickets/${ticketId}/payments`,
      body: { method: 'cash', amount: 20 },
      status: 201,
    };
  },
  'add a payment method: POST /payment-methods': async () => {
    const code = `voucher_${Math.random().toString(36).slice(2, 8)}`;
    return { method: 'POST', url: '/payment-methods', body: { code, name: 'Voucher' }, status: 201 };
  },
  'manage roles: POST /roles': async () => ({
    method: 'POST',
    url: '/roles',
    body: { name: `bar-${Math.random().toString(36).slice(2, 8)}`, permissions: ['orders.write'] },
    status: 201,
  }),
  "see another's shifts: GET /shifts?user_id": async (admin) => {
    const current = await admin('GET', '/shifts/current');
    const shift =
      current.statusCode === 200 ? current : await admin('POST', '/shifts', { opening_cash: 100 });
    assert.ok([200, 201].includes(shift.statusCode), shift.body);
    return { method: 'GET', url: `/shifts?user_id=${shift.json().user_id}`, status: 200 };
  },
  'read the audit log: GET /audit': async (admin, db) => {
    await openOrder(admin, db).then(({ orderId }) => admin('DELETE', `/orders/${orderId}`));
    return { method: 'GET', url: '/audit', status: 200 };
  },
};

/** An ingredient with stock, made by the administrator; its id. */
async function pantryItem(admin: Caller, db: Db): Promise<string> {
  const pantry = await insertCategory(db, {
    type: 'ingredient',
    name: `Pantry ${Math.random().toString(36).slice(2, 8)}`,
  });
  const created = await admin('POST', '/ingredients', {
    name: `Cheese ${Math.random().toString(36).slice(2, 8)}`,
    category_id: pantry.id,
    quantity: 5,
    unit: 'kg',
  });
  assert.equal(created.statusCode, 201, created.body);
  return created.json().id as string;
}

async function loggedInRoles(app: FastifyInstance, db: Db) {
  const users = {} as Record<Role, { user: UserFixture; call: Caller }>;
  for (const role of ROLES) {
    const { user, cookies } = await loggedInUser(app, db, role);
    users[role] = { user, call: callerFor(app, cookies) };
  }
  return users;
}

describeEachDatabase('permissions', (target) => {
  // One app for the whole matrix: every action prepares rows of its own and the digest is taken
  // around each request, so the rows share the database and the five logins.
  const closers: (() => Promise<void> | void)[] = [];
  after(async () => {
    for (const close of closers) await close();
  });
  let matrixApp: Promise<{ db: Db; users: Awaited<ReturnType<typeof loggedInRoles>> }> | undefined;
  const openMatrixApp = () => {
    matrixApp ??= buildTestApp({ after: (close) => closers.push(close) }, target).then(
      async ({ app, db }) => ({
        db,
        users: await loggedInRoles(app, db),
      }),
    );
    return matrixApp;
  };

  for (const [name, cells] of Object.entries(MATRIX)) {
    it(`${name}: ${ROLES.map((role, index) => `${role} ${cells[index] ? 'yes' : 'no'}`).join(', ')}`, async () => {
      const { db, users } = await openMatrixApp();
      const action = ACTIONS[name] as Action;
      for (const [index, role] of ROLES.entries()) {
        const { user, call } = users[role];
        const request = await action(users.admin.call, db, user);
        const before = await databaseDigest(db);
        const response = await call(request.method, request.url, request.body);
        const cell = `${role}: ${name}`;
        if (cells[index]) {
          assert.equal(response.statusCode, request.status, `${cell}: ${response.body}`);
        } else {
          assert.equal(response.statusCode, 403, `${cell}: ${response.body}`);
          assert.deepEqual(response.json(), { message: 'Unauthorized API access' }, cell);
          assert.equal(await databaseDigest(db), before, `${cell} changed nothing`);
        }
      }
    });
  }

  it('names a known permission on every write route', async (t) => {
    const { app } = await buildTestApp(t, target);
    const document = (await app.inject({ method: 'GET', url: '/swagger/json' })).json();
    let writes = 0;
    for (const [path, methods] of Object.entries(
      document.paths as Record<string, Record<string, { security?: unknown[]; description?: string }>>,
    )) {
      for (const [method, operation] of Object.entries(methods)) {
        const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
        if (isPublic || method === 'get') continue;
        writes += 1;
        const permission = /^Requires the `([^`]+)` permission\./.exec(operation.description ?? '')?.[1];
        assert.ok(permission && isPermission(permission), `${method.toUpperCase()} ${path}: ${permission}`);
      }
    }
    assert.ok(writes > 50, `${writes} write routes`);
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
    // Any user could set a dish's price and read the day's sales before roles.
    for (const permission of ['orders.price_override', 'reports.read'])
      assert.ok(staff.has(permission), permission);
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

async function rolePermissions(db: Db, role: string): Promise<ReadonlySet<string>> {
  const row = await db
    .selectFrom('roles')
    .select('permissions')
    .where('name', '=', role)
    .executeTakeFirstOrThrow();
  return grantedPermissions(role, parsePermissions(row.permissions));
}
