import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../src/core/db/database';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser, login } from './helpers/auth';
import { insertDish, insertUser, type UserFixture } from './helpers/factories';
import { type Caller, callerFor } from './helpers/orders-factories';

const UNAUTHORIZED = { message: 'Unauthorized API access' };

/** A waiter's sent order of plates at these prices (cents), a manager, and the waiter's caller. */
async function sentOrder(app: FastifyInstance, db: Db, pricesCents: number[]) {
  const waiter = await loggedInUser(app, db, 'waiter');
  const call = callerFor(app, waiter.cookies);
  const manager = await insertUser(db, { role: 'manager', pin: '8642' });
  const dishes = [];
  for (const priceCents of pricesCents) dishes.push({ dish_id: (await insertDish(db, { priceCents })).id });
  const created = await call('POST', '/orders/with-dishes', { order: {}, dishes });
  assert.equal(created.statusCode, 201, created.body);
  const orderId = created.json().id as string;
  assert.equal((await call('POST', `/orders/${orderId}/send`)).statusCode, 200);
  const plates = (await call('GET', `/orders/${orderId}/dishes`)).json() as {
    id: string;
    price_at_order: number;
  }[];
  const dishIds = pricesCents.map(
    (cents) => plates.find((plate) => plate.price_at_order * 100 === cents)?.id as string,
  );
  return { call, waiter: waiter.user, manager, orderId, dishIds };
}

/** What an approval is for: the order, and the plates it names. */
type Target = { order_id: string; order_dish_ids?: string[] };

async function approval(
  call: Caller,
  manager: UserFixture,
  permission: string,
  target: Target,
): Promise<string> {
  const approved = await call('POST', '/auth/approvals', {
    name: manager.name,
    pin: manager.pin,
    permission,
    ...target,
  });
  assert.equal(approved.statusCode, 201, approved.body);
  return approved.json().approval as string;
}

const withApproval = (token: string) => ({ 'x-manager-approval': token });

describeEachDatabase('manager approvals', (target) => {
  it("lets a waiter void a sent plate once with a manager's PIN, and records who voided and who approved", async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, waiter, manager, orderId, dishIds } = await sentOrder(app, db, [1000, 2000]);
    const [first, second] = dishIds as [string, string];
    const url = (id: string) => `/orders/${orderId}/dishes/${id}/void`;

    // Without an approval the waiter's role cannot.
    assert.deepEqual((await call('POST', url(first), { reason: 'Wrong table' })).json(), UNAUTHORIZED);

    const approved = await call('POST', '/auth/approvals', {
      name: manager.name,
      pin: manager.pin,
      permission: 'dishes.void',
      order_id: orderId,
      order_dish_ids: [first],
    });
    assert.equal(approved.statusCode, 201, approved.body);
    const body = approved.json();
    assert.deepEqual(body.approver, { id: manager.id, name: manager.name });
    assert.equal(body.permission, 'dishes.void');
    assert.deepEqual([body.order_id, body.order_dish_ids], [orderId, [first]]);
    assert.equal(body.expires_at, new Date(Date.UTC(2026, 10, 22, 18, 2, 0)).toISOString());
    const stored = await db.selectFrom('manager_approvals').selectAll().executeTakeFirstOrThrow();
    assert.notEqual(stored.token_hash, body.approval, 'only the hash is kept');

    const voided = await call('POST', url(first), { reason: 'Wrong table' }, withApproval(body.approval));
    assert.equal(voided.statusCode, 200, voided.body);
    const row = await db
      .selectFrom('order_dishes')
      .select(['status', 'void_reason', 'voided_by', 'voided_approved_by'])
      .where('id', '=', first)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, {
      status: 'voided',
      void_reason: 'Wrong table',
      voided_by: waiter.id,
      voided_approved_by: manager.id,
    });
    const plate = (await call('GET', `/orders/${orderId}/dishes`))
      .json()
      .find((p: { id: string }) => p.id === first);
    assert.equal(plate.voided_by, waiter.name);
    assert.equal(plate.void_approved_by, manager.name);
    const audit = await db
      .selectFrom('audit_log')
      .select(['actor_id', 'after'])
      .where('action', '=', 'dish.voided')
      .executeTakeFirstOrThrow();
    assert.equal(audit.actor_id, waiter.id);
    assert.deepEqual(JSON.parse(audit.after as string).approved_by, { id: manager.id, name: manager.name });
    const granted = await db
      .selectFrom('audit_log')
      .select(['actor_id', 'target_id', 'after'])
      .where('action', '=', 'auth.approval_granted')
      .executeTakeFirstOrThrow();
    assert.equal(granted.actor_id, manager.id);
    assert.equal(granted.target_id, waiter.id);
    assert.equal(JSON.parse(granted.after as string).permission, 'dishes.void');

    // Spent: the same approval does not void a second plate.
    const again = await call('POST', url(second), { reason: 'Wrong table' }, withApproval(body.approval));
    assert.equal(again.statusCode, 403);
    assert.deepEqual(again.json(), UNAUTHORIZED);
  });

  it("refuses an expired approval, another user's, one for another permission, and keeps one a failed request did not use", async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const { waiter, manager, orderId, dishIds, ...order } = await sentOrder(app, db, [1000]);
    let { call } = order;
    const url = `/orders/${orderId}/dishes/${dishIds[0]}/void`;
    const reason = { reason: 'Cold' };
    const plate = { order_id: orderId, order_dish_ids: [dishIds[0] as string] };

    const expiring = await approval(call, manager, 'dishes.void', plate);
    clock.advance(2 * 60_000);
    // The access token lasts a minute: the waiter signs in again, and is still the one it was issued to.
    call = callerFor(app, await login(app, waiter.name, waiter.pin));
    assert.equal((await call('POST', url, reason, withApproval(expiring))).statusCode, 403);

    const otherWaiter = callerFor(app, (await loggedInUser(app, db, 'waiter')).cookies);
    const notTheirs = await approval(call, manager, 'dishes.void', plate);
    assert.equal((await otherWaiter('POST', url, reason, withApproval(notTheirs))).statusCode, 403);

    const forDiscounts = await approval(call, manager, 'tickets.discount', { order_id: orderId });
    assert.equal((await call('POST', url, reason, withApproval(forDiscounts))).statusCode, 403);
    assert.equal((await call('POST', url, reason, withApproval('not-a-token'))).statusCode, 403);

    // A void refused (a plate the approval does not name) gives the approval back.
    const missing = await call(
      'POST',
      `/orders/${orderId}/dishes/${crypto.randomUUID()}/void`,
      reason,
      withApproval(notTheirs),
    );
    assert.equal(missing.statusCode, 403, missing.body);
    assert.equal((await call('POST', url, reason, withApproval(notTheirs))).statusCode, 200);
  });

  it('answers 401 to a wrong PIN within the login limits, 403 to a manager without the permission, 400 to another permission', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, manager, orderId, dishIds } = await sentOrder(app, db, [1000]);
    const ask = (body: Record<string, unknown>) =>
      call('POST', '/auth/approvals', { order_id: orderId, order_dish_ids: dishIds, ...body });

    const wrong = await ask({ name: manager.name, pin: '0000', permission: 'dishes.void' });
    assert.equal(wrong.statusCode, 401);
    assert.deepEqual(wrong.json(), { message: 'Invalid credentials' });
    const failures = await db
      .selectFrom('failure_counters')
      .select(['scope', 'failures'])
      .where('scope', '=', 'login-account')
      .where('failures', '>', 0)
      .execute();
    assert.deepEqual(
      failures.map((row) => Number(row.failures)),
      [1],
      'counted as a failed login',
    );

    const cashier = await insertUser(db, { role: 'cashier', pin: '1357' });
    const refused = await ask({ name: cashier.name, pin: cashier.pin, permission: 'tickets.discount' });
    assert.equal(refused.statusCode, 403);
    assert.deepEqual(refused.json(), UNAUTHORIZED);

    const unknown = await ask({ name: manager.name, pin: manager.pin, permission: 'payments.refund' });
    assert.equal(unknown.statusCode, 400);
    assert.equal(await db.selectFrom('manager_approvals').select('token_hash').executeTakeFirst(), undefined);
  });

  it('locks out approvals after the login failures of that name, as logins are', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, manager, orderId, dishIds } = await sentOrder(app, db, [1000]);
    const approved = { order_id: orderId, order_dish_ids: dishIds };
    for (let attempt = 0; attempt < 10; attempt++) {
      const wrong = await call('POST', '/auth/approvals', {
        name: manager.name,
        pin: '0000',
        permission: 'dishes.void',
        ...approved,
      });
      assert.equal(wrong.statusCode, 401);
    }
    const locked = await call('POST', '/auth/approvals', {
      name: manager.name,
      pin: manager.pin,
      permission: 'dishes.void',
      ...approved,
    });
    assert.equal(locked.statusCode, 429);
    const login = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { name: manager.name, pin: manager.pin },
    });
    assert.equal(login.statusCode, 429, 'the same budget as logins');
  });

  it("lets a waiter comp a plate with a manager's approval: a bill discounted 100 %, paid at once", async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, waiter, manager, orderId, dishIds } = await sentOrder(app, db, [1000, 2500]);
    const comp = {
      order_dish_ids: [dishIds[0]],
      discount: { type: 'percent', value: 100, reason: 'Birthday' },
    };
    assert.deepEqual((await call('POST', `/orders/${orderId}/tickets`, comp)).json(), UNAUTHORIZED);

    const token = await approval(call, manager, 'tickets.discount', { order_id: orderId });
    const billed = await call('POST', `/orders/${orderId}/tickets`, comp, withApproval(token));
    assert.equal(billed.statusCode, 201, billed.body);
    const ticket = await db
      .selectFrom('tickets')
      .select(['status', 'total_cents', 'created_by', 'discount_reason', 'discount_approved_by'])
      .where('id', '=', billed.json().id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      { ...ticket, status: Number(ticket.status), total_cents: Number(ticket.total_cents) },
      {
        status: 2,
        total_cents: 0,
        created_by: waiter.id,
        discount_reason: 'Birthday',
        discount_approved_by: manager.id,
      },
    );
    const audit = await db
      .selectFrom('audit_log')
      .select('after')
      .where('action', '=', 'ticket.discounted')
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(audit.after as string).approved_by, { id: manager.id, name: manager.name });
    // The comped plate is settled; the order still owes the other one.
    const order = (await call('GET', `/orders/${orderId}`)).json();
    assert.equal(order.balance, 25);
    const compOther = { ...comp, order_dish_ids: [dishIds[1]] };
    assert.equal(
      (await call('POST', `/orders/${orderId}/tickets`, compOther, withApproval(token))).statusCode,
      403,
      'spent',
    );
  });

  it("binds an approval to its order and plates: one plate's approval removes no other plate, and no other order's", async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, manager, orderId, dishIds } = await sentOrder(app, db, [1000, 2000, 3000]);
    const [first, second] = dishIds as [string, string, string];
    const other = await sentOrder(app, db, [4000]);

    const forFirst = await approval(call, manager, 'dishes.void', {
      order_id: orderId,
      order_dish_ids: [first],
    });
    // Removing every plate of the order, or voiding another plate, with it: refused, and not spent.
    assert.equal(
      (await call('DELETE', `/orders/${orderId}/dishes`, undefined, withApproval(forFirst))).statusCode,
      403,
    );
    const wrongPlate = await call(
      'POST',
      `/orders/${orderId}/dishes/${second}/void`,
      { reason: 'Cold' },
      withApproval(forFirst),
    );
    assert.equal(wrongPlate.statusCode, 403);
    const kept = await db.selectFrom('order_dishes').select('id').where('order_id', '=', orderId).execute();
    assert.equal(kept.length, 3, 'no plate removed');
    // Nor another order's plate, even through that order's waiter's own approval for it.
    const otherPlate = `/orders/${other.orderId}/dishes/${other.dishIds[0]}/void`;
    assert.equal(
      (await other.call('POST', otherPlate, { reason: 'Cold' }, withApproval(forFirst))).statusCode,
      403,
    );

    const removed = await call(
      'DELETE',
      `/orders/${orderId}/dishes/${first}`,
      undefined,
      withApproval(forFirst),
    );
    assert.equal(removed.statusCode, 200, removed.body);
    assert.equal(
      (await db.selectFrom('order_dishes').select('id').where('order_id', '=', orderId).execute()).length,
      2,
    );

    // A discount approval for one order does not discount another's bill; a void approval names plates.
    const discount = { discount: { type: 'percent', value: 10, reason: 'Regular' } };
    const forThisOrder = await approval(call, manager, 'tickets.discount', { order_id: orderId });
    assert.equal(
      (await other.call('POST', `/orders/${other.orderId}/tickets`, discount, withApproval(forThisOrder)))
        .statusCode,
      403,
    );
    const noPlates = await call('POST', '/auth/approvals', {
      name: manager.name,
      pin: manager.pin,
      permission: 'dishes.void',
      order_id: orderId,
    });
    assert.deepEqual(
      [noPlates.statusCode, noPlates.json()],
      [400, { message: 'An approval to void names its plates (order_dish_ids)' }],
    );
  });

  it('ignores the header when the role already allows it, and a manager voids without approval', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { orderId, dishIds, manager, call } = await sentOrder(app, db, [1000]);
    const token = await approval(call, manager, 'dishes.void', {
      order_id: orderId,
      order_dish_ids: dishIds,
    });
    const managerCall = callerFor(app, (await loggedInUser(app, db, 'manager')).cookies);
    const voided = await managerCall(
      'POST',
      `/orders/${orderId}/dishes/${dishIds[0]}/void`,
      { reason: 'Burnt' },
      withApproval(token),
    );
    assert.equal(voided.statusCode, 200, voided.body);
    const row = await db.selectFrom('manager_approvals').select('used_at').executeTakeFirstOrThrow();
    assert.equal(row.used_at, null, 'not spent by a caller who needs none');
    const plate = await db
      .selectFrom('order_dishes')
      .select('voided_approved_by')
      .where('id', '=', dishIds[0] as string)
      .executeTakeFirstOrThrow();
    assert.equal(plate.voided_approved_by, null);
  });
});

describeEachDatabase('day report: voids and comps', (target) => {
  it("shows the day's voids, comps and other discounts by reason and by who did and who approved them", async (t) => {
    const { app, db } = await buildTestApp(t, target, { env: { POS_TIMEZONE: 'America/Mexico_City' } });
    const { call, waiter, manager, orderId, dishIds } = await sentOrder(
      app,
      db,
      [1000, 2000, 3000, 4000, 5000],
    );
    const [cold, wrong, burnt, birthday, rest] = dishIds as [string, string, string, string, string];
    const managerCall = callerFor(app, await login(app, manager.name, manager.pin));
    const voidPlate = async (
      caller: Caller,
      id: string,
      reason: string,
      headers?: Record<string, string>,
    ) => {
      const voided = await caller('POST', `/orders/${orderId}/dishes/${id}/void`, { reason }, headers);
      assert.equal(voided.statusCode, 200, voided.body);
    };
    await voidPlate(
      call,
      cold,
      'Cold',
      withApproval(
        await approval(call, manager, 'dishes.void', { order_id: orderId, order_dish_ids: [cold] }),
      ),
    );
    await voidPlate(
      call,
      wrong,
      'Wrong table',
      withApproval(
        await approval(call, manager, 'dishes.void', { order_id: orderId, order_dish_ids: [wrong] }),
      ),
    );
    await voidPlate(managerCall, burnt, 'Cold');
    const bill = async (caller: Caller, body: Record<string, unknown>, headers?: Record<string, string>) => {
      const billed = await caller('POST', `/orders/${orderId}/tickets`, body, headers);
      assert.equal(billed.statusCode, 201, billed.body);
    };
    await bill(
      call,
      { order_dish_ids: [birthday], discount: { type: 'percent', value: 100, reason: 'Birthday' } },
      withApproval(
        await approval(call, manager, 'tickets.discount', { order_id: orderId, order_dish_ids: [birthday] }),
      ),
    );
    await bill(managerCall, {
      order_dish_ids: [rest],
      discount: { type: 'amount', value: 5, reason: 'Regular' },
    });

    const report = (await managerCall('GET', '/reports/day/2026-11-22')).json();
    const person = (doer: UserFixture, approver: UserFixture | null) => ({
      user_id: doer.id,
      user_name: doer.name,
      approved_by_id: approver?.id ?? null,
      approved_by_name: approver?.name ?? null,
    });
    assert.deepEqual(report.voids, {
      count: 3,
      amount: 60,
      by_reason: [
        { reason: 'Cold', count: 2, amount: 40 },
        { reason: 'Wrong table', count: 1, amount: 20 },
      ],
      by_person: [
        { ...person(waiter, manager), count: 2, amount: 30 },
        { ...person(manager, null), count: 1, amount: 30 },
      ],
    });
    assert.deepEqual(report.comps, {
      count: 1,
      amount: 40,
      by_reason: [{ reason: 'Birthday', count: 1, amount: 40 }],
      by_person: [{ ...person(waiter, manager), count: 1, amount: 40 }],
    });
    assert.deepEqual(report.other_discounts, {
      count: 1,
      amount: 5,
      by_reason: [{ reason: 'Regular', count: 1, amount: 5 }],
      by_person: [{ ...person(manager, null), count: 1, amount: 5 }],
    });
    // The restaurant's next local day had none of them.
    const next = (await managerCall('GET', '/reports/day/2026-11-23')).json();
    assert.deepEqual(next.voids, { count: 0, amount: 0, by_reason: [], by_person: [] });
    assert.equal(next.comps.count, 0);
  });
});
