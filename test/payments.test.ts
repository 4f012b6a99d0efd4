import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { billableOrder, createBill, storedEvents } from './helpers/checkout-factories';
import { databaseDigest } from './helpers/db-digest';
import { storedOrder } from './helpers/orders-factories';

const UNKNOWN_ID = '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e';

describeEachDatabase('payments', (target) => {
  it('takes cash with tendered money and answers the change', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId } = await billableOrder(app, db);
    const ticketId = await createBill(call, orderId, { amount: 17.3 });
    const response = await call('POST', `/tickets/${ticketId}/payments`, {
      method: 'cash',
      amount: 17.3,
      tip: 2,
      tendered: 20,
    });
    assert.equal(response.statusCode, 201);
    const { id, ...rest } = response.json();
    assert.deepEqual(rest, { message: 'Payment recorded successfully', ticket_status: 2, change: 0.7 });
    const payment = await call('GET', `/payments/${id}`);
    assert.equal(payment.statusCode, 200);
    const { created_by, ...view } = payment.json();
    assert.deepEqual(view, {
      id,
      ticket_id: ticketId,
      method: 'cash',
      amount: 17.3,
      tip: 2,
      status: 'settled',
      source: 'staff',
      created_at: '2026-11-22T18:00:00.000Z',
      settled_at: '2026-11-22T18:00:00.000Z',
    });
    assert.equal(typeof created_by, 'string');
    const ticket = (await call('GET', `/tickets/${ticketId}`)).json();
    assert.deepEqual(
      [ticket.status, ticket.paid, ticket.tips, ticket.balance, ticket.paid_at],
      [2, 17.3, 2, 0, '2026-11-22T18:00:00.000Z'],
    );
    const stored = await db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    assert.deepEqual([Number(stored.tendered_cents), Number(stored.change_cents)], [2000, 70]);
  });

  it('closes a bill exactly with mixed tender: part cash, part card', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const { call, orderId } = await billableOrder(app, db);
    const ticketId = await createBill(call, orderId, {});
    const cash = await call('POST', `/tickets/${ticketId}/payments`, { method: 'cash', amount: 20.01 });
    assert.deepEqual([cash.statusCode, cash.json().ticket_status, cash.json().change], [201, 1, 0]);
    assert.equal((await call('GET', `/tickets/${ticketId}`)).json().balance, 39.99);
    const before = await databaseDigest(db);
    const over = await call('POST', `/tickets/${ticketId}/payments`, { method: 'card', amount: 40 });
    assert.equal(over.statusCode, 400);
    assert.deepEqual(over.json(), { message: 'Amount exceeds the balance' });
    assert.equal(await databaseDigest(db), before);
    clock.advance(1000);
    const card = await call('POST', `/tickets/${ticketId}/payments`, {
      method: 'card',
      amount: 39.99,
      tip: 5,
    });
    assert.deepEqual([card.statusCode, card.json().ticket_status], [201, 2]);
    const ticket = (await call('GET', `/tickets/${ticketId}`)).json();
    assert.deepEqual([ticket.status, ticket.paid, ticket.balance, ticket.tips], [2, 60, 0, 5]);
    const order = await storedOrder(db, orderId);
    assert.equal(Number(order.paid_cents), 6000, 'tips are not part of what the order is paid');
    const payments = await call('GET', `/tickets/${ticketId}/payments`);
    assert.deepEqual(
      payments.json().map((payment: { method: string; amount: number }) => [payment.method, payment.amount]),
      [
        ['cash', 20.01],
        ['card', 39.99],
      ],
    );
    const paidAgain = await call('POST', `/tickets/${ticketId}/payments`, { method: 'card', amount: 1 });
    assert.deepEqual(paidAgain.json(), { message: 'Ticket is already paid' });
  });

  it('refuses bad payments and changes nothing', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, admin, orderId } = await billableOrder(app, db);
    const ticketId = await createBill(call, orderId, { amount: 30 });
    const canceled = await createBill(call, orderId, { amount: 5 });
    await call('POST', `/tickets/${canceled}/cancel`);
    const methods = (await call('GET', '/payment-methods')).json();
    const card = methods.find((method: { code: string }) => method.code === 'card');
    await admin('PUT', `/payment-methods/${card.id}`, { is_active: false });
    const before = await databaseDigest(db);
    const cases: [string, unknown, string][] = [
      [
        ticketId,
        { method: 'lightning', amount: 5 },
        `Lightning payments are requested with POST /tickets/${ticketId}/lightning`,
      ],
      [ticketId, { method: 'card', amount: 5 }, 'Unknown or inactive payment method: card'],
      [ticketId, { method: 'barter', amount: 5 }, 'Unknown or inactive payment method: barter'],
      [ticketId, { method: 'cash', amount: 5, tip: 1, tendered: 5.99 }, 'Tendered must cover amount and tip'],
      [ticketId, { method: 'transfer', amount: 5, tendered: 10 }, 'Only cash takes tendered'],
      [ticketId, { method: 'cash', amount: 30.01 }, 'Amount exceeds the balance'],
      [canceled, { method: 'cash', amount: 1 }, 'Ticket is canceled'],
    ];
    for (const [id, body, message] of cases) {
      const response = await call('POST', `/tickets/${id}/payments`, body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      assert.deepEqual(response.json(), { message });
    }
    for (const body of [{ method: 'cash', amount: 0 }, { method: 'cash' }, { method: 'Cash!', amount: 1 }]) {
      const response = await call('POST', `/tickets/${ticketId}/payments`, body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
    }
    assert.equal(
      (await call('POST', `/tickets/${UNKNOWN_ID}/payments`, { method: 'cash', amount: 1 })).statusCode,
      404,
    );
    assert.equal((await call('GET', `/payments/${UNKNOWN_ID}`)).statusCode, 404);
    assert.equal((await call('GET', `/tickets/${UNKNOWN_ID}/payments`)).statusCode, 404);
    assert.equal((await call('GET', `/tickets/${ticketId}/payments`)).statusCode, 204);
    assert.equal(await databaseDigest(db), before);
  });

  it('lists the seeded methods; an administrator adds, renames and deactivates them', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, admin, orderId } = await billableOrder(app, db);
    const seeded = (await call('GET', '/payment-methods')).json();
    assert.deepEqual(
      seeded.map(({ code, name, is_active }: { code: string; name: string; is_active: boolean }) => [
        code,
        name,
        is_active,
      ]),
      [
        ['card', 'Card'],
        ['cash', 'Cash'],
        ['lightning', 'Lightning'],
        ['rappi', 'Rappi'],
        ['ubereats', 'Uber Eats'],
        ['card_terminal', 'Mercado Pago Point'],
      ].map(([code, name]) => [code, name, true]),
    );
    const before = await databaseDigest(db);
    assert.equal(
      (await call('POST', '/payment-methods', { code: 'voucher', name: 'Voucher' })).statusCode,
      403,
    );
    const duplicate = await admin('POST', '/payment-methods', { code: 'cash', name: 'Cash again' });
    assert.equal(duplicate.statusCode, 400);
    assert.deepEqual(duplicate.json(), { message: 'Payment method with code: cash already exists' });
    assert.equal(
      (await admin('PUT', `/payment-methods/${UNKNOWN_ID}`, { is_active: false })).statusCode,
      404,
    );
    assert.equal(await databaseDigest(db), before);

    const created = await admin('POST', '/payment-methods', { code: 'transfer', name: 'Bank transfer' });
    assert.equal(created.statusCode, 201);
    assert.equal(created.json().message, 'Payment method created successfully');
    const ticketId = await createBill(call, orderId, { amount: 10 });
    const paid = await call('POST', `/tickets/${ticketId}/payments`, { method: 'transfer', amount: 4 });
    assert.equal(paid.statusCode, 201);
    const renamed = await admin('PUT', `/payment-methods/${created.json().id}`, {
      name: 'Transfer',
      is_active: false,
    });
    assert.deepEqual(renamed.json(), { message: 'Payment method updated successfully' });
    const listed = (await call('GET', '/payment-methods')).json();
    assert.deepEqual(
      listed.find((method: { code: string }) => method.code === 'transfer'),
      { id: created.json().id, code: 'transfer', name: 'Transfer', is_active: false },
    );
    const refused = await call('POST', `/tickets/${ticketId}/payments`, { method: 'transfer', amount: 1 });
    assert.deepEqual(refused.json(), { message: 'Unknown or inactive payment method: transfer' });
    assert.equal((await call('GET', `/payments/${paid.json().id}`)).json().method, 'transfer');
  });

  it('answers a retried payment with the first answer and records it once', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId } = await billableOrder(app, db);
    const ticketId = await createBill(call, orderId, {});
    const key = { 'idempotency-key': 'pay-1' };
    const body = { method: 'cash', amount: 10, tendered: 20 };
    const first = await call('POST', `/tickets/${ticketId}/payments`, body, key);
    const retry = await call('POST', `/tickets/${ticketId}/payments`, body, key);
    assert.equal(retry.statusCode, 201);
    assert.deepEqual(retry.json(), first.json());
    assert.equal((await db.selectFrom('payments').selectAll().execute()).length, 1);
    assert.equal((await call('GET', `/tickets/${ticketId}`)).json().paid, 10);
  });
});

describeEachDatabase('checkout events', (target) => {
  it('writes one event per change with the record as its GET shows it', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId } = await billableOrder(app, db);
    const canceled = await createBill(call, orderId, { amount: 10 });
    await call('POST', `/tickets/${canceled}/cancel`);
    const ticketId = await createBill(call, orderId, {});
    const partial = (
      await call('POST', `/tickets/${ticketId}/payments`, { method: 'cash', amount: 50 })
    ).json().id;
    const last = (await call('POST', `/tickets/${ticketId}/payments`, { method: 'card', amount: 10 })).json()
      .id;

    const events = (await storedEvents(db)).filter((event) => event.topic !== 'orders');
    assert.deepEqual(
      events.map((event) => [event.type, event.topic, event.payload.data.id]),
      [
        ['ticket.created', 'tickets', canceled],
        ['ticket.canceled', 'tickets', canceled],
        ['ticket.created', 'tickets', ticketId],
        ['payment.settled', 'payments', partial],
        ['payment.settled', 'payments', last],
        ['ticket.paid', 'tickets', ticketId],
      ],
    );
    assert.ok(events.every((event, index) => index === 0 || event.id > (events[index - 1]?.id ?? 0)));
    const paidEvent = events.at(-1);
    assert.deepEqual(paidEvent?.payload, {
      type: 'ticket.paid',
      at: Date.UTC(2026, 10, 22, 18, 0, 0),
      data: (await call('GET', `/tickets/${ticketId}`)).json(),
    });
    assert.deepEqual(events[4]?.payload.data, (await call('GET', `/payments/${last}`)).json());
    assert.equal(events[1]?.payload.data.status, 3);
  });

  it('writes no event when the change rolls back after recording it', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId } = await billableOrder(app, db);
    const ticketId = await createBill(call, orderId, { amount: 10 });
    const before = await databaseDigest(db);
    // Cancelling the order cancels its pending bill (and records that) before the unknown table
    // refuses the whole change.
    const response = await call('PUT', `/orders/${orderId}`, { status: 'cancelled', table_id: UNKNOWN_ID });
    assert.equal(response.statusCode, 400);
    assert.equal(await databaseDigest(db), before);
    assert.deepEqual(
      (await storedEvents(db)).map((event) => event.type),
      ['order.created', 'ticket.created'],
    );
    assert.equal((await call('GET', `/tickets/${ticketId}`)).json().status, 1);
  });
});

describeEachDatabase('refunds', (target) => {
  it('refunds part then the rest of a cash payment; the Paid bill stays Paid with paid 0', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, admin, orderId } = await billableOrder(app, db);
    const ticketId = await createBill(call, orderId, {});
    const paymentId = (
      await call('POST', `/tickets/${ticketId}/payments`, { method: 'cash', amount: 60, tip: 4 })
    ).json().id;
    const before = await databaseDigest(db);
    assert.equal(
      (await call('POST', `/payments/${paymentId}/refund`, { amount: 1, reason: 'Cold soup' })).statusCode,
      403,
    );
    const tooMuch = await admin('POST', `/payments/${paymentId}/refund`, { amount: 60.01, reason: 'x' });
    assert.equal(tooMuch.statusCode, 400);
    assert.deepEqual(tooMuch.json(), { message: 'Amount exceeds what is left of the payment' });
    assert.equal((await admin('POST', `/payments/${paymentId}/refund`, { amount: 1 })).statusCode, 400);
    assert.equal((await admin('POST', `/payments/${UNKNOWN_ID}/refund`, { reason: 'x' })).statusCode, 404);
    assert.equal(await databaseDigest(db), before);

    const part = await admin('POST', `/payments/${paymentId}/refund`, { amount: 15.5, reason: 'Cold soup' });
    assert.equal(part.statusCode, 201);
    assert.equal(part.json().message, 'Refund recorded successfully');
    assert.equal(part.json().payment_status, 'partially_refunded');
    let ticket = (await call('GET', `/tickets/${ticketId}`)).json();
    assert.deepEqual([ticket.status, ticket.paid, ticket.balance, ticket.tips], [2, 44.5, 15.5, 4]);
    const order = (await call('GET', `/orders/${orderId}`)).json();
    assert.deepEqual([order.paid, order.balance], [44.5, 0], 'a refund after the sale is not owed again');

    const rest = await admin('POST', `/payments/${paymentId}/refund`, { reason: 'Closed by mistake' });
    assert.deepEqual([rest.statusCode, rest.json().payment_status], [201, 'refunded']);
    ticket = (await call('GET', `/tickets/${ticketId}`)).json();
    assert.deepEqual([ticket.status, ticket.paid, ticket.balance], [2, 0, 60]);
    assert.equal((await call('GET', `/payments/${paymentId}`)).json().status, 'refunded');
    const again = await admin('POST', `/payments/${paymentId}/refund`, { reason: 'x' });
    assert.deepEqual(again.json(), { message: 'A refunded payment cannot be refunded' });
    const stored = await db.selectFrom('refunds').selectAll().orderBy('amount_cents').execute();
    assert.deepEqual(
      stored.map((refund) => [Number(refund.amount_cents), refund.reason]),
      [
        [1550, 'Cold soup'],
        [4450, 'Closed by mistake'],
      ],
    );
    const events = (await storedEvents(db)).filter((event) => event.type === 'payment.refunded');
    assert.deepEqual(
      events.map((event) => event.payload.data.status),
      ['partially_refunded', 'refunded'],
    );
    assert.deepEqual(events[1]?.payload.data, (await call('GET', `/payments/${paymentId}`)).json());
  });

  it('lets a bill whose payments were refunded be cancelled', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, admin, orderId } = await billableOrder(app, db);
    const ticketId = await createBill(call, orderId, {});
    const paymentId = (
      await call('POST', `/tickets/${ticketId}/payments`, { method: 'card', amount: 10 })
    ).json().id;
    await admin('POST', `/payments/${paymentId}/refund`, { reason: 'Wrong bill' });
    assert.equal((await call('POST', `/tickets/${ticketId}/cancel`)).statusCode, 200);
    assert.equal((await call('DELETE', `/orders/${orderId}`)).statusCode, 200);
  });

  it('gives back no more than was paid when two refunds race', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, admin, orderId } = await billableOrder(app, db);
    const ticketId = await createBill(call, orderId, {});
    const paymentId = (
      await call('POST', `/tickets/${ticketId}/payments`, { method: 'cash', amount: 60 })
    ).json().id;
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        admin('POST', `/payments/${paymentId}/refund`, { amount: 25, reason: 'x' }),
      ),
    );
    assert.deepEqual(responses.map((response) => response.statusCode).sort(), [201, 201, 400, 400, 400]);
    const payment = await db
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', paymentId)
      .executeTakeFirstOrThrow();
    assert.equal(Number(payment.refunded_cents), 5000);
    assert.equal(Number((await storedOrder(db, orderId)).paid_cents), 1000);
  });
});
