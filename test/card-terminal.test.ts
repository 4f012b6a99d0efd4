import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { it, type TestContext } from 'node:test';
import { CARD_TERMINAL_WATCH } from '../src/app';
import { FISCAL_JOB } from '../src/fiscal/fiscal-job';
import { CHECK_AFTER_MS } from '../src/payments/card-terminal-settlement.service';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { billableOrder, createBill, storedEvents } from './helpers/checkout-factories';
import type { DatabaseTarget } from './helpers/database';
import { databaseDigest } from './helpers/db-digest';
import { RESTAURANT_FISCAL, startPacSimulator } from './helpers/fiscal-factories';
import { callerFor } from './helpers/orders-factories';
import { signNotification } from './mp-sim/notifications';
import { type MercadoPagoSimulator, MercadoPagoSimulator as Simulator } from './mp-sim/simulator';

// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary fields.
type Json = any;

const CAJA_1 = 'NEWLAND_N950__N950NCB000000001';
const CAJA_2 = 'PAX_A910__SMARTPOS0000000002';
const BARRA = 'NEWLAND_N950__N950NCB000000003';

async function control(sim: MercadoPagoSimulator, path: string, body: unknown = {}): Promise<Json> {
  const response = await fetch(`${sim.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.ok(response.ok, `${path}: ${response.status} ${await response.clone().text()}`);
  await sim.notificationsSettled();
  return response.json();
}

/**
 * A restaurant whose till charges on Mercado Pago Point (the simulator), listening on a real port for
 * its notifications; the terminal shows an order only when the test says so, and the jobs run when
 * the test runs them.
 */
async function terminalNight(t: TestContext, target: DatabaseTarget, options: { withPac?: boolean } = {}) {
  let appClock: { now(): number } | undefined;
  const pac = options.withPac ? await startPacSimulator(t, () => appClock?.now() ?? Date.now()) : undefined;
  const sim = await Simulator.start({
    atTerminalAfterMs: null,
    refundSettleAfterMs: null,
    notificationRetryMs: 20,
  });
  t.after(() => sim.stop());
  const built = await buildTestApp(t, target, {
    env: {
      POS_MP_ACCESS_TOKEN: sim.accessToken,
      POS_MP_WEBHOOK_SECRET: sim.webhookSecret,
      POS_MP_API_URL: sim.url,
      ...pac?.env,
    },
  });
  const { app, db, clock } = built;
  appClock = clock;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  await control(sim, '/sim/notification-url', {
    url: `http://127.0.0.1:${port}/terminals/mercadopago/webhook`,
  });
  const { call, orderId, admin } = await billableOrder(app, db, [20000, 15000]);
  const ticketId = await createBill(call, orderId);
  const watch = () => app.jobs.run(CARD_TERMINAL_WATCH);
  /** Lets the read-back come due and runs it, as the job's timer would a few seconds later. */
  const readBack = async () => {
    clock.advance(CHECK_AFTER_MS);
    await watch();
  };
  const payment = async (id: string): Promise<Json> => (await call('GET', `/payments/${id}`)).json();
  const ticket = async (): Promise<Json> => (await call('GET', `/tickets/${ticketId}`)).json();
  const charge = async (body: Json, headers: Record<string, string> = {}) =>
    call('POST', `/tickets/${ticketId}/card-terminal`, body, headers);
  const ordersAtSim = () => sim.snapshot().orders as Json[];
  await admin('PUT', '/settings/terminals', { default_terminal_id: CAJA_1 });
  return {
    ...built,
    pac: pac?.sim,
    sim,
    call,
    admin,
    orderId,
    ticketId,
    watch,
    readBack,
    payment,
    ticket,
    charge,
    ordersAtSim,
  };
}

describeEachDatabase('the card terminal', (target) => {
  it('settles a charge once by its notification, sent twice, with the card, the tip apart and the fee', async (t) => {
    const night = await terminalNight(t, target);
    const { sim, charge, watch, payment, ticket } = night;
    const created = await charge({ amount: 350, tip: 35 });
    assert.equal(created.statusCode, 201, created.body);
    const answer = created.json();
    assert.equal(answer.status, 'pending');
    assert.equal(answer.terminal_id, CAJA_1);
    const [order, ...others] = night.ordersAtSim();
    assert.equal(others.length, 0);
    assert.equal(order.total_amount, '385.00', 'the tip is charged with the amount');
    assert.equal(order.external_reference, answer.payment_id);
    assert.equal((await payment(answer.payment_id)).terminal.state, 'created');

    // Mercado Pago sends no notification when the terminal shows the order: it is read back.
    await control(sim, `/sim/terminals/${CAJA_1}/show`);
    await night.readBack();
    assert.equal((await payment(answer.payment_id)).terminal.state, 'at_terminal');

    await control(sim, '/sim/notifications', { twice: 1 });
    await control(sim, `/sim/terminals/${CAJA_1}/tap`, { brand: 'visa', type: 'credit', last_four: '4242' });
    await watch();
    await watch();
    const paid = await payment(answer.payment_id);
    assert.equal(paid.status, 'settled');
    assert.equal(paid.amount, 350);
    assert.equal(paid.tip, 35);
    assert.equal(paid.terminal.card_brand, 'visa');
    assert.equal(paid.terminal.card_type, 'credit');
    assert.equal(paid.terminal.last_four, '4242');
    assert.match(paid.terminal.authorization_code, /^\d{6}$/);
    assert.equal(paid.terminal.fee, 13.48, "3.5 % of 385.00, the provider's figure");
    const bill = await ticket();
    assert.equal(bill.paid, 350);
    assert.equal(bill.status, 2);
    const settled = (await storedEvents(night.db)).filter((event) => event.type === 'payment.settled');
    assert.equal(settled.length, 1, 'settled exactly once');
    const row = await night.db
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', answer.payment_id)
      .executeTakeFirstOrThrow();
    assert.equal(row.next_check_at, null, 'nothing left to follow');
  });

  it('settles by reading the charge back when its notification never comes', async (t) => {
    const night = await terminalNight(t, target);
    const { sim, charge, readBack, payment } = night;
    const { payment_id: id } = (await charge({ amount: 350 })).json();
    await control(sim, '/sim/notifications', { never: 5 });
    await control(sim, `/sim/terminals/${CAJA_1}/tap`, { brand: 'master', type: 'debit', last_four: '1234' });
    assert.equal((await payment(id)).status, 'pending', 'no notification came');
    await readBack();
    const paid = await payment(id);
    assert.equal(paid.status, 'settled');
    assert.equal(paid.terminal.card_type, 'debit');
  });

  it('answers a retry with the same key with the same charge, also after the answer was lost', async (t) => {
    const night = await terminalNight(t, target);
    const { sim, charge, readBack, payment } = night;
    const first = await charge({ amount: 100 }, { 'idempotency-key': 'cobro-mesa-4' });
    const again = await charge({ amount: 100 }, { 'idempotency-key': 'cobro-mesa-4' });
    assert.equal(first.statusCode, 201);
    assert.deepEqual(again.json(), first.json());
    assert.equal(night.ordersAtSim().length, 1);

    // The terminal answer is lost after Mercado Pago made the order: the charge stays pending.
    await control(sim, `/sim/terminals/${CAJA_1}/cancel`);
    await readBack();
    assert.equal((await payment(first.json().payment_id)).status, 'canceled');
    sim.setFaults({ loseAnswer: 1, only: { loseAnswer: '^POST /v1/orders$' } });
    const lost = await charge({ amount: 100 }, { 'idempotency-key': 'cobro-mesa-4b' });
    assert.equal(lost.statusCode, 201, lost.body);
    const lostId = lost.json().payment_id;
    assert.equal((await payment(lostId)).terminal.provider_order_id, null);
    const retried = await charge({ amount: 100 }, { 'idempotency-key': 'cobro-mesa-4b' });
    assert.deepEqual(retried.json(), lost.json());
    await readBack();
    assert.equal(night.ordersAtSim().length, 2, 'the same provider key made no second order');
    const found = await payment(lostId);
    assert.equal(found.terminal.provider_order_id, night.ordersAtSim()[1].id);
    await control(sim, `/sim/terminals/${CAJA_1}/tap`, {});
    await readBack();
    assert.equal((await payment(lostId)).status, 'settled');
  });

  it('keeps one pending charge per terminal and refuses what the bill or the provider cannot take', async (t) => {
    const night = await terminalNight(t, target);
    const { charge, call, db } = night;
    assert.equal((await charge({ amount: 351 })).statusCode, 400, 'above the balance');
    const tooSmall = await charge({ amount: 1 });
    assert.equal(tooSmall.statusCode, 400);
    assert.match(tooSmall.json().message, /at least 5\.00/);
    const standalone = await charge({ amount: 50, terminal_id: BARRA });
    assert.equal(standalone.statusCode, 400);
    assert.equal(await db.selectFrom('payments').select('id').executeTakeFirst(), undefined, 'nothing kept');

    assert.equal((await charge({ amount: 200 })).statusCode, 201);
    const other = await billableOrder(night.app, db, [5000]);
    const otherBill = await createBill(other.call, other.orderId);
    const busy = await call('POST', `/tickets/${otherBill}/card-terminal`, { amount: 10 });
    assert.equal(busy.statusCode, 409);
    assert.match(busy.json().message, /busy/);
    const onTheOther = await charge({ amount: 150, terminal_id: CAJA_2 });
    assert.equal(onTheOther.statusCode, 201, 'another terminal may charge the rest');
    const overTheTop = await call('POST', `/tickets/${night.ticketId}/card-terminal`, {
      amount: 1,
      terminal_id: BARRA,
    });
    assert.equal(overTheTop.statusCode, 400, 'the pending charges cover the whole balance');
  });

  it('leaves the bill open with the reason in Spanish when the card is declined, and a retry pays', async (t) => {
    const night = await terminalNight(t, target);
    const { sim, charge, watch, payment, ticket } = night;
    const { payment_id: declined } = (await charge({ amount: 350 })).json();
    await control(sim, `/sim/terminals/${CAJA_1}/decline`, { reason: 'insufficient_amount' });
    await watch();
    const failed = await payment(declined);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.terminal.failure_reason, 'Fondos insuficientes');
    assert.equal((await ticket()).status, 1);
    assert.equal((await ticket()).paid, 0);
    const retry = await charge({ amount: 350 });
    assert.equal(retry.statusCode, 201, 'the terminal is free again');
    await control(sim, `/sim/terminals/${CAJA_1}/tap`, {});
    await watch();
    assert.equal((await payment(retry.json().payment_id)).status, 'settled');
    assert.equal((await ticket()).status, 2);
  });

  it('refuses a notification with a wrong or missing signature and changes nothing', async (t) => {
    const night = await terminalNight(t, target);
    const { sim, charge, app, db } = night;
    const { payment_id: id } = (await charge({ amount: 350 })).json();
    const orderId = night.ordersAtSim()[0].id as string;
    const before = await databaseDigest(db);
    const post = (headers: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: `/terminals/mercadopago/webhook?data.id=${orderId}&type=order`,
        headers: { 'content-type': 'application/json', ...headers },
        payload: { action: 'order.processed', data: { id: orderId, status: 'processed' } },
      });
    assert.equal((await post({})).statusCode, 401);
    const forged = signNotification('not-the-secret', orderId, 'req-1', Math.floor(Date.now() / 1000));
    assert.equal((await post({ 'x-signature': forged, 'x-request-id': 'req-1' })).statusCode, 401);
    const good = signNotification(sim.webhookSecret, orderId, 'req-2', Math.floor(Date.now() / 1000));
    assert.equal(
      (await post({ 'x-signature': good, 'x-request-id': 'req-3' })).statusCode,
      401,
      'another request id',
    );
    assert.deepEqual(await databaseDigest(db), before);
    assert.equal((await post({ 'x-signature': good, 'x-request-id': 'req-2' })).statusCode, 200);
    assert.equal(
      (await night.payment(id)).status,
      'pending',
      'the body is not trusted: the order is read back',
    );
  });

  it('cancels a pending charge, at once before the terminal shows it and through the terminal after', async (t) => {
    const night = await terminalNight(t, target);
    const { sim, call, charge, watch, payment } = night;
    const { payment_id: early } = (await charge({ amount: 100 })).json();
    const canceled = await call('POST', `/payments/${early}/cancel`);
    assert.equal(canceled.statusCode, 200, canceled.body);
    assert.equal(canceled.json().status, 'canceled');
    assert.equal(canceled.json().terminal.failure_reason, 'Cancelado desde la caja');

    const { payment_id: shown } = (await charge({ amount: 100 })).json();
    await control(sim, `/sim/terminals/${CAJA_1}/show`);
    const asked = await call('POST', `/payments/${shown}/cancel`);
    assert.equal(asked.statusCode, 200, asked.body);
    assert.equal(asked.json().terminal.cancel_requested, true);
    await new Promise((resolve) => setTimeout(resolve, sim.cancelAtTerminalAfterMs + 100));
    sim.sweep();
    await sim.notificationsSettled();
    await watch();
    assert.equal((await payment(shown)).status, 'canceled');
    assert.equal((await call('POST', `/payments/${shown}/cancel`)).statusCode, 409);
  });

  it('refunds part of a terminal payment through Mercado Pago once, and the bill changes when processed', async (t) => {
    const night = await terminalNight(t, target);
    const { sim, admin, charge, watch, payment, ticket } = night;
    const { payment_id: id } = (await charge({ amount: 350 })).json();
    await control(sim, `/sim/terminals/${CAJA_1}/tap`, {});
    await watch();
    const refund = () =>
      admin(
        'POST',
        `/payments/${id}/refund`,
        { amount: 100, reason: 'Plato frío' },
        { 'idempotency-key': 'dev-1' },
      );
    const asked = await refund();
    assert.equal(asked.statusCode, 201, asked.body);
    assert.equal(asked.json().status, 'pending');
    assert.deepEqual((await refund()).json(), asked.json(), 'a retry is the same refund');
    assert.equal((await ticket()).paid, 350, 'nothing leaves the bill before Mercado Pago processes it');
    const busy = await admin('POST', `/payments/${id}/refund`, { amount: 10, reason: 'Otra' });
    assert.equal(busy.statusCode, 409, 'one refund at a time');
    const order = night.ordersAtSim()[0];
    const [refundAtSim, ...more] = (sim.snapshot().orders[0] as Json).transactions.refunds as Json[];
    assert.equal(more.length, 0, 'one refund reached Mercado Pago');
    assert.equal(refundAtSim.amount, '100.00');
    await control(sim, `/sim/orders/${order.id}/refunds/${refundAtSim.id}`, { status: 'processed' });
    await watch();
    assert.equal((await ticket()).paid, 250);
    const after = await payment(id);
    assert.equal(after.status, 'partially_refunded');
    const rest = await admin('POST', `/payments/${id}/refund`, { reason: 'Cliente molesto' });
    assert.equal(rest.statusCode, 201, rest.body);
    const second = (sim.snapshot().orders[0] as Json).transactions.refunds.at(-1);
    await control(sim, `/sim/orders/${order.id}/refunds/${second.id}`, { status: 'processed' });
    await night.readBack();
    assert.equal((await payment(id)).status, 'refunded');
    assert.equal((await ticket()).paid, 0);
  });

  it('shows card payments by brand with the fees in the Z report', async (t) => {
    const night = await terminalNight(t, target);
    const { app, db, sim, watch } = night;
    const cashier = callerFor(app, (await loggedInUser(app, db, 'cashier')).cookies);
    const shift = (await cashier('POST', '/shifts', { opening_cash: 0 })).json();
    const bill = (amount: number) => cashier('POST', `/tickets/${night.ticketId}/card-terminal`, { amount });
    await bill(200);
    await control(sim, `/sim/terminals/${CAJA_1}/tap`, { brand: 'visa', type: 'credit' });
    await watch();
    await bill(150);
    await control(sim, `/sim/terminals/${CAJA_1}/tap`, { brand: 'master', type: 'debit' });
    await watch();
    const report = (await cashier('GET', `/shifts/${shift.id}/report`)).json();
    assert.deepEqual(
      report.card_terminal_by_brand.map((row: Json) => [row.brand, row.payments, row.amount, row.fees]),
      [
        ['master', 1, 150, 5.25],
        ['visa', 1, 200, 7],
      ],
    );
    assert.equal(report.card_terminal_fees, 12.25);
    assert.deepEqual(
      report.payments_by_method.map((row: Json) => [row.method, row.amount]),
      [['card_terminal', 350]],
    );
  });

  it("stamps the receipt at the PAC with the card's type: 28 debit, 04 credit", async (t) => {
    const night = await terminalNight(t, target, { withPac: true });
    const { admin, sim, charge, watch, app } = night;
    assert.equal(
      (await admin('PUT', '/settings', { tax_rate: 16, prices_include_tax: true })).statusCode,
      200,
    );
    assert.equal((await admin('PUT', '/settings/fiscal', RESTAURANT_FISCAL)).statusCode, 200);
    await charge({ amount: 350 });
    await control(sim, `/sim/terminals/${CAJA_1}/tap`, { brand: 'debvisa', type: 'debit' });
    await watch();
    await app.jobs.run(FISCAL_JOB);
    const [receipt, ...others] = night.pac?.receipts() ?? [];
    assert.equal(others.length, 0);
    assert.equal(receipt?.payment_form, '28', 'tarjeta de débito');

    const credit = await billableOrder(app, night.db, [10000]);
    const creditBill = await createBill(credit.call, credit.orderId);
    await credit.call('POST', `/tickets/${creditBill}/card-terminal`, {});
    await control(sim, `/sim/terminals/${CAJA_1}/tap`, { brand: 'visa', type: 'credit' });
    await watch();
    await app.jobs.run(FISCAL_JOB);
    assert.equal(night.pac?.receipts().at(-1)?.payment_form, '04', 'tarjeta de crédito');
  });

  it('lists the terminals with their mode and keeps the default', async (t) => {
    const night = await terminalNight(t, target);
    const { admin, call } = night;
    const terminals = (await call('GET', '/terminals')).json();
    assert.deepEqual(
      terminals.map((terminal: Json) => [terminal.id, terminal.operating_mode, terminal.is_default]),
      [
        [CAJA_1, 'PDV', true],
        [CAJA_2, 'PDV', false],
        [BARRA, 'STANDALONE', false],
      ],
    );
    assert.equal((await admin('PUT', '/settings/terminals', { default_terminal_id: BARRA })).statusCode, 400);
    assert.equal(
      (await admin('PUT', '/settings/terminals', { default_terminal_id: 'NOPE__1' })).statusCode,
      400,
    );
    assert.equal((await call('PUT', '/settings/terminals', { default_terminal_id: CAJA_2 })).statusCode, 403);
    assert.equal((await admin('PUT', '/settings/terminals', { default_terminal_id: null })).statusCode, 200);
    const named = await night.charge({ amount: 10 });
    assert.equal(named.statusCode, 400, 'no default: the till must name its terminal');
  });
});
