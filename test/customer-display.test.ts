import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../src/core/db/database';
import { describeEachDatabase } from './helpers/app';
import { loggedInUser, login } from './helpers/auth';
import { billableOrder, createBill } from './helpers/checkout-factories';
import { insertUser } from './helpers/factories';
import { type Caller, callerFor } from './helpers/orders-factories';
import { buildWalletTestApp } from './helpers/wallet-factories';

const NOT_PAIRED = { cashier: null, bill: null, lightning: null };

async function displayDevice(app: FastifyInstance, db: Db): Promise<Caller> {
  return callerFor(app, (await loggedInUser(app, db, 'display')).cookies);
}

/** The till's code typed on the display: 200 with the cashier's name. */
async function pairWith(till: Caller, display: Caller): Promise<string> {
  const created = await till('POST', '/displays/pairing-code');
  assert.equal(created.statusCode, 201, created.body);
  const paired = await display('POST', '/displays/pair', { code: created.json().code });
  assert.equal(paired.statusCode, 200, paired.body);
  return paired.json().cashier;
}

describeEachDatabase('customer display', (target) => {
  it('pairs by the till code and shows the bill being paid, its Lightning QR, then paid', async (t) => {
    const { app, db } = await buildWalletTestApp(t, target, { env: { POS_RATE_SOURCE: 'fixed:2000000' } });
    const cashier = await insertUser(db, { role: 'cashier', name: 'Carla' });
    const till = callerFor(app, await login(app, cashier.name, cashier.pin));
    const { orderId } = await billableOrder(app, db);
    const ticketId = await createBill(till, orderId, {});
    const display = await displayDevice(app, db);
    assert.deepEqual((await display('GET', '/displays/current')).json(), NOT_PAIRED);

    const created = await till('POST', '/displays/pairing-code');
    assert.equal(created.statusCode, 201);
    const { code, expires_at } = created.json();
    assert.match(code, /^[0-9]{6}$/);
    assert.equal(expires_at, '2026-11-22T18:05:00.000Z');
    const wrong = code === '000000' ? '000001' : '000000';
    assert.deepEqual((await display('POST', '/displays/pair', { code: wrong })).json(), {
      message: 'Unknown or expired pairing code',
    });
    const paired = await display('POST', '/displays/pair', { code });
    assert.deepEqual([paired.statusCode, paired.json()], [200, { cashier: 'Carla' }]);
    const again = await (await displayDevice(app, db))('POST', '/displays/pair', { code });
    assert.deepEqual([again.statusCode, again.json()], [400, { message: 'Unknown or expired pairing code' }]);
    assert.deepEqual((await display('GET', '/displays/current')).json(), { ...NOT_PAIRED, cashier: 'Carla' });

    assert.equal((await till('PUT', '/displays/till', { ticket_id: ticketId })).statusCode, 204);
    const shown = await display('GET', '/displays/current');
    assert.equal(shown.headers['cache-control'], 'no-store');
    assert.deepEqual(shown.json(), {
      cashier: 'Carla',
      bill: { id: ticketId, status: 1, total: 60, paid: 0, balance: 60 },
      lightning: null,
    });

    const lightning = (await till('POST', `/tickets/${ticketId}/lightning`, { amount: 20 })).json();
    const put = await till('PUT', '/displays/till', { ticket_id: ticketId, payment_id: lightning.id });
    assert.equal(put.statusCode, 204, put.body);
    assert.deepEqual((await display('GET', '/displays/current')).json().lightning, {
      payment_id: lightning.id,
      status: 'pending',
      amount: 20,
      tip: 0,
      amount_sat: 1000,
      invoice: lightning.lightning.invoice,
      expires_at: lightning.lightning.expires_at,
    });

    // The guest pays in cash after all: the till shows the bill alone, and the display sees it paid.
    assert.equal(
      (await till('PUT', '/displays/till', { ticket_id: ticketId, payment_id: null })).statusCode,
      204,
    );
    const cash = await till('POST', `/tickets/${ticketId}/payments`, { method: 'cash', amount: 60 });
    assert.equal(cash.statusCode, 201, cash.body);
    assert.deepEqual((await display('GET', '/displays/current')).json(), {
      cashier: 'Carla',
      bill: { id: ticketId, status: 2, total: 60, paid: 60, balance: 0 },
      lightning: null,
    });
    assert.equal((await till('PUT', '/displays/till', { ticket_id: null })).statusCode, 204);
    assert.deepEqual((await display('GET', '/displays/current')).json(), { ...NOT_PAIRED, cashier: 'Carla' });
  });

  it("shows a display only its own till's bill; a display reads no bill and runs no till", async (t) => {
    const { app, db, clock } = await buildWalletTestApp(t, target);
    const { orderId } = await billableOrder(app, db);
    const firstCashier = await insertUser(db, { role: 'cashier' });
    const first = callerFor(app, await login(app, firstCashier.name, firstCashier.pin));
    const second = callerFor(app, (await loggedInUser(app, db, 'cashier')).cookies);
    const firstBill = await createBill(first, orderId, { amount: 10 });
    const secondBill = await createBill(second, orderId, { amount: 20 });
    const [firstDisplay, secondDisplay, unpaired] = [
      await displayDevice(app, db),
      await displayDevice(app, db),
      await displayDevice(app, db),
    ];
    await pairWith(first, firstDisplay);
    await pairWith(second, secondDisplay);
    await first('PUT', '/displays/till', { ticket_id: firstBill });
    await second('PUT', '/displays/till', { ticket_id: secondBill });
    assert.equal((await firstDisplay('GET', '/displays/current')).json().bill.id, firstBill);
    assert.equal((await secondDisplay('GET', '/displays/current')).json().bill.id, secondBill);
    assert.deepEqual((await unpaired('GET', '/displays/current')).json(), NOT_PAIRED);

    for (const [method, path, body] of [
      ['GET', `/tickets/${firstBill}`, undefined],
      ['GET', `/tickets/${firstBill}/payments`, undefined],
      ['POST', '/displays/pairing-code', undefined],
      ['PUT', '/displays/till', { ticket_id: firstBill }],
    ] as const) {
      assert.equal((await firstDisplay(method, path, body)).statusCode, 403, `${method} ${path}`);
    }
    assert.equal((await first('GET', '/displays/current')).statusCode, 403);
    assert.equal((await first('POST', '/displays/pair', { code: '123456' })).statusCode, 403);

    const unknown = '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e';
    assert.equal((await first('PUT', '/displays/till', { ticket_id: unknown })).statusCode, 404);
    const cash = (
      await first('POST', `/tickets/${firstBill}/payments`, { method: 'cash', amount: 5 })
    ).json();
    for (const body of [
      { ticket_id: firstBill, payment_id: cash.id },
      { ticket_id: secondBill, payment_id: cash.id },
      { ticket_id: null, payment_id: cash.id },
    ]) {
      assert.equal((await first('PUT', '/displays/till', body)).statusCode, 400, JSON.stringify(body));
    }

    // A code lives five minutes, and a new one replaces the till's earlier one.
    const stale = (await first('POST', '/displays/pairing-code')).json().code;
    clock.advance(5 * 60 * 1000);
    // Sessions do not outlive the clock moving by minutes: both log in again.
    const till = callerFor(app, await login(app, firstCashier.name, firstCashier.pin));
    const display = await displayDevice(app, db);
    assert.equal((await display('POST', '/displays/pair', { code: stale })).statusCode, 400);
    const replaced = (await till('POST', '/displays/pairing-code')).json().code;
    const latest = (await till('POST', '/displays/pairing-code')).json().code;
    if (replaced !== latest) {
      assert.equal((await display('POST', '/displays/pair', { code: replaced })).statusCode, 400);
    }
    assert.equal((await display('POST', '/displays/pair', { code: latest })).statusCode, 200);
    assert.equal((await display('GET', '/displays/current')).json().bill.id, firstBill);
  });

  it('limits wrong pairing codes per display as PINs are: the eleventh try in ten minutes waits, even with the right code', async (t) => {
    const { app, db, clock } = await buildWalletTestApp(t, target);
    const cashier = await insertUser(db, { role: 'cashier' });
    const till = callerFor(app, await login(app, cashier.name, cashier.pin));
    const display = await displayDevice(app, db);
    const { code } = (await till('POST', '/displays/pairing-code')).json();
    const wrongCodes = Array.from({ length: 10 }, (_, index) =>
      String((Number(code) + 1 + index) % 1_000_000).padStart(6, '0'),
    );
    for (const wrong of wrongCodes) {
      assert.equal((await display('POST', '/displays/pair', { code: wrong })).statusCode, 400);
    }
    const refused = await display('POST', '/displays/pair', { code });
    assert.equal(refused.statusCode, 429, refused.body);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assert.deepEqual((await display('GET', '/displays/current')).json(), NOT_PAIRED, 'nothing paired');

    clock.advance(10 * 60 * 1000);
    const later = callerFor(app, (await loggedInUser(app, db, 'display')).cookies);
    const freshCode = (
      await callerFor(app, await login(app, cashier.name, cashier.pin))('POST', '/displays/pairing-code')
    ).json().code;
    assert.equal((await later('POST', '/displays/pair', { code: freshCode })).statusCode, 200);
  });

  it('seeds the display role with display.view alone', async (t) => {
    const { app, db } = await buildWalletTestApp(t, target);
    const admin = callerFor(app, (await loggedInUser(app, db, 'admin')).cookies);
    const roles = (await admin('GET', '/roles')).json() as { name: string; permissions: string[] }[];
    assert.deepEqual(roles.find((role) => role.name === 'display')?.permissions, ['display.view']);
  });
});
