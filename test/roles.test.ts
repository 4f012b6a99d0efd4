import assert from 'node:assert/strict';
import { it } from 'node:test';
import { PERMISSIONS } from '../src/permissions/permissions';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser, login } from './helpers/auth';
import { billableOrder, createBill } from './helpers/checkout-factories';
import { databaseDigest } from './helpers/db-digest';
import { callerFor } from './helpers/orders-factories';

const REFUSED = { message: 'Unauthorized API access' };

/**
 * What `GET /permissions` must answer, written out by hand rather than read from the table it serves:
 * a permission added, dropped, renamed, reordered or described differently shows here.
 */
const EXPECTED_PERMISSIONS = [
  ['menu.write', 'Create, edit and delete categories, dishes, ingredients and products'],
  ['menu.availability', 'Mark dishes available or sold out (the kitchen\'s "86")'],
  ['floor.write', 'Create, edit and delete spaces and tables'],
  ['orders.write', 'Open orders, edit them and add or change their dishes'],
  ['orders.cancel', 'Cancel or delete orders'],
  ['orders.price_override', "Charge a dish at a price other than the menu's"],
  ['orders.move', 'Move a party between tables, merge tables and move plates between orders'],
  ['orders.reassign', 'Give an order to another waiter, with its sale and tips'],
  ['dishes.void', 'Remove dishes from an order'],
  ['kitchen.advance', 'Move dishes through the kitchen statuses'],
  ['tickets.write', 'Split orders into bills'],
  ['tickets.discount', 'Give a discount on a bill'],
  ['tickets.cancel', 'Cancel a bill'],
  ['payments.take', 'Record payments and request Lightning payments'],
  ['payments.refund', 'Refund payments'],
  ['payment_methods.manage', 'Create and edit payment methods'],
  ['users.manage', 'List, create, edit and delete users'],
  ['roles.manage', 'Create, edit and delete roles'],
  ['settings.write', 'Change the business settings'],
  ['shifts.use', 'Open and close their own shift and record cash movements'],
  ['shifts.manage', 'See and close the shifts of every user'],
  ['reports.read', 'Read sales reports'],
  ['inventory.read', 'See stock, its movements, low stock and the inventory report'],
  ['inventory.write', 'Receive deliveries, record waste and adjustments, and enter stock counts'],
  ['audit.read', 'Read and verify the audit log'],
  ['audit.acknowledge', 'Acknowledge a break found in the audit log, so verifying passes again'],
  ['wallet.use', "Use the restaurant's Lightning wallet"],
  ['webhooks.manage', 'Create, edit and delete webhooks'],
  ['printers.manage', 'Create, edit and delete printers'],
  ['receipts.print', 'Print receipts and kitchen chits'],
  ['invoices.write', "Invoice a paid bill to a guest's RFC and issue the global invoice"],
  ['invoices.cancel', 'Cancel e-invoices (CFDI) with the SAT’s motive'],
  ['channels.read', 'See the delivery apps: their orders, state and last error'],
  ['channels.write', 'Pause the delivery apps, publish the menu to them and change their settings'],
  ['display.view', 'Be a customer display: pair to a till and show the bill it is taking payment for'],
].map(([name, description]) => ({ name, description }));

describeEachDatabase('roles', (target) => {
  it('lists every permission with its description, to any signed-in user', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const kitchen = callerFor(app, (await loggedInUser(app, db, 'kitchen')).cookies);
    const response = await kitchen('GET', '/permissions');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), EXPECTED_PERMISSIONS);
  });

  it('creates a role, gives it to a user, and applies its edit from the next request', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const admin = callerFor(app, (await loggedInUser(app, db, 'admin')).cookies);
    const created = await admin('POST', '/roles', {
      name: 'bartender',
      description: 'Runs the bar',
      permissions: ['orders.write'],
    });
    assert.equal(created.statusCode, 201, created.body);
    const role = created.json();
    assert.deepEqual(role, {
      id: role.id,
      name: 'bartender',
      description: 'Runs the bar',
      permissions: ['orders.write'],
      is_seeded: false,
    });
    const stored = await db
      .selectFrom('roles')
      .selectAll()
      .where('id', '=', role.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(stored.permissions), ['orders.write']);

    const { user, cookies } = await loggedInUser(app, db, 'staff');
    const given = await admin('PUT', `/users/${user.id}`, { name: user.name, role: 'bartender' });
    assert.equal(given.statusCode, 200, given.body);
    assert.deepEqual(given.json(), { id: user.id, message: 'User updated successfully' });
    // A new role ends the user's sessions, as before; they log in again.
    assert.equal((await callerFor(app, cookies)('GET', '/users/me')).statusCode, 401);
    const bartender = callerFor(app, await login(app, user.name, user.pin));
    const me = await bartender('GET', '/users/me');
    assert.equal(me.json().role, 'bartender');

    assert.equal((await bartender('POST', '/orders', {})).statusCode, 201);
    const space = await bartender('POST', '/spaces', { name: 'Terrace' });
    assert.deepEqual([space.statusCode, space.json()], [403, REFUSED]);

    const edited = await admin('PUT', `/roles/${role.id}`, {
      name: 'bar',
      permissions: ['orders.write', 'floor.write'],
    });
    assert.equal(edited.statusCode, 200, edited.body);
    assert.deepEqual(edited.json().permissions, ['floor.write', 'orders.write'].sort(byCatalogue));
    assert.equal(edited.json().description, 'Runs the bar');
    const renamedUser = await db
      .selectFrom('users')
      .select('role')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    assert.equal(renamedUser.role, 'bar', 'renaming the role carries its users along');
    // Same session, no new login: the edit applies from the next request.
    assert.equal((await bartender('POST', '/spaces', { name: 'Terrace' })).statusCode, 201);
    assert.equal((await bartender('GET', '/users/me')).json().role, 'bar');
  });

  it('refuses edits of the admin role, seeded renames and deletions, and roles in use', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const admin = callerFor(app, (await loggedInUser(app, db, 'admin')).cookies);
    const roles = (await admin('GET', '/roles')).json() as { id: string; name: string; is_seeded: boolean }[];
    assert.deepEqual(
      roles.map((role) => [role.name, role.is_seeded]),
      ['admin', 'cashier', 'display', 'kitchen', 'manager', 'staff', 'waiter'].map((name) => [name, true]),
    );
    const idOf = (name: string) => roles.find((role) => role.name === name)?.id as string;
    const custom = (await admin('POST', '/roles', { name: 'host', permissions: [] })).json();
    await loggedInUser(app, db, 'host');
    const before = await databaseDigest(db);

    const refusals: [string, string, unknown, number, string][] = [
      [
        'PUT',
        `/roles/${idOf('admin')}`,
        { name: 'admin', permissions: [] },
        400,
        'The admin role cannot be edited',
      ],
      [
        'PUT',
        `/roles/${idOf('waiter')}`,
        { name: 'server', permissions: [] },
        400,
        'A seeded role cannot be renamed',
      ],
      ['DELETE', `/roles/${idOf('kitchen')}`, undefined, 400, 'A seeded role cannot be deleted'],
      ['DELETE', `/roles/${custom.id}`, undefined, 409, 'The role is assigned to users'],
      ['POST', '/roles', { name: 'waiter', permissions: [] }, 400, 'A role with this name already exists'],
      [
        'PUT',
        `/roles/${custom.id}`,
        { name: 'cashier', permissions: [] },
        400,
        'A role with this name already exists',
      ],
      ['POST', '/users', { name: 'Nadie', pin: '1234', role: 'chef' }, 400, 'Unknown role'],
    ];
    for (const [method, url, body, status, message] of refusals) {
      const response = await admin(method as 'PUT', url, body);
      assert.deepEqual([response.statusCode, response.json()], [status, { message }], `${method} ${url}`);
    }
    const badPermission = await admin('POST', '/roles', { name: 'x', permissions: ['orders.fly'] });
    assert.equal(badPermission.statusCode, 400);
    assert.equal(await databaseDigest(db), before, 'refused requests change nothing');

    const unused = (await admin('POST', '/roles', { name: 'temp', permissions: ['reports.read'] })).json();
    assert.equal((await admin('DELETE', `/roles/${unused.id}`)).statusCode, 200);
    assert.equal(
      await db.selectFrom('roles').select('id').where('id', '=', unused.id).executeTakeFirst(),
      undefined,
    );
    assert.equal((await admin('GET', `/roles/${unused.id}`)).statusCode, 404);
    const waiter = await admin('PUT', `/roles/${idOf('waiter')}`, {
      name: 'waiter',
      permissions: ['orders.write', 'receipts.print'],
    });
    assert.deepEqual(waiter.json().permissions, ['orders.write', 'receipts.print']);
  });

  it('lets a waiter split a bill and take payment but not discount or refund; a manager may', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { orderId, dishIds } = await billableOrder(app, db);
    const waiter = callerFor(app, (await loggedInUser(app, db, 'waiter')).cookies);
    const manager = callerFor(app, (await loggedInUser(app, db, 'manager')).cookies);
    const discount = { type: 'percent', value: 10, reason: 'Regular' };

    const before = await databaseDigest(db);
    const discounted = await waiter('POST', `/orders/${orderId}/tickets`, {
      order_dish_ids: [dishIds[0]],
      discount,
    });
    assert.deepEqual([discounted.statusCode, discounted.json()], [403, REFUSED]);
    assert.equal(await databaseDigest(db), before);

    const billId = await createBill(waiter, orderId, { order_dish_ids: [dishIds[0]] });
    const paid = await waiter('POST', `/tickets/${billId}/payments`, { method: 'cash', amount: 10 });
    assert.equal(paid.statusCode, 201, paid.body);
    const paymentId = paid.json().id as string;
    const afterPayment = await databaseDigest(db);
    const refund = await waiter('POST', `/payments/${paymentId}/refund`, { amount: 5, reason: 'Cold soup' });
    assert.deepEqual([refund.statusCode, refund.json()], [403, REFUSED]);
    assert.equal(await databaseDigest(db), afterPayment);

    const managerBill = await manager('POST', `/orders/${orderId}/tickets`, {
      order_dish_ids: [dishIds[1]],
      discount,
    });
    assert.equal(managerBill.statusCode, 201, managerBill.body);
    const managerRefund = await manager('POST', `/payments/${paymentId}/refund`, {
      amount: 5,
      reason: 'Cold soup',
    });
    assert.equal(managerRefund.statusCode, 201, managerRefund.body);
  });
});

function byCatalogue(a: string, b: string): number {
  const names = Object.keys(PERMISSIONS);
  return names.indexOf(a) - names.indexOf(b);
}
