import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../src/core/db/database';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { createBill } from './helpers/checkout-factories';
import { insertCategory, insertDish } from './helpers/factories';
import { type Caller, callerFor } from './helpers/orders-factories';

type Row = {
  key: string;
  orders: number;
  items: number;
  gross: number;
  discounts: number;
  refunds: number;
  net: number;
  tips: number;
};
const GROUPINGS = ['day', 'hour', 'payment_method', 'dish', 'category', 'waiter'] as const;
const FIGURES = ['items', 'gross', 'discounts', 'refunds', 'net', 'tips'] as const;

async function menu(db: Db) {
  const food = await insertCategory(db, { name: 'Food' });
  const drinks = await insertCategory(db, { name: 'Drinks' });
  return {
    soup: await insertDish(db, { name: 'Soup', categoryId: food.id, priceCents: 1000 }),
    taco: await insertDish(db, { name: 'Taco', categoryId: food.id }),
    beer: await insertDish(db, { name: 'Beer', categoryId: drinks.id }),
  };
}

/** An order of these dishes (id and price in cents), through the API; prices other than the menu's need orders.price_override (a manager). */
async function order(call: Caller, dishes: { id: string; cents: number }[]): Promise<string> {
  const created = await call('POST', '/orders/with-dishes', {
    order: {},
    dishes: dishes.map((dish) => ({ dish_id: dish.id, price_at_order: dish.cents / 100 })),
  });
  assert.equal(created.statusCode, 201, created.body);
  return created.json().id;
}

async function pay(call: Caller, ticketId: string, body: Record<string, unknown>): Promise<string> {
  const paid = await call('POST', `/tickets/${ticketId}/payments`, body);
  assert.equal(paid.statusCode, 201, paid.body);
  return paid.json().id;
}

async function report(call: Caller, query: string): Promise<Row[]> {
  const response = await call('GET', `/reports/sales?${query}`);
  assert.equal(response.statusCode, 200, response.body);
  return response.json();
}

const total = (rows: Row[], figure: (typeof FIGURES)[number]) =>
  Math.round(rows.reduce((sum, row) => sum + row[figure] * 100, 0));

async function staffOf(app: FastifyInstance, db: Db, role: string) {
  const { user, cookies } = await loggedInUser(app, db, role);
  return { user, call: callerFor(app, cookies) };
}

describeEachDatabase('sales reports', (target) => {
  it('sums every grouping to the same totals, and those to the stored payments', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target, {
      env: { POS_TIMEZONE: 'America/Mexico_City' },
    });
    const { soup, taco, beer } = await menu(db);
    const admin = await staffOf(app, db, 'admin');
    const ana = await staffOf(app, db, 'manager');
    const ben = await staffOf(app, db, 'manager');

    // Ana: soup 10.00 + beer 25.00 billed whole with 10 % off (31.50), paid 20 cash + 11.50 card with a 3.00 tip.
    const first = await order(ana.call, [
      { id: soup.id, cents: 1000 },
      { id: beer.id, cents: 2500 },
    ]);
    const whole = await createBill(admin.call, first, {
      discount: { type: 'percent', value: 10, reason: 'Regulars' },
    });
    await pay(admin.call, whole, { method: 'cash', amount: 20 });
    await pay(admin.call, whole, { method: 'card', amount: 11.5, tip: 3 });
    // Ben: two tacos and a soup (27.00) split by amount in halves; 5.00 of the card refunded.
    const second = await order(ben.call, [
      { id: taco.id, cents: 1000 },
      { id: taco.id, cents: 1000 },
      { id: soup.id, cents: 700 },
    ]);
    const share = await createBill(ben.call, second, { amount: 13.5 });
    const rest = await createBill(ben.call, second, {});
    await pay(ben.call, share, { method: 'cash', amount: 13.5, tip: 1 });
    const card = await pay(ben.call, rest, { method: 'card', amount: 13.5 });
    assert.equal(
      (await admin.call('POST', `/payments/${card}/refund`, { amount: 5, reason: 'Cold' })).statusCode,
      201,
    );
    // Ben, the next local day (noon + 13 h in Mexico City): a beer by its dish, in cash.
    clock.advance(13 * 3_600_000);
    const late = await staffOf(app, db, 'manager');
    const third = await order(late.call, [{ id: beer.id, cents: 2500 }]);
    const beerBill = await createBill(late.call, third, {});
    await pay(late.call, beerBill, { method: 'cash', amount: 25 });
    // A bill not paid in full is not a sale yet.
    const open = await order(late.call, [{ id: soup.id, cents: 1000 }]);
    await pay(late.call, await createBill(late.call, open, {}), { method: 'cash', amount: 4 });

    const reader = await staffOf(app, db, 'manager');
    const range = 'from=2026-11-22&to=2026-11-23';
    const byGrouping = Object.fromEntries(
      await Promise.all(
        GROUPINGS.map(async (group) => [group, await report(reader.call, `${range}&group_by=${group}`)]),
      ),
    ) as Record<(typeof GROUPINGS)[number], Row[]>;

    assert.deepEqual(byGrouping.day, [
      { key: '2026-11-22', orders: 2, items: 5, gross: 62, discounts: 3.5, refunds: 5, net: 53.5, tips: 4 },
      { key: '2026-11-23', orders: 1, items: 1, gross: 25, discounts: 0, refunds: 0, net: 25, tips: 0 },
    ]);
    assert.deepEqual(
      byGrouping.hour.map((row) => row.key),
      ['2026-11-22 12:00', '2026-11-23 01:00'],
    );
    for (const group of GROUPINGS) {
      for (const figure of FIGURES) {
        assert.equal(total(byGrouping[group], figure), total(byGrouping.day, figure), `${group} ${figure}`);
      }
    }
    assert.deepEqual(
      byGrouping.payment_method.map((row) => [row.key, row.gross - row.discounts, row.refunds, row.tips]),
      [
        ['card', 25, 5, 3],
        ['cash', 58.5, 0, 1],
      ],
    );
    // The split-by-amount bills share their 27.00 over the order's dishes by price: tacos 20, soup 7;
    // their three plates count once, with the first of them paid (issue 29).
    assert.deepEqual(
      byGrouping.dish.map((row) => [row.key, row.items, row.gross]),
      [
        ['Beer', 2, 50],
        ['Soup', 2, 17],
        ['Taco', 2, 20],
      ],
    );
    assert.deepEqual(
      byGrouping.category.map((row) => [row.key, row.gross]),
      [
        ['Drinks', 50],
        ['Food', 37],
      ],
    );
    assert.deepEqual(
      byGrouping.waiter.map((row) => [row.key, row.orders, row.gross]).sort(),
      [
        [ana.user.name, 1, 35],
        [ben.user.name, 1, 27],
        [late.user.name, 1, 25],
      ].sort(),
    );

    // Against the stored rows: net is what the paid bills' payments took less their refunds.
    const stored = await db
      .selectFrom('payments')
      .innerJoin('tickets', 'tickets.id', 'payments.ticket_id')
      .select((eb) => [
        eb.fn.sum<number>('payments.amount_cents').as('amount'),
        eb.fn.sum<number>('payments.refunded_cents').as('refunded'),
        eb.fn.sum<number>('payments.tip_cents').as('tips'),
      ])
      .where('tickets.status', '=', 2)
      .executeTakeFirstOrThrow();
    assert.equal(total(byGrouping.day, 'net'), Number(stored.amount) - Number(stored.refunded));
    assert.equal(total(byGrouping.day, 'tips'), Number(stored.tips));

    const csv = await reader.call('GET', `/reports/sales?${range}`, undefined, { accept: 'text/csv' });
    assert.equal(csv.statusCode, 200);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    assert.equal(
      csv.body,
      'key,orders,items,gross,discounts,refunds,net,tips\n2026-11-22,2,5,62,3.5,5,53.5,4\n2026-11-23,1,1,25,0,0,25,0\n',
    );
  });

  it('puts sales on the local day and hour across a change of daylight saving time', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target, { env: { POS_TIMEZONE: 'America/New_York' } });
    const { soup } = await menu(db);
    // 23:30 on Saturday 31 October (EDT, UTC−4) and on Sunday 1 November (EST, UTC−5): both after
    // midnight UTC, and an hour apart in UTC once the clocks went back.
    const moments = [Date.UTC(2026, 10, 1, 3, 30), Date.UTC(2026, 10, 2, 4, 30)];
    for (const moment of moments) {
      clock.set(moment);
      const waiter = await staffOf(app, db, 'waiter');
      const ticket = await createBill(
        waiter.call,
        await order(waiter.call, [{ id: soup.id, cents: 1000 }]),
        {},
      );
      await pay(waiter.call, ticket, { method: 'cash', amount: 10 });
    }
    const reader = await staffOf(app, db, 'manager');
    const days = await report(reader.call, 'from=2026-10-31&to=2026-11-01&group_by=day');
    assert.deepEqual(
      days.map((row) => [row.key, row.gross]),
      [
        ['2026-10-31', 10],
        ['2026-11-01', 10],
      ],
    );
    const hours = await report(reader.call, 'from=2026-10-31&to=2026-11-01&group_by=hour');
    assert.deepEqual(
      hours.map((row) => row.key),
      ['2026-10-31 23:00', '2026-11-01 23:00'],
    );
    assert.equal((await reader.call('GET', '/reports/sales?from=2026-11-02&to=2026-11-02')).json().length, 0);
  });

  it('refuses bad ranges and readers without reports.read, and lists open balances', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { soup } = await menu(db);
    const manager = await staffOf(app, db, 'manager');
    const waiter = await staffOf(app, db, 'waiter');
    for (const query of [
      'from=2026-11-23&to=2026-11-22',
      'from=2025-01-01&to=2026-11-22',
      'from=2026-11-01&to=2026-11-22&group_by=table',
      'to=2026-11-22',
      'from=2026-02-30&to=2026-03-01',
    ]) {
      assert.equal((await manager.call('GET', `/reports/sales?${query}`)).statusCode, 400, query);
    }
    assert.equal((await waiter.call('GET', '/reports/sales?from=2026-11-01&to=2026-11-22')).statusCode, 403);
    assert.equal((await waiter.call('GET', '/reports/open-balances')).statusCode, 403);

    const unpaid = await order(waiter.call, [{ id: soup.id, cents: 1000 }]);
    const bill = await createBill(waiter.call, unpaid, {});
    await pay(waiter.call, bill, { method: 'cash', amount: 4 });
    for (const status of ['preparing', 'ready', 'completed']) {
      assert.equal((await waiter.call('PUT', `/orders/${unpaid}`, { status })).statusCode, 200);
    }
    const paidInFull = await order(waiter.call, [{ id: soup.id, cents: 1000 }]);
    const overpaid = await createBill(waiter.call, paidInFull, {});
    await pay(waiter.call, overpaid, { method: 'cash', amount: 10 });
    // What a Lightning invoice paid after the bill was settled in cash leaves behind.
    await db.updateTable('tickets').set({ paid_cents: 1500 }).where('id', '=', overpaid).execute();

    const balances = (await manager.call('GET', '/reports/open-balances')).json();
    assert.deepEqual(
      balances.orders.map((row: { id: string; total: number; paid: number; balance: number }) => [
        row.id,
        row.total,
        row.paid,
        row.balance,
      ]),
      [[unpaid, 10, 4, 6]],
    );
    assert.deepEqual(
      balances.overpaid_bills.map((row: { id: string; balance: number }) => [row.id, row.balance]),
      [[overpaid, -5]],
    );
  });
});
