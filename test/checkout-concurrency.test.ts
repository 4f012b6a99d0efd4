import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../src/core/db/database';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { billableOrder, createBill } from './helpers/checkout-factories';

/** A real listening server, so parallel requests reach the database as separate connections would. */
async function httpClients(app: FastifyInstance, cookieSets: string[]) {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return cookieSets.map((cookies) => async (method: string, path: string, body: unknown) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { cookie: cookies, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { id?: string; message?: string } };
  });
}

/** The invariants, read straight from the tables rather than through the service that keeps them. */
async function assertBillingInvariants(db: Db, orderId: string): Promise<void> {
  const doubleBilled = await db
    .selectFrom('ticket_dishes')
    .innerJoin('tickets', 'tickets.id', 'ticket_dishes.ticket_id')
    .select('ticket_dishes.order_dish_id')
    .where('tickets.status', 'in', [1, 2])
    .groupBy('ticket_dishes.order_dish_id')
    .having(sql`count(*)`, '>', 1)
    .execute();
  assert.deepEqual(doubleBilled, [], 'no dish is on two live bills');
  const deadLinksOfLiveBills = await db
    .selectFrom('ticket_dishes')
    .innerJoin('tickets', 'tickets.id', 'ticket_dishes.ticket_id')
    .select('ticket_dishes.order_dish_id')
    .where('tickets.status', 'in', [1, 2])
    .where('ticket_dishes.is_live', '=', 0)
    .execute();
  assert.deepEqual(deadLinksOfLiveBills, []);
  const live = await db
    .selectFrom('tickets')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('subtotal_cents'), eb.lit(0)).as('billed'))
    .where('order_id', '=', orderId)
    .where('status', 'in', [1, 2])
    .executeTakeFirstOrThrow();
  const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  assert.ok(Number(live.billed) <= Number(order.total_cents), 'live bills never exceed the order total');
  assert.equal(Number(order.billed_cents), Number(live.billed), 'the order row tracks its live bills');
  const dishBills = await db
    .selectFrom('tickets')
    .innerJoin('ticket_dishes', 'ticket_dishes.ticket_id', 'tickets.id')
    .innerJoin('order_dishes', 'order_dishes.id', 'ticket_dishes.order_dish_id')
    .select(['tickets.id', 'tickets.subtotal_cents'])
    .select((eb) => eb.fn.sum<number>('order_dishes.price_at_order_cents').as('dishes'))
    .where('tickets.order_id', '=', orderId)
    .groupBy(['tickets.id', 'tickets.subtotal_cents'])
    .execute();
  for (const bill of dishBills) {
    assert.equal(Number(bill.dishes), Number(bill.subtotal_cents), 'a bill with dishes is their sum');
  }
}

describeEachDatabase('checkout under concurrency', (target) => {
  it('never bills a dish twice nor more than the total when two cashiers split at once', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies, orderId, dishIds } = await billableOrder(app, db, Array(10).fill(1000));
    const { cookies: secondCashier } = await loggedInUser(app, db, 'staff');
    const cashiers = await httpClients(app, [cookies, secondCashier]);
    const attempts = Array.from({ length: 20 }, (_, i) => {
      const cashier = cashiers[i % 2] as (typeof cashiers)[number];
      const path = `/orders/${orderId}/tickets`;
      if (i % 3 === 0) return cashier('POST', path, { amount: 15 });
      if (i % 7 === 6) return cashier('POST', path, {});
      return cashier('POST', path, { order_dish_ids: [dishIds[i % 10], dishIds[(i * 3 + 1) % 10]] });
    });
    const responses = await Promise.all(attempts);
    for (const response of responses) {
      assert.ok(response.status === 201 || response.status === 400, JSON.stringify(response));
      if (response.status === 400) {
        assert.match(
          response.body.message ?? '',
          /^(Nothing left to bill|Amount exceeds the unbilled balance|Order dish with ID: .* is already on a bill)$/,
        );
      }
    }
    const created = responses
      .filter((response) => response.status === 201)
      .map((response) => response.body.id);
    assert.ok(created.length > 0);
    const stored = await db.selectFrom('tickets').select('id').where('order_id', '=', orderId).execute();
    assert.deepEqual(
      stored.map((row) => row.id).sort(),
      created.sort(),
      'every 201 is a stored bill, no more',
    );
    await assertBillingInvariants(db, orderId);
  });

  it('lets exactly one of ten parallel payments take the whole balance', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, cookies, orderId } = await billableOrder(app, db);
    const ticketId = await createBill(call, orderId, {});
    const [pay] = await httpClients(app, [cookies]);
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (pay as NonNullable<typeof pay>)('POST', `/tickets/${ticketId}/payments`, {
          method: i % 2 ? 'cash' : 'card',
          amount: 60,
        }),
      ),
    );
    assert.deepEqual(responses.map((response) => response.status).sort(), [201, ...Array(9).fill(400)]);
    const ticket = await db
      .selectFrom('tickets')
      .selectAll()
      .where('id', '=', ticketId)
      .executeTakeFirstOrThrow();
    assert.deepEqual([Number(ticket.status), Number(ticket.paid_cents)], [2, 6000]);
    assert.equal((await db.selectFrom('payments').selectAll().execute()).length, 1);
    const paidEvents = await db.selectFrom('events').select('id').where('type', '=', 'ticket.paid').execute();
    assert.equal(paidEvents.length, 1);
  });

  it('never lets a dish be removed while it is being billed', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies, orderId, dishIds } = await billableOrder(app, db, [1000, 2000]);
    const [send] = await httpClients(app, [cookies]);
    const request = send as NonNullable<typeof send>;
    const [bill, removal] = await Promise.all([
      request('POST', `/orders/${orderId}/tickets`, { order_dish_ids: [dishIds[0]] }),
      request('DELETE', `/orders/${orderId}/dishes/${dishIds[0]}`, undefined),
    ]);
    const outcomes = [bill.status, removal.status];
    assert.ok(
      JSON.stringify(outcomes) === '[201,400]' || JSON.stringify(outcomes) === '[400,200]',
      JSON.stringify([bill, removal]),
    );
    await assertBillingInvariants(db, orderId);
  });
});
