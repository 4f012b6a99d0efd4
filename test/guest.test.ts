import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { LIGHTNING_SWEEP } from '../src/app';
import type { Db } from '../src/core/db/database';
import { describeEachDatabase } from './helpers/app';
import { billableOrder, createBill } from './helpers/checkout-factories';
import type { DatabaseTarget } from './helpers/database';
import { databaseDigest } from './helpers/db-digest';
import type { Caller } from './helpers/orders-factories';
import { buildWalletTestApp, listenForWebhooks } from './helpers/wallet-factories';

/** 1 BTC = 2,000,000.00: 1.00 is 50 sat. */
const ENV = { POS_RATE_SOURCE: 'fixed:2000000', POS_PUBLIC_URL: 'https://mesa.example.mx/' };

type TestContext = Parameters<typeof buildWalletTestApp>[0];

/** A pending bill of 10 + 20 + 30 = 60.00 and a guest link to it. */
async function guestBill(t: TestContext, target: DatabaseTarget, env: Record<string, string> = ENV) {
  const built = await buildWalletTestApp(t, target, { env });
  const bill = await billableOrder(built.app, built.db);
  const ticketId = await createBill(bill.call, bill.orderId, {});
  return { ...built, ...bill, ticketId };
}

async function mintLink(call: Caller, ticketId: string) {
  const minted = await call('POST', `/tickets/${ticketId}/guest-link`);
  assert.equal(minted.statusCode, 201, minted.body);
  return minted.json() as { token: string; url: string; expires_at: string };
}

/** A guest's phone: no cookie at all. */
function phone(app: FastifyInstance) {
  return (method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method, url, payload: payload as object, headers, remoteAddress: '203.0.113.7' });
}

function storedPayments(db: Db, ticketId: string) {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('ticket_id', '=', ticketId)
    .orderBy('created_at')
    .execute();
}

const NOT_FOUND = { message: 'Resource not found' };

describeEachDatabase('guest links and the guest API', (target) => {
  it('mints a link only with POS_PUBLIC_URL, stores only its hash, and shows the bill without staff data', async (t) => {
    const without = await guestBill(t, target, { POS_RATE_SOURCE: 'fixed:2000000' });
    const refused = await without.call('POST', `/tickets/${without.ticketId}/guest-link`);
    assert.deepEqual(
      [refused.statusCode, refused.json()],
      [503, { message: 'Guest links need POS_PUBLIC_URL' }],
    );

    const { app, db, call, ticketId } = await guestBill(t, target);
    const link = await mintLink(call, ticketId);
    assert.match(link.token, /^[A-Za-z0-9_-]{43}$/, '256 random bits');
    assert.equal(link.url, `https://mesa.example.mx/g/${link.token}`);
    assert.equal(link.expires_at, '2026-11-29T18:00:00.000Z', 'seven days at most');
    const stored = await db.selectFrom('guest_links').selectAll().execute();
    assert.equal(stored.length, 1);
    assert.ok(!JSON.stringify(stored).includes(link.token), 'the token itself is never stored');
    const second = await mintLink(call, ticketId);
    assert.notEqual(second.token, link.token);

    const guest = phone(app);
    const bill = await guest('GET', `/guest/${link.token}`);
    assert.equal(bill.statusCode, 200, bill.body);
    assert.equal(bill.headers['cache-control'], 'no-store');
    assert.equal(bill.headers['set-cookie'], undefined);
    const body = bill.json();
    assert.deepEqual(
      { ...body, plates: body.plates.map((plate: { price: number }) => plate.price) },
      {
        restaurant: 'Restaurant',
        table: null,
        waiter_first_name: body.waiter_first_name,
        currency: 'MXN',
        timezone: 'UTC',
        plates: [10, 20, 30],
        seats: [],
        subtotal: 60,
        discounts: 0,
        tax_included: 0,
        total: 60,
        paid: 0,
        balance: 60,
        payable: 60,
        status: 1,
        tip_suggestions: [10, 15, 20],
        max_tip_percent: 100,
        lightning: true,
        invoice: null,
      },
    );
    assert.deepEqual(Object.keys(body.plates[0]), ['name', 'options', 'seat', 'price']);
    assert.doesNotMatch(body.waiter_first_name, /\s/, 'the first name only');
    assert.equal((await guest('GET', `/guest/${second.token}`)).statusCode, 200, 'earlier links stay valid');
  });

  it("tells the page whether a Lightning node is configured, and the restaurant's time zone", async (t) => {
    const { app, call, ticketId } = await guestBill(t, target, {
      ...ENV,
      PHOENIXD_PASSWORD: '',
      POS_TIMEZONE: 'America/Mexico_City',
    });
    const guest = phone(app);
    const { token } = await mintLink(call, ticketId);
    const bill = (await guest('GET', `/guest/${token}`)).json();
    assert.deepEqual([bill.lightning, bill.timezone], [false, 'America/Mexico_City']);
    const refused = await guest('POST', `/guest/${token}/lightning`, {});
    assert.equal(refused.statusCode, 503, 'what the page no longer offers is indeed unavailable');
  });

  it('answers 404 alike for unknown, revoked and expired tokens', async (t) => {
    const { app, clock, call, ticketId } = await guestBill(t, target);
    const guest = phone(app);
    const unknown = await guest('GET', '/guest/not-a-token');
    assert.deepEqual([unknown.statusCode, unknown.json()], [404, NOT_FOUND]);
    assert.equal(unknown.headers['cache-control'], 'no-store');

    const revoked = await mintLink(call, ticketId);
    const revoke = await call('DELETE', `/tickets/${ticketId}/guest-link`);
    assert.equal(revoke.statusCode, 200, revoke.body);
    for (const url of [`/guest/${revoked.token}`, `/guest/${revoked.token}/receipt`]) {
      const answer = await guest('GET', url);
      assert.deepEqual([answer.statusCode, answer.json()], [404, NOT_FOUND], url);
    }
    const lightning = await guest('POST', `/guest/${revoked.token}/lightning`, {});
    assert.deepEqual([lightning.statusCode, lightning.json()], [404, NOT_FOUND]);

    const kept = await mintLink(call, ticketId);
    const paid = await call('POST', `/tickets/${ticketId}/payments`, { method: 'cash', amount: 60 });
    assert.equal(paid.statusCode, 201, paid.body);
    clock.advance(23 * 3600_000);
    const afterPaying = await guest('GET', `/guest/${kept.token}`);
    assert.deepEqual(
      [afterPaying.json().status, afterPaying.json().balance],
      [2, 0],
      'a day for the receipt',
    );
    assert.equal((await guest('GET', `/guest/${kept.token}/receipt`)).statusCode, 200);
    clock.advance(3600_000);
    assert.deepEqual((await guest('GET', `/guest/${kept.token}`)).json(), NOT_FOUND, 'then gone');

    const other = await guestBill(t, target);
    const long = await mintLink(other.call, other.ticketId);
    other.clock.advance(7 * 24 * 3600_000 - 1);
    assert.equal((await phone(other.app)('GET', `/guest/${long.token}`)).statusCode, 200);
    other.clock.advance(1);
    assert.deepEqual(
      (await phone(other.app)('GET', `/guest/${long.token}`)).json(),
      NOT_FOUND,
      'seven days at most',
    );
  });

  it('lets two phones pay parts at once, refuses a third beyond the balance, and settles each once', async (t) => {
    const { app, db, simulator, call, ticketId } = await guestBill(t, target);
    await listenForWebhooks(app, simulator);
    const { token } = await mintLink(call, ticketId);
    const guest = phone(app);
    const [first, second] = await Promise.all([
      guest('POST', `/guest/${token}/lightning`, { amount: 25, tip: 5 }),
      guest('POST', `/guest/${token}/lightning`, { amount: 30, tip: 3 }),
    ]);
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(second.statusCode, 201, second.body);
    assert.deepEqual([first.json().amount, first.json().tip, first.json().amount_sat], [25, 5, 1500]);
    assert.equal(first.headers['cache-control'], 'no-store');
    assert.equal((await guest('GET', `/guest/${token}`)).json().payable, 5, 'the balance less both invoices');
    const third = await guest('POST', `/guest/${token}/lightning`, { amount: 5.01 });
    assert.deepEqual([third.statusCode, third.json()], [400, { message: 'Amount exceeds the balance' }]);
    const tooMuchTip = await guest('POST', `/guest/${token}/lightning`, { amount: 5, tip: 5.01 });
    assert.deepEqual(
      [tooMuchTip.statusCode, tooMuchTip.json()],
      [400, { message: 'The tip is at most 100% of the amount' }],
    );
    const staffStill = await call('POST', `/tickets/${ticketId}/lightning`, {});
    assert.equal(staffStill.statusCode, 201, "the till's own invoice asks for what guests left");
    assert.equal(staffStill.json().amount, 5);

    for (const invoice of [first.json(), second.json()]) {
      const [webhook] = await (await simulator.receivePayment(invoice.bolt11)).webhooks;
      assert.equal(webhook?.status, 200);
    }
    const payments = await storedPayments(db, ticketId);
    const guests = payments.filter((payment) => payment.source === 'guest');
    assert.deepEqual(guests.map((payment) => [payment.status, payment.created_by, payment.shift_id]).sort(), [
      ['settled', null, null],
      ['settled', null, null],
    ]);
    const bill = (await guest('GET', `/guest/${token}`)).json();
    assert.deepEqual([bill.status, bill.paid, bill.balance], [1, 55, 5]);
    const view = (await call('GET', `/payments/${first.json().payment_id}`)).json();
    assert.deepEqual([view.source, view.created_by, view.status], ['guest', null, 'settled']);
    assert.equal((await call('GET', `/tickets/${ticketId}`)).json().tips, 8);
  });

  it("never lets the till's invoice and the guests' together ask for more than the bill, and lets the till withdraw a guest's", async (t) => {
    const { app, db, simulator, call, ticketId } = await guestBill(t, target);
    await listenForWebhooks(app, simulator);
    const { token } = await mintLink(call, ticketId);
    const guest = phone(app);
    const whole = await guest('POST', `/guest/${token}/lightning`, {});
    assert.equal(whole.statusCode, 201, whole.body);
    const guestInvoice = whole.json();
    const before = await databaseDigest(db);
    const tillAsks = await call('POST', `/tickets/${ticketId}/lightning`, {});
    assert.deepEqual(
      [tillAsks.statusCode, tillAsks.json()],
      [
        409,
        {
          message: `A guest's Lightning invoice is pending on this bill: payment ${guestInvoice.payment_id} for 60.00; 0.00 is left to ask for`,
        },
      ],
    );
    assert.equal(await databaseDigest(db), before, 'no second invoice');
    const tooMuch = await call('POST', `/tickets/${ticketId}/lightning`, { amount: 0.01 });
    assert.equal(tooMuch.statusCode, 409, tooMuch.body);

    const pending = (await call('GET', `/tickets/${ticketId}/payments`)).json();
    assert.deepEqual(
      pending.map((payment: { id: string; source: string; status: string }) => [
        payment.source,
        payment.status,
      ]),
      [['guest', 'pending']],
      'the till sees the guest’s pending invoice',
    );
    const cashierOnly = await call('POST', `/payments/${guestInvoice.payment_id}/cancel`);
    assert.equal(cashierOnly.statusCode, 200, cashierOnly.body);
    assert.equal(cashierOnly.json().status, 'expired');
    assert.deepEqual((await guest('GET', `/guest/${token}/payments/${guestInvoice.payment_id}`)).json(), {
      status: 'expired',
    });
    const again = await call('POST', `/payments/${guestInvoice.payment_id}/cancel`);
    assert.deepEqual(
      [again.statusCode, again.json()],
      [409, { message: 'This Lightning invoice is no longer pending' }],
    );
    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'target_id'])
      .where('action', '=', 'payment.canceled')
      .execute();
    assert.deepEqual(audit, [{ action: 'payment.canceled', target_id: guestInvoice.payment_id }]);

    const till = await call('POST', `/tickets/${ticketId}/lightning`, {});
    assert.equal(till.statusCode, 201, till.body);
    assert.equal(till.json().amount, 60);
    await (await simulator.receivePayment(till.json().lightning.invoice)).webhooks;
    const bill = (await call('GET', `/tickets/${ticketId}`)).json();
    assert.deepEqual([bill.status, bill.paid, bill.balance], [2, 60, 0]);
  });

  it("orders the till's and a guest's requests for the whole balance on the bill's lock: never more than the bill", async (t) => {
    const { app, db } = await guestBill(t, target);
    // Whichever takes the bill's lock first wins; each side starts first in turn, by more and more.
    for (let round = 0; round < 8; round += 1) {
      const { call, orderId } = await billableOrder(app, db);
      const ticketId = await createBill(call, orderId, {});
      const { token } = await mintLink(call, ticketId);
      const [guestDelay, tillDelay] = round % 2 === 0 ? [0, round] : [round, 0];
      const [fromGuest, fromTill] = await Promise.all([
        sleep(guestDelay).then(() => phone(app)('POST', `/guest/${token}/lightning`, {})),
        sleep(tillDelay).then(() => call('POST', `/tickets/${ticketId}/lightning`, {})),
      ]);
      const expected = fromGuest.statusCode === 201 ? [201, 409] : [400, 201];
      assert.deepEqual(
        [fromGuest.statusCode, fromTill.statusCode],
        expected,
        `${fromGuest.body} ${fromTill.body}`,
      );
      const asked = await db
        .selectFrom('payments')
        .select((eb) => eb.fn.sum<number>('amount_cents').as('cents'))
        .where('ticket_id', '=', ticketId)
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
      assert.equal(Number(asked.cents), 6000);
    }
  });

  it('settles a guest payment once by lookup or by the sweep, and answers a retried key with the same invoice', async (t) => {
    const { app, db, simulator, call, ticketId } = await guestBill(t, target);
    await listenForWebhooks(app, simulator);
    simulator.webhookMode = 'drop';
    const { token } = await mintLink(call, ticketId);
    const guest = phone(app);
    const headers = { 'idempotency-key': 'phone-1' };
    const asked = await guest('POST', `/guest/${token}/lightning`, { amount: 20 }, headers);
    assert.equal(asked.statusCode, 201, asked.body);
    const again = await guest('POST', `/guest/${token}/lightning`, { amount: 20 }, headers);
    assert.deepEqual([again.statusCode, again.json()], [201, asked.json()], 'a retry gets the same invoice');
    const reused = await guest('POST', `/guest/${token}/lightning`, { amount: 21 }, headers);
    assert.equal(reused.statusCode, 400);
    const rest = (await guest('POST', `/guest/${token}/lightning`, {})).json();
    assert.equal(rest.amount, 40, 'the amount defaults to what is payable');
    assert.equal((await storedPayments(db, ticketId)).length, 2);

    await simulator.receivePayment(asked.json().bolt11);
    await simulator.receivePayment(rest.bolt11);
    const looked = await call('GET', `/payments/${asked.json().payment_id}`);
    assert.equal(looked.json().status, 'settled', 'settled by lookup');
    await app.jobs.run(LIGHTNING_SWEEP);
    await app.jobs.run(LIGHTNING_SWEEP);
    const bill = (await guest('GET', `/guest/${token}`)).json();
    assert.deepEqual(
      [bill.status, bill.paid, bill.balance],
      [2, 60, 0],
      'settled by the sweep; the bill paid',
    );
    const settledEvents = await db
      .selectFrom('events')
      .select('type')
      .where('type', '=', 'payment.settled')
      .execute();
    assert.equal(settledEvents.length, 2, 'each payment settled once');
    const receipt = await guest('GET', `/guest/${token}/receipt`);
    assert.equal(receipt.statusCode, 200);
    assert.match(receipt.headers['content-type'] as string, /^text\/plain/);
    assert.match(receipt.body, /Lightning/);
    // The sats a wallet paid, at the rate, would tell its tip to every phone of the table.
    assert.doesNotMatch(receipt.body, /sat/);
    assert.match((await call('GET', `/tickets/${ticketId}/receipt`)).body, /sat/, 'the paper keeps them');
  });

  it("tells each seat's part of the total, the discount shared alike and adding up to the cent", async (t) => {
    const built = await buildWalletTestApp(t, target, { env: ENV });
    const { admin, orderId, dishIds } = await billableOrder(built.app, built.db, [1000, 2001, 3000]);
    const [ten, twenty] = dishIds as [string, string, string];
    await built.db.updateTable('order_dishes').set({ seat: 2 }).where('id', '=', ten).execute();
    await built.db.updateTable('order_dishes').set({ seat: 1 }).where('id', '=', twenty).execute();
    const ticketId = await createBill(admin, orderId, {
      discount: { type: 'percent', value: 10, reason: 'Regulars' },
    });
    const { token } = await mintLink(admin, ticketId);
    const bill = (await phone(built.app)('GET', `/guest/${token}`)).json();
    // 60.01 less 10 % is 54.01: seat 1 is 20.01 of it (18.0078), seat 2 10.00 (9.00), no seat 30.00
    // (27.0005); the cent the floors leave goes to the largest remainder, seat 1's.
    assert.equal(bill.total, 54.01);
    assert.deepEqual(bill.seats, [
      { seat: 1, total: 18.01 },
      { seat: 2, total: 9 },
    ]);
  });

  it('leaves the tips and the cash handed over out of the digital ticket every phone reads', async (t) => {
    const { app, call, ticketId } = await guestBill(t, target);
    const cash = await call('POST', `/tickets/${ticketId}/payments`, {
      method: 'cash',
      amount: 20,
      tip: 3,
      tendered: 50,
    });
    assert.equal(cash.statusCode, 201, cash.body);
    const paper = (await call('GET', `/tickets/${ticketId}/receipt?width=48`)).body;
    for (const word of ['Propina', 'Total con propina', 'Efectivo recibido', 'Cambio']) {
      assert.match(paper, new RegExp(word), `the paper has ${word}`);
    }
    const { token } = await mintLink(call, ticketId);
    const receipt = (await phone(app)('GET', `/guest/${token}/receipt`)).body;
    assert.match(receipt, /Efectivo +\$20\.00/);
    assert.doesNotMatch(receipt, /Propina|propina|recibido|Cambio|\$3\.00|\$50\.00|\$27\.00/);
  });

  it('names the waiter by first name only, on the page and on the digital ticket', async (t) => {
    const { app, db, call, ticketId, orderId } = await guestBill(t, target);
    await db.updateTable('orders').set({ waiter: 'Rosa María López' }).where('id', '=', orderId).execute();
    const { token } = await mintLink(call, ticketId);
    const guest = phone(app);
    assert.equal((await guest('GET', `/guest/${token}`)).json().waiter_first_name, 'Rosa');
    const receipt = (await guest('GET', `/guest/${token}/receipt`)).body;
    assert.match(receipt, /\bRosa\b/);
    assert.doesNotMatch(receipt, /López|María/);
  });

  it('tells a guest whether their own invoice was paid, expired, or is none of theirs', async (t) => {
    const { app, db, clock, simulator, call, ticketId } = await guestBill(t, target);
    await listenForWebhooks(app, simulator);
    const { token } = await mintLink(call, ticketId);
    const guest = phone(app);
    const statusOf = async (paymentId: string, linkToken = token) => {
      const answer = await guest('GET', `/guest/${linkToken}/payments/${paymentId}`);
      assert.equal(answer.headers['cache-control'], 'no-store');
      return [answer.statusCode, answer.json()];
    };
    const mine = (await guest('POST', `/guest/${token}/lightning`, { amount: 20, tip: 2 })).json();
    const friends = (await guest('POST', `/guest/${token}/lightning`, { amount: 10 })).json();
    assert.deepEqual(await statusOf(mine.payment_id), [200, { status: 'pending' }]);

    const [webhook] = await (await simulator.receivePayment(mine.bolt11)).webhooks;
    assert.equal(webhook?.status, 200);
    assert.deepEqual(await statusOf(mine.payment_id), [200, { status: 'settled' }]);
    assert.deepEqual(await statusOf(friends.payment_id), [200, { status: 'pending' }], 'each its own');

    const staff = await call('POST', `/tickets/${ticketId}/lightning`, { amount: 5 });
    assert.equal(staff.statusCode, 201, staff.body);
    assert.deepEqual(
      await statusOf(staff.json().id),
      [404, NOT_FOUND],
      "the till's payments are not a guest's",
    );
    // Another bill of the same restaurant, on the same database: only the bill check refuses it.
    const other = await billableOrder(app, db);
    const otherLink = await mintLink(other.call, await createBill(other.call, other.orderId, {}));
    assert.deepEqual(await statusOf(mine.payment_id, otherLink.token), [404, NOT_FOUND], 'another bill');
    assert.deepEqual(await statusOf(mine.payment_id, 'not-a-token'), [404, NOT_FOUND]);

    clock.advance(Date.parse(friends.expires_at) - clock.now());
    assert.deepEqual(await statusOf(friends.payment_id), [200, { status: 'expired' }], 'no longer payable');
  });

  it('refuses a negative tip by its schema, before anything reaches the database or the node', async (t) => {
    const { app, db, simulator, call, ticketId } = await guestBill(t, target);
    const { token } = await mintLink(call, ticketId);
    const before = await databaseDigest(db);
    const refused = await phone(app)(
      'POST',
      `/guest/${token}/lightning`,
      { amount: 10, tip: -1 },
      {
        'idempotency-key': 'negative-tip-1',
      },
    );
    assert.equal(refused.statusCode, 400, refused.body);
    assert.equal(refused.json().message, 'Validation failed');
    assert.match(JSON.stringify(refused.json().details), /tip/);
    assert.equal(await databaseDigest(db), before, 'no payment, no idempotency key');
    assert.deepEqual(simulator.received, []);
  });

  it('refuses a guest invoice on a canceled bill and on a bill refunded in full', async (t) => {
    const { app, db, simulator, call, admin, ticketId, orderId } = await guestBill(t, target);
    const guest = phone(app);
    const { token } = await mintLink(call, ticketId);
    const canceled = await call('POST', `/tickets/${ticketId}/cancel`);
    assert.equal(canceled.statusCode, 200, canceled.body);
    const onCanceled = await guest('POST', `/guest/${token}/lightning`, {});
    assert.deepEqual([onCanceled.statusCode, onCanceled.json()], [400, { message: 'Ticket is canceled' }]);

    const refundedId = await createBill(call, orderId, {});
    const cash = await call('POST', `/tickets/${refundedId}/payments`, { method: 'cash', amount: 60 });
    assert.equal(cash.statusCode, 201, cash.body);
    const refund = await admin('POST', `/payments/${cash.json().id}/refund`, { reason: 'Platillo frío' });
    assert.equal(refund.statusCode, 201, refund.body);
    const refundedLink = await mintLink(call, refundedId);
    const refundedBill = (await guest('GET', `/guest/${refundedLink.token}`)).json();
    assert.deepEqual([refundedBill.status, refundedBill.paid], [2, 0], 'paid back in full, still Paid');
    const onRefunded = await guest('POST', `/guest/${refundedLink.token}/lightning`, { amount: 60 });
    assert.deepEqual(
      [onRefunded.statusCode, onRefunded.json()],
      [400, { message: 'Ticket is already paid' }],
    );

    const guestPayments = await db
      .selectFrom('payments')
      .select('id')
      .where('source', '=', 'guest')
      .execute();
    assert.deepEqual(guestPayments, []);
    assert.deepEqual(simulator.received, []);
  });

  it('never lets a guest token through a staff route, and limits requests per token', async (t) => {
    const { app, call, ticketId } = await guestBill(t, target);
    const { token } = await mintLink(call, ticketId);
    const document = app.swagger() as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    let staffRoutes = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!operation.security || operation.security.length === 0) continue;
        staffRoutes += 1;
        const url = path.replace(/\{[^}]+\}/g, ticketId);
        for (const headers of [
          { cookie: `accessToken=${token}` },
          { authorization: `Bearer ${token}` },
          { 'x-guest-token': token },
        ]) {
          const answer = await app.inject({
            method: method.toUpperCase() as 'GET',
            url,
            headers,
            payload: {},
          });
          assert.equal(answer.statusCode, 401, `${method} ${path} with ${Object.keys(headers)[0]}`);
        }
      }
    }
    assert.ok(staffRoutes > 100, `${staffRoutes} staff routes tried`);

    const guest = phone(app);
    for (let request = 1; request <= 240; request += 1) {
      const answer = await guest('GET', `/guest/${token}`);
      assert.equal(answer.statusCode, 200, `request ${request}`);
    }
    const limited = await guest('GET', `/guest/${token}`);
    assert.deepEqual([limited.statusCode, limited.json()], [429, { message: 'Too many requests' }]);
    assert.ok(Number(limited.headers['retry-after']) > 0);
    const other = await mintLink(call, ticketId);
    assert.equal(
      (await guest('GET', `/guest/${other.token}`)).statusCode,
      200,
      'another token has its own budget',
    );
  });

  it('puts a link of its own on the guest check and the paid receipt, none without POS_PUBLIC_URL', async (t) => {
    const { app, call, ticketId } = await guestBill(t, target);
    const check = await call('GET', `/tickets/${ticketId}/receipt?width=48`);
    assert.equal(check.statusCode, 200, check.body);
    const lines = check.body.split('\n');
    const at = lines.findIndex((line) => line.startsWith('https://mesa.example.mx/g/'));
    assert.ok(at > 0, check.body);
    const url = lines
      .slice(at, at + 2)
      .join('')
      .trim();
    const token = url.slice('https://mesa.example.mx/g/'.length);
    const opened = await phone(app)('GET', `/guest/${token}`);
    assert.deepEqual(
      [opened.statusCode, opened.json().balance],
      [200, 60],
      'the printed link opens the bill',
    );
    const escpos = await call('GET', `/tickets/${ticketId}/receipt?format=escpos`);
    assert.ok(escpos.rawPayload.indexOf(Buffer.from([0x1d, 0x28, 0x6b])) > 0, 'an ESC/POS QR code');

    const without = await guestBill(t, target, { POS_RATE_SOURCE: 'fixed:2000000' });
    const plain = await without.call('GET', `/tickets/${without.ticketId}/receipt`);
    assert.doesNotMatch(plain.body, /\/g\//);
  });
});
