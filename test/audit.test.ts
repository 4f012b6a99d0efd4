import assert from 'node:assert/strict';
import { it } from 'node:test';
import { recordAudit } from '../src/audit/record-audit';
import {
  createUserCommand,
  PIN_VARIABLE,
  resetPinCommand,
  setWalletPasswordCommand,
  WALLET_PASSWORD_VARIABLE,
} from '../src/cli/commands';
import type { Db } from '../src/core/db/database';
import { createContext } from '../src/create-context';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { billableOrder, createBill } from './helpers/checkout-factories';
import { databaseDigest } from './helpers/db-digest';
import { insertUser } from './helpers/factories';
import { callerFor } from './helpers/orders-factories';
import { buildWalletTestApp, unlockedAdmin } from './helpers/wallet-factories';

type Entry = {
  id: string;
  seq: number;
  at: number;
  actor_id: string | null;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: string | null;
  before: unknown;
  after: unknown;
  prev_hash: string;
  hash: string;
};

async function storedEntries(db: Db, action?: string): Promise<Entry[]> {
  let query = db.selectFrom('audit_log').selectAll().orderBy('seq');
  if (action) query = query.where('action', '=', action);
  const rows = await query.execute();
  return rows.map((row) => ({
    ...row,
    seq: Number(row.seq),
    at: Number(row.at),
    before: row.before === null ? null : JSON.parse(row.before),
    after: row.after === null ? null : JSON.parse(row.after),
  }));
}

async function onlyEntry(db: Db, action: string): Promise<Entry> {
  const entries = await storedEntries(db, action);
  assert.equal(entries.length, 1, `one ${action} entry: ${JSON.stringify(entries)}`);
  return entries[0] as Entry;
}

describeEachDatabase('audit log', (target) => {
  it('records logins and failed logins with the actor, never the PIN', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const user = await insertUser(db, { role: 'waiter', pin: '482913' });
    const ok = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { name: user.name, pin: '482913' },
    });
    assert.equal(ok.statusCode, 200);
    const wrong = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { name: user.name, pin: '999999' },
    });
    assert.equal(wrong.statusCode, 401);
    const nobody = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { name: 'ghost', pin: '1234' },
    });
    assert.equal(nobody.statusCode, 401);

    const login = await onlyEntry(db, 'auth.login');
    assert.deepEqual(
      [login.actor_id, login.actor_name, login.target_type, login.target_id],
      [user.id, user.name, 'user', user.id],
    );
    const failed = await storedEntries(db, 'auth.login_failed');
    assert.deepEqual(
      failed.map((entry) => [entry.actor_id, entry.actor_name, entry.target_id]),
      [
        [user.id, user.name, user.id],
        [null, 'ghost', null],
      ],
    );
    const everything = JSON.stringify(await db.selectFrom('audit_log').selectAll().execute());
    for (const secret of ['482913', '999999', '1234', 'pin_hash'])
      assert.ok(!everything.includes(secret), secret);
  });

  it('records user and role changes with before and after', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { user: adminUser, cookies } = await loggedInUser(app, db, 'admin');
    const admin = callerFor(app, cookies);
    const created = await admin('POST', '/users', { name: 'Rosa', pin: '5829', role: 'waiter' });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().id;
    assert.equal((await admin('PUT', `/users/${id}`, { name: 'Rosa', role: 'cashier' })).statusCode, 200);
    assert.equal((await admin('DELETE', `/users/${id}`)).statusCode, 200);

    const userCreated = await onlyEntry(db, 'user.created');
    assert.equal(userCreated.actor_id, adminUser.id);
    assert.deepEqual(userCreated.after, { id, name: 'Rosa', role: 'waiter', is_admin: false });
    const updated = await onlyEntry(db, 'user.updated');
    assert.deepEqual([updated.target_type, updated.target_id], ['user', id]);
    assert.deepEqual(updated.before, { id, name: 'Rosa', role: 'waiter', is_admin: false });
    assert.deepEqual(updated.after, {
      id,
      name: 'Rosa',
      role: 'cashier',
      is_admin: false,
      pin_changed: false,
    });
    assert.deepEqual((await onlyEntry(db, 'user.deleted')).before, {
      id,
      name: 'Rosa',
      role: 'cashier',
      is_admin: false,
    });

    const role = await admin('POST', '/roles', { name: 'host', permissions: ['orders.write'] });
    assert.equal(role.statusCode, 201, role.body);
    const roleId = role.json().id;
    const changed = await admin('PUT', `/roles/${roleId}`, {
      name: 'host',
      permissions: ['orders.write', 'tickets.write'],
    });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal((await admin('DELETE', `/roles/${roleId}`)).statusCode < 300, true);
    assert.equal((await onlyEntry(db, 'role.created')).target_id, roleId);
    const roleUpdated = await onlyEntry(db, 'role.updated');
    assert.deepEqual(
      [
        (roleUpdated.before as { permissions: string[] }).permissions,
        (roleUpdated.after as { permissions: string[] }).permissions,
      ],
      [['orders.write'], ['orders.write', 'tickets.write']],
    );
    assert.equal((await onlyEntry(db, 'role.deleted')).target_id, roleId);
  });

  it('records settings changes, and a refused change leaves no entry', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { user, cookies } = await loggedInUser(app, db, 'admin');
    const admin = callerFor(app, cookies);
    assert.equal(
      (await admin('PUT', '/settings', { business_name: 'La Esquina', tax_rate: 16 })).statusCode,
      200,
    );
    const entry = await onlyEntry(db, 'settings.updated');
    assert.equal(entry.actor_id, user.id);
    assert.deepEqual(
      [
        (entry.before as { business_name: string }).business_name,
        (entry.after as { tax_rate: number }).tax_rate,
      ],
      ['', 16],
    );

    const { call, orderId } = await billableOrder(app, db);
    await createBill(call, orderId, {});
    const before = await databaseDigest(db);
    const refused = await admin('PUT', '/settings', { base_currency: 'BTC' });
    assert.equal(refused.statusCode, 409);
    assert.equal(await databaseDigest(db), before, 'the entry went with the rolled-back change');
  });

  it('records discounts, voids, refunds, cancelled and deleted orders with their dishes', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, admin, orderId, dishIds } = await billableOrder(app, db, [1000, 2000, 3000]);
    const [a] = dishIds as [string];
    const voided = await call('PUT', `/orders/${orderId}/dishes/${a}/status`, {
      status: 'voided',
      reason: 'Sent back',
    });
    assert.equal(voided.statusCode, 200, voided.body);
    const voidEntry = await onlyEntry(db, 'dish.voided');
    assert.deepEqual([voidEntry.target_type, voidEntry.target_id], ['order_dish', a]);
    assert.deepEqual(
      [(voidEntry.before as { status: string }).status, (voidEntry.after as { status: string }).status],
      ['pending', 'voided'],
    );

    const ticketId = await createBill(admin, orderId, {
      discount: { type: 'percent', value: 10, reason: 'Regular' },
    });
    const discount = await onlyEntry(db, 'ticket.discounted');
    assert.deepEqual([discount.target_type, discount.target_id], ['ticket', ticketId]);
    assert.deepEqual(discount.before, { order_id: orderId, subtotal: 50 });
    assert.equal((discount.after as { total: number }).total, 45);

    const paid = await call('POST', `/tickets/${ticketId}/payments`, { method: 'cash', amount: 45 });
    assert.equal(paid.statusCode, 201, paid.body);
    const paymentId = paid.json().id;
    const refund = await admin('POST', `/payments/${paymentId}/refund`, { amount: 5, reason: 'Cold soup' });
    assert.equal(refund.statusCode, 201, refund.body);
    const refunded = await onlyEntry(db, 'payment.refunded');
    assert.deepEqual([refunded.target_type, refunded.target_id], ['payment', paymentId]);
    assert.deepEqual((refunded.after as { amount: number; reason: string }).amount, 5);

    const second = await billableOrder(app, db, [1500]);
    const cancelled = await second.call('PUT', `/orders/${second.orderId}`, { status: 'cancelled' });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    const cancel = await onlyEntry(db, 'order.cancelled');
    const cancelBefore = cancel.before as { order: { status: string }; dishes: unknown[] };
    assert.deepEqual([cancelBefore.order.status, cancelBefore.dishes.length], ['pending', 1]);
    assert.equal((cancel.after as { order: { status: string } }).order.status, 'cancelled');

    const third = await billableOrder(app, db, [700, 800]);
    assert.equal((await third.call('DELETE', `/orders/${third.orderId}`)).statusCode, 200);
    const deleted = await onlyEntry(db, 'order.deleted');
    assert.equal(deleted.target_id, third.orderId);
    assert.equal((deleted.before as { dishes: unknown[] }).dishes.length, 2);
    assert.equal(deleted.after, null);
  });

  it('records removing a dish the kitchen has as a void; a rolled-back removal leaves none', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId, dishIds } = await billableOrder(app, db, [1000, 2000]);
    const [a] = dishIds as [string];
    assert.equal((await call('POST', `/orders/${orderId}/send`)).statusCode, 200);
    await createBill(call, orderId, { amount: 25 });
    const before = await databaseDigest(db);
    // The total would fall below the bill: refused after the dish row and its entry were written.
    const refused = await call('DELETE', `/orders/${orderId}/dishes/${a}`);
    assert.equal(refused.statusCode, 400, refused.body);
    assert.equal(await databaseDigest(db), before);
    assert.deepEqual(await storedEntries(db, 'dish.voided'), []);

    const other = await billableOrder(app, db, [1200, 1300]);
    assert.equal((await other.call('POST', `/orders/${other.orderId}/send`)).statusCode, 200);
    assert.equal(
      (await other.call('DELETE', `/orders/${other.orderId}/dishes/${other.dishIds[0]}`)).statusCode,
      200,
    );
    const entry = await onlyEntry(db, 'dish.voided');
    assert.deepEqual([entry.target_type, entry.target_id], ['order', other.orderId]);
    assert.deepEqual(
      (entry.before as { dishes: { id: string; status: string }[] }).dishes.map((dish) => [
        dish.id,
        dish.status,
      ]),
      [[other.dishIds[0], 'sent']],
    );
  });

  it('records the command-line actions with the command line as actor', async (t) => {
    const { db, config, database, clock } = await buildTestApp(t, target);
    const ctx = await createContext(config, database, clock);
    const saved = { pin: process.env[PIN_VARIABLE], password: process.env[WALLET_PASSWORD_VARIABLE] };
    t.after(() => {
      for (const [name, value] of [
        [PIN_VARIABLE, saved.pin],
        [WALLET_PASSWORD_VARIABLE, saved.password],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });
    process.env[PIN_VARIABLE] = '731946';
    process.env[WALLET_PASSWORD_VARIABLE] = 'correct horse battery';
    await createUserCommand(ctx, { name: 'Boss', role: 'admin' });
    await resetPinCommand(ctx, { name: 'Boss' });
    await setWalletPasswordCommand(ctx, { name: 'Boss' });
    const entries = await storedEntries(db);
    assert.deepEqual(
      entries.map((entry) => [entry.action, entry.actor_id, entry.actor_name, entry.target_type]),
      [
        ['cli.user_created', null, 'command line', 'user'],
        ['cli.pin_reset', null, 'command line', 'user'],
        ['cli.wallet_password_set', null, 'command line', 'user'],
      ],
    );
    const recorded = JSON.stringify(await db.selectFrom('audit_log').select(['before', 'after']).execute());
    for (const secret of ['731946', 'correct horse', 'hash', 'pin"'])
      assert.ok(!recorded.includes(secret), secret);
  });

  it('keeps one valid chain under concurrent audited changes', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const admin = callerFor(app, cookies);
    const users = await Promise.all(Array.from({ length: 10 }, () => insertUser(db, { role: 'waiter' })));
    // Different names, so the failure limiter (which counts attempts in flight) never answers 429.
    const answers = await Promise.all([
      ...users.map((user) =>
        app.inject({ method: 'POST', url: '/auth/login', payload: { name: user.name, pin: user.pin } }),
      ),
      ...Array.from({ length: 8 }, (_, index) =>
        app.inject({ method: 'POST', url: '/auth/login', payload: { name: `ghost ${index}`, pin: '0000' } }),
      ),
      ...Array.from({ length: 6 }, (_, index) =>
        admin('PUT', '/settings', { business_name: `Name ${index}` }),
      ),
    ]);
    assert.deepEqual(
      answers.map((answer) => answer.statusCode),
      [...Array(10).fill(200), ...Array(8).fill(401), ...Array(6).fill(200)],
    );
    const entries = await storedEntries(db);
    // The admin's own login comes first.
    assert.equal(entries.length, 25);
    assert.deepEqual(
      entries.map((entry) => entry.seq),
      entries.map((_, index) => index + 1),
    );
    for (const [index, entry] of entries.entries()) {
      assert.equal(entry.prev_hash, index === 0 ? '0'.repeat(64) : entries[index - 1]?.hash);
    }
    const verified = await admin('GET', '/audit/verify');
    assert.deepEqual([verified.statusCode, verified.json()], [200, { ok: true, entries: 25 }]);
  });

  it('names the first edited or deleted entry', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const admin = callerFor(app, cookies);
    for (const name of ['A', 'B', 'C', 'D']) {
      assert.equal((await admin('PUT', '/settings', { business_name: name })).statusCode, 200);
    }
    const entries = await storedEntries(db);
    const [, second, third, fourth] = entries as [Entry, Entry, Entry, Entry];
    assert.deepEqual((await admin('GET', '/audit/verify')).json(), { ok: true, entries: 5 });
    const brokenAt = (entry: Entry) => ({ id: entry.id, seq: entry.seq, at: entry.at, action: entry.action });

    const original = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('id', '=', third.id)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('audit_log')
      .set({ after: '{"business_name":"Z"}' })
      .where('id', '=', third.id)
      .execute();
    assert.deepEqual((await admin('GET', '/audit/verify')).json(), {
      ok: false,
      broken_at: brokenAt(third),
      reason: 'The entry does not match its hash: it was changed',
    });
    await db
      .updateTable('audit_log')
      .set({ after: original.after, action: 'auth.login' })
      .where('id', '=', third.id)
      .execute();
    assert.deepEqual((await admin('GET', '/audit/verify')).json().broken_at, {
      ...brokenAt(third),
      action: 'auth.login',
    });
    await db.updateTable('audit_log').set({ action: original.action }).where('id', '=', third.id).execute();
    assert.deepEqual((await admin('GET', '/audit/verify')).json(), { ok: true, entries: 5 });

    // A forger who also recomputes the edited row's hash breaks the link of the entry after it.
    await db
      .updateTable('audit_log')
      .set({ hash: 'f'.repeat(64) })
      .where('id', '=', second.id)
      .execute();
    assert.deepEqual((await admin('GET', '/audit/verify')).json(), {
      ok: false,
      broken_at: brokenAt(second),
      reason: 'The entry does not match its hash: it was changed',
    });
    await db.updateTable('audit_log').set({ hash: second.hash }).where('id', '=', second.id).execute();

    await db.deleteFrom('audit_log').where('id', '=', third.id).execute();
    assert.deepEqual((await admin('GET', '/audit/verify')).json(), {
      ok: false,
      broken_at: brokenAt(fourth),
      reason: 'An entry before this one is missing: it was deleted',
    });
  });

  it('verifies a chain longer than one batch and finds a break past the first batch', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const admin = callerFor(app, cookies);
    await db.transaction().execute(async (trx) => {
      for (let index = 0; index < 1500; index += 1) {
        await recordAudit(trx, {
          at: clock.now(),
          actor: { id: null, name: 'bench' },
          action: 'settings.updated',
          target: { type: 'settings', id: null },
          after: { index },
        });
      }
    });
    assert.deepEqual((await admin('GET', '/audit/verify')).json(), { ok: true, entries: 1501 });
    const victim = await db
      .selectFrom('audit_log')
      .select(['id', 'at', 'action'])
      .where('seq', '=', 1300)
      .executeTakeFirstOrThrow();
    await db.updateTable('audit_log').set({ after: '{"index":0}' }).where('id', '=', victim.id).execute();
    const verified = (await admin('GET', '/audit/verify')).json();
    assert.deepEqual([verified.ok, verified.broken_at.id, verified.broken_at.seq], [false, victim.id, 1300]);
  });

  it('lists entries newest first, filtered and paged, for audit.read holders only', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const { user: boss, cookies } = await loggedInUser(app, db, 'admin');
    const admin = callerFor(app, cookies);
    const start = clock.now();
    clock.advance(1000);
    assert.equal((await admin('PUT', '/settings', { business_name: 'A' })).statusCode, 200);
    clock.advance(1000);
    const waiter = await loggedInUser(app, db, 'waiter');
    clock.advance(1000);
    assert.equal((await admin('PUT', '/settings', { business_name: 'B' })).statusCode, 200);

    const all = await admin('GET', '/audit');
    assert.equal(all.statusCode, 200);
    assert.equal(all.headers['x-total-count'], '4');
    assert.deepEqual(
      all.json().map((entry: Entry) => entry.action),
      ['settings.updated', 'auth.login', 'settings.updated', 'auth.login'],
    );
    assert.deepEqual(all.json()[0].after.business_name, 'B');

    const settings = await admin('GET', '/audit?action=settings.updated&limit=1&offset=1');
    assert.equal(settings.headers['x-total-count'], '2');
    assert.deepEqual(
      settings.json().map((entry: Entry) => entry.after),
      [(await storedEntries(db, 'settings.updated'))[0]?.after],
    );
    const byWaiter = await admin('GET', `/audit?actor=${waiter.user.id}`);
    assert.deepEqual(
      byWaiter.json().map((entry: Entry) => [entry.action, entry.actor_id]),
      [['auth.login', waiter.user.id]],
    );
    const byName = await admin('GET', `/audit?actor=${encodeURIComponent(boss.name)}`);
    assert.equal(byName.headers['x-total-count'], '3');
    const window = await admin('GET', `/audit?from=${start + 500}&to=${start + 2500}`);
    assert.deepEqual(
      window.json().map((entry: Entry) => entry.action),
      ['auth.login', 'settings.updated'],
    );
    const none = await admin('GET', '/audit?action=order.deleted');
    assert.deepEqual([none.statusCode, none.body], [204, '']);
    assert.equal((await admin('GET', '/audit?limit=0')).statusCode, 400);

    const asWaiter = callerFor(app, waiter.cookies);
    for (const url of ['/audit', '/audit/verify']) {
      const refused = await asWaiter('GET', url);
      assert.deepEqual([refused.statusCode, refused.json()], [403, { message: 'Unauthorized API access' }]);
      assert.equal((await app.inject({ method: 'GET', url })).statusCode, 401);
    }
  });
});

describeEachDatabase('audit log of wallet payments', (target) => {
  it('records a sent payment once, without its preimage, even when a retry replays it', async (t) => {
    const { app, db, simulator } = await buildWalletTestApp(t, target, {
      simulator: { balanceSat: 500_000 },
    });
    const { user, walletCookies } = await unlockedAdmin(app, db);
    const invoice = simulator.node.createInvoice({
      amountSat: 5000,
      description: 'Supplier',
      expirySeconds: null,
      externalId: null,
    });
    const pay = () =>
      app.inject({
        method: 'POST',
        url: '/wallet/payinvoice',
        headers: { cookie: walletCookies, 'idempotency-key': 'supplier-1' },
        payload: { invoice: invoice.serialized },
      });
    const first = await pay();
    assert.equal(first.statusCode, 200, first.body);
    assert.equal((await pay()).statusCode, 200);
    const entry = await onlyEntry(db, 'wallet.payment_sent');
    assert.equal(entry.actor_id, user.id);
    const after = entry.after as Record<string, unknown>;
    assert.deepEqual(
      [after.kind, after.paymentHash, after.recipientAmountSat],
      ['invoice', first.json().paymentHash, first.json().recipientAmountSat],
    );
    assert.ok(!JSON.stringify(after).includes(first.json().paymentPreimage));
    assert.equal('paymentPreimage' in after, false);
  });
});

describeEachDatabase('audit log of Lightning refunds', (target) => {
  it('records a refund taken and then given back when the node refuses to pay it', async (t) => {
    const { app, db, simulator } = await buildWalletTestApp(t, target, {
      env: { POS_RATE_SOURCE: 'fixed:2000000' },
    });
    const { call, admin, orderId } = await billableOrder(app, db);
    const ticketId = await createBill(call, orderId, {});
    const payment = (await call('POST', `/tickets/${ticketId}/lightning`, {})).json();
    await simulator.receivePayment(payment.lightning.invoice);
    // Reading the payment asks the node, which settles it.
    assert.equal((await call('GET', `/payments/${payment.id}`)).json().status, 'settled');
    const invoice = simulator.node.createInvoice({
      amountSat: 3000,
      description: 'refund',
      expirySeconds: null,
      externalId: null,
    }).serialized;
    simulator.node.failNextPayment('no route');
    const refused = await admin('POST', `/payments/${payment.id}/refund`, { reason: 'x', invoice });
    assert.deepEqual([refused.statusCode, refused.json()], [400, { message: 'Payment failed: no route' }]);
    const entries = (await storedEntries(db)).filter((entry) => entry.target_type === 'payment');
    assert.deepEqual(
      entries.map((entry) => [entry.action, entry.target_id, (entry.after as { amount: number }).amount]),
      [
        ['payment.refunded', payment.id, 60],
        ['payment.refund_undone', payment.id, 60],
      ],
    );
    assert.deepEqual((await call('GET', '/audit/verify')).statusCode, 403);
  });
});
