import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { insertCategory, insertDish } from './helpers/factories';
import { type Caller, callerFor } from './helpers/orders-factories';

const DAY_MS = 86_400_000;
const GROUPINGS = ['hour', 'payment_method', 'dish', 'category', 'waiter'] as const;
/**
 * What every grouping must add up to, the day's: each Paid bill's items, gross, discounts, refunds,
 * net and tips are shared out to the cent among its payment methods and its dishes, and a bill has
 * one hour and one waiter, so no grouping loses or doubles money or plates. `orders` is not among
 * them: an order paid by cash and card is one order of each method, and one of the day.
 */
const SUMMED = ['items', 'gross', 'discounts', 'refunds', 'net', 'tips'] as const;
type Row = Record<(typeof SUMMED)[number], number> & { key: string; orders: number };

type Split =
  | { kind: 'whole' }
  | { kind: 'evenly'; ways: number }
  | { kind: 'amount'; cents: number[] }
  | { kind: 'dishes' }
  /** The first plate on a bill of its own, the rest by amount. */
  | { kind: 'mixed'; cents: number[] };
type OrderPlan = {
  plates: { dish: number; priceCents: number; voided: boolean }[];
  split: Split;
  discountPercent: number;
  /** Per bill: paid in full (one or two methods), or only partly (not Paid, out of the reports). */
  payments: { methods: ('cash' | 'card')[]; tipCents: number; partial: boolean; refundPercent: number }[];
};

const plateArb = fc.record({
  dish: fc.nat({ max: 3 }),
  priceCents: fc.integer({ min: 1, max: 4000 }),
  voided: fc.boolean(),
});
const orderArb: fc.Arbitrary<OrderPlan> = fc.record({
  plates: fc.array(plateArb, { minLength: 1, maxLength: 5 }),
  split: fc.oneof(
    fc.constant<Split>({ kind: 'whole' }),
    fc.integer({ min: 2, max: 3 }).map((ways): Split => ({ kind: 'evenly', ways })),
    fc
      .array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 3 })
      .map((cents): Split => ({ kind: 'amount', cents })),
    fc.constant<Split>({ kind: 'dishes' }),
    fc
      .array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 2 })
      .map((cents): Split => ({ kind: 'mixed', cents })),
  ),
  discountPercent: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50 })),
  payments: fc.array(
    fc.record({
      methods: fc.array(fc.constantFrom<'cash' | 'card'>('cash', 'card'), { minLength: 1, maxLength: 2 }),
      tipCents: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 500 })),
      partial: fc.boolean(),
      refundPercent: fc.oneof(fc.constant(0), fc.constant(100), fc.integer({ min: 1, max: 99 })),
    }),
    { minLength: 4, maxLength: 4 },
  ),
});

async function ok(call: Caller, method: Parameters<Caller>[0], url: string, body?: unknown) {
  const response = await call(method, url, body);
  assert.ok(response.statusCode < 300, `${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.statusCode === 204 ? undefined : response.json();
}

const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);

describeEachDatabase('sales report groupings (property)', (target) => {
  it('every grouping adds up to the day, and every plate of a paid order counts once', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const categories = [await insertCategory(db), await insertCategory(db)];
    const dishes: { id: string; name: string }[] = [];
    for (let index = 0; index < 4; index++)
      dishes.push(
        await insertDish(db, { categoryId: (categories[index % 2] as { id: string }).id, priceCents: 1000 }),
      );

    await fc.assert(
      fc.asyncProperty(fc.array(orderArb, { minLength: 1, maxLength: 3 }), async (plans) => {
        // Each run on a day of its own, at noon UTC (the test zone), so runs never mix.
        clock.set(Math.ceil((clock.now() + 1) / DAY_MS) * DAY_MS + DAY_MS / 2);
        const day = dayOf(clock.now());
        // Logged in again each day: a session does not outlive the clock's jump.
        const call = callerFor(app, (await loggedInUser(app, db, 'admin')).cookies);
        // Plates are priced freely here, which is a price override: a manager's, not a waiter's (403).
        const waiter = callerFor(app, (await loggedInUser(app, db, 'manager')).cookies);
        let expectedItems = 0;
        // What each dish's plates were priced at: its gross by dish can never be more, but for the
        // cent each amount-split bill's flooring may move to one of its lines.
        const pricedCents = new Map<string, number>();
        let amountBills = 0;
        for (const [orderIndex, plan] of plans.entries()) {
          const creator = orderIndex % 2 === 0 ? call : waiter;
          const order = await ok(creator, 'POST', '/orders/with-dishes', {
            order: {},
            dishes: plan.plates.map((plate) => ({
              dish_id: dishes[plate.dish]?.id,
              price_at_order: plate.priceCents / 100,
            })),
          });
          const orderId = order.id as string;
          const lines = await db
            .selectFrom('order_dishes')
            .select(['id', 'price_at_order_cents'])
            .where('order_id', '=', orderId)
            .execute();
          const live = [];
          for (const [index, plate] of plan.plates.entries()) {
            const found = lines.findIndex((row) => Number(row.price_at_order_cents) === plate.priceCents);
            const line = lines.splice(found, 1)[0] as { id: string };
            if (plate.voided && index > 0) {
              await ok(call, 'PUT', `/orders/${orderId}/dishes/${line.id}/status`, {
                status: 'voided',
                reason: 'Cold',
              });
            } else {
              live.push({ id: line.id, priceCents: plate.priceCents });
              const dishId = (dishes[plate.dish] as { id: string }).id;
              pricedCents.set(dishId, (pricedCents.get(dishId) ?? 0) + plate.priceCents);
            }
          }
          const totalCents = live.reduce((sum, plate) => sum + plate.priceCents, 0);
          const discount = (index: number) =>
            plan.discountPercent > 0 && index === 0
              ? { discount: { type: 'percent', value: plan.discountPercent, reason: 'Regulars' } }
              : {};
          const bills: { body: Record<string, unknown>; plates: number; byAmount: boolean }[] = [];
          if (plan.split.kind === 'whole') bills.push({ body: {}, plates: live.length, byAmount: false });
          if (plan.split.kind === 'dishes')
            for (const plate of live)
              bills.push({ body: { order_dish_ids: [plate.id] }, plates: 1, byAmount: false });
          let left = totalCents;
          if (plan.split.kind === 'mixed') {
            const [first] = live as [{ id: string; priceCents: number }];
            bills.push({ body: { order_dish_ids: [first.id] }, plates: 1, byAmount: false });
            left -= first.priceCents;
          }
          if (plan.split.kind === 'evenly' || plan.split.kind === 'amount' || plan.split.kind === 'mixed') {
            const ways = plan.split.kind === 'evenly' ? plan.split.ways : 0;
            const shares =
              plan.split.kind === 'evenly'
                ? Array.from({ length: ways }, (_, index) =>
                    index < ways - 1
                      ? Math.floor(totalCents / ways)
                      : totalCents - Math.floor(totalCents / ways) * (ways - 1),
                  )
                : plan.split.cents;
            for (const share of shares) {
              const cents = Math.min(share, left);
              if (cents <= 0) break;
              left -= cents;
              bills.push({ body: { amount: cents / 100 }, plates: 0, byAmount: true });
              amountBills += 1;
            }
          }
          let amountBillPaid = false;
          for (const [index, bill] of bills.entries()) {
            const ticketId = (
              await ok(call, 'POST', `/orders/${orderId}/tickets`, { ...bill.body, ...discount(index) })
            ).id as string;
            const ticket = await ok(call, 'GET', `/tickets/${ticketId}`);
            const payment = plan.payments[index % plan.payments.length] as OrderPlan['payments'][number];
            let balanceCents = Math.round(ticket.balance * 100);
            if (balanceCents === 0) {
              // Discounted to nothing: Paid without a payment.
            } else if (payment.partial) {
              if (balanceCents > 1)
                await ok(call, 'POST', `/tickets/${ticketId}/payments`, { method: 'cash', amount: 0.01 });
              continue;
            } else {
              const taken: { id: string; cents: number }[] = [];
              for (const [methodIndex, method] of payment.methods.entries()) {
                const isLast = methodIndex === payment.methods.length - 1;
                const cents = isLast ? balanceCents : Math.ceil(balanceCents / 2);
                if (cents <= 0) continue;
                balanceCents -= cents;
                const paid = await ok(call, 'POST', `/tickets/${ticketId}/payments`, {
                  method,
                  amount: cents / 100,
                  ...(isLast && payment.tipCents > 0 && { tip: payment.tipCents / 100 }),
                });
                taken.push({ id: paid.id, cents });
              }
              // Refunded once the bill is Paid (a refund before would reopen its balance).
              for (const { id, cents } of taken) {
                const refundCents = Math.floor((cents * payment.refundPercent) / 100);
                if (refundCents > 0)
                  await ok(call, 'POST', `/payments/${id}/refund`, {
                    amount: refundCents / 100,
                    reason: 'Cold',
                  });
              }
            }
            if (bill.byAmount) amountBillPaid = true;
            else expectedItems += bill.plates;
          }
          // Plates on no bill of their own are counted once, with the order's first paid amount bill.
          if (amountBillPaid)
            expectedItems += live.length - bills.reduce((sum, bill) => sum + bill.plates, 0);
        }

        const read = async (groupBy: string) =>
          (await ok(call, 'GET', `/reports/sales?from=${day}&to=${day}&group_by=${groupBy}`)) as Row[];
        const [dayRow] = await read('day');
        const totals = Object.fromEntries(SUMMED.map((figure) => [figure, dayRow?.[figure] ?? 0]));
        assert.equal(totals.items, expectedItems, 'every plate of the paid orders once');
        for (const grouping of GROUPINGS) {
          const rows = await read(grouping);
          const sums = Object.fromEntries(
            SUMMED.map((figure) => [
              figure,
              Math.round(rows.reduce((sum, row) => sum + row[figure] * 100, 0)) / 100,
            ]),
          );
          assert.deepEqual(sums, totals, `group_by=${grouping}`);
          for (const row of rows) assert.ok(row.items >= 0 && row.gross >= 0, `${grouping} ${row.key}`);
        }
        for (const row of await read('dish')) {
          const dish = dishes.find((candidate) => candidate.name === row.key) as { id: string };
          assert.ok(
            Math.round(row.gross * 100) <= (pricedCents.get(dish.id) ?? 0) + amountBills,
            `${row.key} sold ${row.gross}`,
          );
        }
      }),
      { numRuns: 25 },
    );
  });
});
