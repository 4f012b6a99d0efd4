import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { LIGHTNING_CATCH_UP, LIGHTNING_SWEEP } from '../src/app';
import type { Db } from '../src/core/db/database';
import { describeEachDatabase } from './helpers/app';
import { billableOrder, createBill, storedEvents } from './helpers/checkout-factories';
import type { DatabaseTarget } from './helpers/database';
import { insertTable } from './helpers/factories';
import { storedOrder, storedTable } from './helpers/orders-factories';
import { buildWalletTestApp, listenForWebhooks } from './helpers/wallet-factories';

/** 1 BTC = 2,000,000.00: 1.00 is 50 sat. */
const ENV = { POS_RATE_SOURCE: 'fixed:2000000', POS_PUBLIC_URL: 'https://mesa.example.mx/' };

type TestContext = Parameters<typeof buildWalletTestApp>[0];

/** An order of 10 + 20 + 30 = 60.00 seated at a table of its own. */
async function seatedOrder(app: FastifyInstance, db: Db) {
  const order = await billableOrder(app, db);
  const table = await insertTable(db);
  const seated = await order.call('PUT', `/orders/${order.orderId}`, { table_id: table.id });
  assert.equal(seated.statusCode, 200, seated.body);
  return { ...order, tableId: table.id };
}

async function assertClosed(db: Db, orderId: string, tableId: string, how: string) {
  assert.equal((await storedOrder(db, orderId)).status, 'completed', how);
  assert.deepEqual(await storedTable(db, tableId), { status: 'available', order_id: null }, how);
}

async function assertOpen(db: Db, orderId: string, tableId: string, how: string) {
  assert.notEqual((await storedOrder(db, orderId)).status, 'completed', how);
  assert.deepEqual(await storedTable(db, tableId), { status: 'occupied', order_id: orderId }, how);
}

function guestPhone(app: FastifyInstance) {
  return (url: string, payload: unknown = {}) =>
    app.inject({ method: 'POST', url, payload: payload as object, remoteAddress: '203.0.113.9' });
}

describeEachDatabase('an order that closes itself once paid', (target: DatabaseTarget) => {
  async function build(t: TestContext) {
    const built = await buildWalletTestApp(t, target, { env: ENV });
    await listenForWebhooks(built.app, built.simulator);
    return built;
  }

  it('closes and frees its table when its last bill is paid in cash or by card, with the events of a manual close', async (t) => {
    const { app, db } = await build(t);
    const { call, orderId, dishIds, tableId } = await seatedOrder(app, db);
    const first = await createBill(call, orderId, { order_dish_ids: [dishIds[0], dishIds[1]] });
    await call('POST', `/tickets/${first}/payments`, { method: 'card', amount: 30 });
    await assertOpen(db, orderId, tableId, 'a plate is not billed yet');
    const second = await createBill(call, orderId, {});
    const eventsBefore = (await storedEvents(db)).length;
    const paid = await call('POST', `/tickets/${second}/payments`, {
      method: 'cash',
      amount: 30,
      tendered: 50,
    });
    assert.deepEqual([paid.statusCode, paid.json().ticket_status], [201, 2], paid.body);
    await assertClosed(db, orderId, tableId, 'every bill paid, every plate billed');
    const events = (await storedEvents(db)).slice(eventsBefore);
    assert.deepEqual(
      events.map((event) => [event.type, event.payload.data.id]),
      [
        ['payment.settled', paid.json().id],
        ['ticket.paid', second],
        ['order.updated', orderId],
        ['table.updated', tableId],
      ],
    );
    assert.equal(events[2]?.payload.data.status, 'completed');
    const view = (await call('GET', `/orders/${orderId}`)).json();
    assert.deepEqual([view.status, view.paid, view.balance], ['completed', 60, 0]);
  });

  it("closes when the till's or the guests' Lightning payments settle, by webhook, sweep or catch-up", async (t) => {
    const { app, db, simulator } = await build(t);

    const till = await seatedOrder(app, db);
    const tillBill = await createBill(till.call, till.orderId, {});
    simulator.webhookMode = 'drop';
    const invoice = (await till.call('POST', `/tickets/${tillBill}/lightning`, {})).json();
    await simulator.receivePayment(invoice.lightning.invoice);
    await assertOpen(db, till.orderId, till.tableId, 'not settled yet');
    await app.jobs.run(LIGHTNING_SWEEP);
    await assertClosed(db, till.orderId, till.tableId, "the till's invoice, by the sweep");

    simulator.webhookMode = 'deliver';
    const phones = await seatedOrder(app, db);
    const phonesBill = await createBill(phones.call, phones.orderId, {});
    const { token } = (await phones.call('POST', `/tickets/${phonesBill}/guest-link`)).json();
    const guest = guestPhone(app);
    const mine = (await guest(`/guest/${token}/lightning`, { amount: 35 })).json();
    const friends = (await guest(`/guest/${token}/lightning`, { amount: 25 })).json();
    await (await simulator.receivePayment(mine.bolt11)).webhooks;
    await assertOpen(db, phones.orderId, phones.tableId, 'a friend still has to pay');
    await (await simulator.receivePayment(friends.bolt11)).webhooks;
    await assertClosed(db, phones.orderId, phones.tableId, "the guests' invoices, by webhook");

    const late = await seatedOrder(app, db);
    const lateBill = await createBill(late.call, late.orderId, {});
    const lateLink = (await late.call('POST', `/tickets/${lateBill}/guest-link`)).json();
    const lost = (await guest(`/guest/${lateLink.token}/lightning`, {})).json();
    simulator.webhookMode = 'drop';
    await simulator.receivePayment(lost.bolt11);
    await app.jobs.run(LIGHTNING_CATCH_UP);
    await assertClosed(db, late.orderId, late.tableId, "a guest's invoice, by the catch-up");
  });

  it('leaves the order and its table to the cashier when close_paid_orders is off', async (t) => {
    const { app, db } = await build(t);
    const { call, admin, orderId, tableId } = await seatedOrder(app, db);
    assert.equal((await call('GET', '/settings')).json().close_paid_orders, true, 'on by default');
    const off = await admin('PUT', '/settings', { close_paid_orders: false });
    assert.deepEqual([off.statusCode, off.json().close_paid_orders], [200, false]);
    const ticketId = await createBill(call, orderId, {});
    await call('POST', `/tickets/${ticketId}/payments`, { method: 'card', amount: 60 });
    await assertOpen(db, orderId, tableId, 'cleared by hand');
    const view = (await call('GET', `/orders/${orderId}`)).json();
    assert.deepEqual([view.status, view.balance], ['pending', 0]);
    assert.equal((await call('POST', `/orders/${orderId}/close`)).statusCode, 200);
    await assertClosed(db, orderId, tableId, 'the cashier closed it');
  });
});
