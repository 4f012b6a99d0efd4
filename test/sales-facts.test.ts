import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { CompiledQuery, type Kysely } from 'kysely';
import { runBackfills } from '../src/core/db/backfills';
import { type Db, openDatabase } from '../src/core/db/database';
import { backfills } from '../src/core/db/migrations';
import * as salesFactsMigration from '../src/core/db/migrations/0022_sales_facts_amount_splits';
import { refreshSalesFacts } from '../src/orders/sales-facts';
import { refreshRefundedAfterSale } from '../src/tickets/tickets.repo';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { createBill } from './helpers/checkout-factories';
import { sqliteTarget } from './helpers/database';
import { insertCategory, insertDish } from './helpers/factories';
import { type Caller, callerFor } from './helpers/orders-factories';
import { buildWalletTestApp } from './helpers/wallet-factories';

const FIGURES = ['items', 'gross', 'discounts', 'refunds', 'tips'] as const;
type Figures = Record<(typeof FIGURES)[number], number>;
type Fact = Figures & { kind: string; ticket_id: string; line: string; key: string | null; order_id: string };

async function factsOf(db: Db, ticketId?: string): Promise<Fact[]> {
  let query = db.selectFrom('sales_facts').selectAll();
  if (ticketId !== undefined) query = query.where('ticket_id', '=', ticketId);
  const rows = await query.orderBy('kind').orderBy('ticket_id').orderBy('line').execute();
  return rows.map((row) => ({
    kind: row.kind,
    ticket_id: row.ticket_id,
    line: row.line,
    key: row.key,
    order_id: row.order_id,
    items: Number(row.items),
    gross: Number(row.gross),
    discounts: Number(row.discounts),
    refunds: Number(row.refunds),
    tips: Number(row.tips),
  }));
}

const figuresOf = (fact: Fact): Figures =>
  Object.fromEntries(FIGURES.map((figure) => [figure, fact[figure]])) as Figures;

function sumOf(facts: Fact[]): Figures {
  return Object.fromEntries(
    FIGURES.map((figure) => [figure, facts.reduce((sum, fact) => sum + fact[figure], 0)]),
  ) as Figures;
}

/** Every kind of fact of one bill adds up to the bill's own row; returns that row's figures. */
function assertSharesAddUp(facts: Fact[]): Figures {
  const bill = facts.filter((fact) => fact.kind === 'bill');
  assert.equal(bill.length, 1);
  const whole = figuresOf(bill[0] as Fact);
  assert.deepEqual(sumOf(facts.filter((fact) => fact.kind === 'dish')), whole, 'dish shares');
  const methods = sumOf(facts.filter((fact) => fact.kind === 'method'));
  assert.deepEqual(
    [methods.items, methods.gross, methods.discounts],
    [whole.items, whole.gross, whole.discounts],
  );
  return whole;
}

/** The `method` facts as [method, payment id, figures], by method. */
function methodShares(facts: Fact[]): [string, string, Figures][] {
  return facts
    .filter((fact) => fact.kind === 'method')
    .map((fact): [string, string, Figures] => [String(fact.key), fact.line, figuresOf(fact)])
    .sort((a, b) => a[0].localeCompare(b[0]));
}

async function staff(app: FastifyInstance, db: Db, role = 'admin') {
  const { user, cookies } = await loggedInUser(app, db, role);
  return { user, call: callerFor(app, cookies) };
}

/** An order of dishes at these prices (cents), each its own dish on the menu. */
async function order(db: Db, call: Caller, pricesCents: number[]) {
  const category = await insertCategory(db);
  const dishes = [];
  for (const priceCents of pricesCents)
    dishes.push(await insertDish(db, { categoryId: category.id, priceCents }));
  const created = await call('POST', '/orders/with-dishes', {
    order: {},
    dishes: dishes.map((dish, index) => ({
      dish_id: dish.id,
      price_at_order: (pricesCents[index] ?? 0) / 100,
    })),
  });
  assert.equal(created.statusCode, 201, created.body);
  return { orderId: created.json().id as string, dishes };
}

async function pay(call: Caller, ticketId: string, body: Record<string, unknown>): Promise<string> {
  const paid = await call('POST', `/tickets/${ticketId}/payments`, body);
  assert.equal(paid.statusCode, 201, paid.body);
  return paid.json().id;
}

async function refund(call: Caller, paymentId: string, amount: number): Promise<void> {
  const refunded = await call('POST', `/payments/${paymentId}/refund`, { amount, reason: 'Cold' });
  assert.equal(refunded.statusCode, 201, refunded.body);
}

async function report(call: Caller, groupBy: string) {
  const response = await call('GET', `/reports/sales?from=2026-11-22&to=2026-11-22&group_by=${groupBy}`);
  assert.equal(response.statusCode, 200, response.body);
  return response.json() as ({ key: string } & Figures)[];
}

describeEachDatabase('sales facts', (target) => {
  it('shares a bill split across payment methods and dishes to the cent', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const { call } = await staff(app, db);
    const { orderId } = await order(db, call, [3333, 1000, 1000]);
    const ticketId = await createBill(call, orderId, {
      discount: { type: 'amount', value: 1, reason: 'Regulars' },
    });
    const cash = await pay(call, ticketId, { method: 'cash', amount: 10 });
    assert.deepEqual(await factsOf(db, ticketId), [], 'not Paid yet');
    clock.advance(1000);
    const card = await pay(call, ticketId, { method: 'card', amount: 42.33, tip: 2 });

    const facts = await factsOf(db, ticketId);
    assert.deepEqual(assertSharesAddUp(facts), {
      items: 3,
      gross: 5333,
      discounts: 100,
      refunds: 0,
      tips: 200,
    });
    // 53.33 and 1.00 shared 10.00 : 42.33 in the order paid, each share floored.
    assert.deepEqual(methodShares(facts), [
      ['card', card, { items: 3, gross: 4314, discounts: 81, refunds: 0, tips: 200 }],
      ['cash', cash, { items: 0, gross: 1019, discounts: 19, refunds: 0, tips: 0 }],
    ]);
    // Each dish gets its price's part of the discount and tip, to within the cent that flooring moves.
    for (const fact of facts.filter((row) => row.kind === 'dish')) {
      assert.equal(fact.items, 1);
      assert.ok(Math.abs(fact.discounts - (fact.gross * 100) / 5333) < 1, `discount of ${fact.gross}`);
      assert.ok(Math.abs(fact.tips - (fact.gross * 200) / 5333) < 1, `tip of ${fact.gross}`);
    }

    const { call: reader } = await staff(app, db, 'manager');
    assert.deepEqual(
      (await report(reader, 'payment_method')).map((row) => [row.key, row.gross, row.discounts, row.tips]),
      [
        ['card', 43.14, 0.81, 2],
        ['cash', 10.19, 0.19, 0],
      ],
    );
    assert.deepEqual(
      (await report(reader, 'dish')).reduce((sum, row) => sum + Math.round(row.gross * 100), 0),
      5333,
    );
  });

  it('updates the facts with each refund, and takes a cancelled bill out', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call } = await staff(app, db);
    const { orderId } = await order(db, call, [1000, 2000]);
    const ticketId = await createBill(call, orderId, {});
    const cash = await pay(call, ticketId, { method: 'cash', amount: 10 });
    const card = await pay(call, ticketId, { method: 'card', amount: 20 });
    await refund(call, card, 5);
    let facts = await factsOf(db, ticketId);
    assert.equal(assertSharesAddUp(facts).refunds, 500);
    assert.deepEqual(
      methodShares(facts).map(([key, , figures]) => [key, figures.refunds]),
      [
        ['card', 500],
        ['cash', 0],
      ],
    );

    await refund(call, card, 15);
    await refund(call, cash, 10);
    facts = await factsOf(db, ticketId);
    assert.equal(assertSharesAddUp(facts).refunds, 3000);
    const { call: reader } = await staff(app, db, 'manager');
    assert.deepEqual(
      (await report(reader, 'day')).map((row) => [row.gross, row.refunds]),
      [[30, 30]],
    );

    // Refunded in full, the Paid bill may be cancelled: it is no longer a sale.
    const cancelled = await call('POST', `/tickets/${ticketId}/cancel`);
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.deepEqual(await factsOf(db, ticketId), []);
    assert.deepEqual(await report(reader, 'day'), []);
  });

  it('shares a bill split by amount over the dishes the order has now', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call } = await staff(app, db);
    const { orderId, dishes } = await order(db, call, [1000, 1000]);
    const ticketId = await createBill(call, orderId, { amount: 10 });
    await pay(call, ticketId, { method: 'cash', amount: 10 });
    const dishShares = async () =>
      (await factsOf(db, ticketId))
        .filter((fact) => fact.kind === 'dish')
        .map((fact) => [fact.items, fact.gross])
        .sort();
    // The order's first paid amount bill counts the plates it is shared over (issue 29).
    assert.deepEqual(await dishShares(), [
      [1, 500],
      [1, 500],
    ]);

    const added = await call('POST', `/orders/${orderId}/dishes`, [
      { dish_id: dishes[0]?.id, price_at_order: 20 },
    ]);
    assert.equal(added.statusCode, 201, added.body);
    assert.deepEqual(await dishShares(), [
      [1, 250],
      [1, 250],
      [1, 500],
    ]);
  });

  it('names the waiter the order was given to before it was paid', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call } = await staff(app, db);
    const { user: other } = await staff(app, db, 'waiter');
    const { orderId } = await order(db, call, [1000, 1000]);
    assert.equal((await call('PUT', `/orders/${orderId}`, { user_id: other.id })).statusCode, 200);
    await pay(call, await createBill(call, orderId, { amount: 10 }), { method: 'cash', amount: 10 });
    const { call: reader } = await staff(app, db, 'manager');
    assert.deepEqual(
      (await report(reader, 'waiter')).map((row) => [row.key, row.gross]),
      [[other.name, 10]],
    );
  });

  it('backfills the facts of bills paid before the migration, as they were written', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const { call } = await staff(app, db);
    const first = await order(db, call, [3333, 1000, 1000]);
    const whole = await createBill(call, first.orderId, {
      discount: { type: 'amount', value: 5.33, reason: 'Regulars' },
    });
    await pay(call, whole, { method: 'cash', amount: 20 });
    clock.advance(1000);
    await refund(call, await pay(call, whole, { method: 'card', amount: 28, tip: 3 }), 4.5);
    const second = await order(db, call, [1500, 700, 700]);
    await pay(call, await createBill(call, second.orderId, { amount: 9.99 }), {
      method: 'card',
      amount: 9.99,
    });
    await createBill(call, second.orderId, {});
    const written = await factsOf(db);
    assert.equal(written.filter((fact) => fact.kind === 'bill').length, 2);

    const { call: reader } = await staff(app, db, 'manager');
    const groupings = ['day', 'hour', 'payment_method', 'dish', 'category', 'waiter'];
    const reports = await Promise.all(groupings.map((grouping) => report(reader, grouping)));
    const migrating = db as unknown as Kysely<unknown>;
    await salesFactsMigration.up(migrating);
    assert.equal(await runBackfills(migrating, backfills, { batchSize: 1 }), true);
    assert.deepEqual(await factsOf(db), written);
    assert.deepEqual(await Promise.all(groupings.map((grouping) => report(reader, grouping))), reports);
    // 33.33 + 20.00 − 5.33 and 9.99 of the second order, less the 4.50 refunded.
    assert.deepEqual(
      reports[0]?.map((row) => [row.gross, row.discounts, row.refunds, row.tips]),
      [[63.32, 5.33, 4.5, 3]],
    );
  });

  it('takes a Lightning refund off the facts, and gives it back when the node refuses it', async (t) => {
    const { app, db, simulator } = await buildWalletTestApp(t, target, {
      env: { POS_RATE_SOURCE: 'fixed:2000000' },
    });
    const { call } = await staff(app, db);
    const { orderId } = await order(db, call, [6000]);
    const ticketId = await createBill(call, orderId, {});
    const payment = (await call('POST', `/tickets/${ticketId}/lightning`, {})).json();
    await simulator.receivePayment(payment.lightning.invoice);
    assert.equal((await call('GET', `/payments/${payment.id}`)).json().status, 'settled');
    assert.deepEqual(assertSharesAddUp(await factsOf(db, ticketId)), {
      items: 1,
      gross: 6000,
      discounts: 0,
      refunds: 0,
      tips: 0,
    });
    const invoice = (amountSat: number) =>
      simulator.node.createInvoice({
        amountSat,
        description: 'refund',
        expirySeconds: null,
        externalId: null,
      }).serialized;

    simulator.node.failNextPayment('no route');
    const refused = await call('POST', `/payments/${payment.id}/refund`, {
      reason: 'x',
      invoice: invoice(3000),
    });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.equal(assertSharesAddUp(await factsOf(db, ticketId)).refunds, 0);

    const refunded = await call('POST', `/payments/${payment.id}/refund`, {
      amount: 20,
      reason: 'cold soup',
      invoice: invoice(1000),
    });
    assert.equal(refunded.statusCode, 201, refunded.body);
    const facts = await factsOf(db, ticketId);
    assert.equal(assertSharesAddUp(facts).refunds, 2000);
    assert.deepEqual(
      methodShares(facts).map(([key, , figures]) => [key, figures.refunds]),
      [['lightning', 2000]],
    );
  });
});

/** The tables those statements read, by the names and aliases they give them; the rest are CTEs. */
const STORED_TABLES = new Set([
  'orders',
  'o',
  'tickets',
  't',
  'payments',
  'p',
  'ticket_dishes',
  'td',
  'order_dishes',
  'od',
]);
/** A lookup by a key of the order, a bill, a payment or a plate: reads that one's rows only. */
const BY_KEY = /\((?:id|order_id|ticket_id|order_dish_id)=\?/;

describe('sales facts: what each payment reads (SQLite, which has no statistics)', () => {
  // Every payment rewrites its order's facts and what refunds gave back. A plan that reads every Paid
  // bill or every live bill dish of all time costs more each hour of service: the soak found one.
  it('reads only the paid order’s own rows, however many orders the day has', async (t) => {
    const { url, options } = await sqliteTarget.testUrl();
    const statements: CompiledQuery[] = [];
    const database = openDatabase(url, { ...options, log: (event) => void statements.push(event.query) });
    t.after(() => database.close());
    await refreshSalesFacts(database.db, 'an-order');
    await refreshRefundedAfterSale(database.db, 'an-order');
    // Taken out before explaining them: the EXPLAINs are logged too.
    const written = statements.splice(0);
    assert.equal(written.length, 3, 'the facts deleted and inserted, the refunds updated');

    for (const statement of written) {
      const plan = await database.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${statement.sql}`, [...statement.parameters]),
      );
      for (const { detail } of plan.rows) {
        const [, access, table] = /^(SCAN|SEARCH) (\S+)/.exec(detail) ?? [];
        if (table === undefined || !STORED_TABLES.has(table)) continue;
        assert.ok(access === 'SEARCH' && BY_KEY.test(detail), `${detail}\nin ${statement.sql}`);
      }
    }
  });
});
