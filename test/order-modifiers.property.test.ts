import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { tacoMenu } from './helpers/modifier-factories';
import { callerFor, storedOrder } from './helpers/orders-factories';

/** Which options a plate takes: the tortilla (required, one) and up to two extras. */
const choiceArb = fc.record({
  isFlour: fc.boolean(),
  extras: fc.subarray([0, 1, 2], { maxLength: 2 }),
});
type Choice = { isFlour: boolean; extras: number[] };

type Step =
  | { kind: 'add'; choice: Choice; quantity: number }
  | { kind: 'rechoose'; plate: number; choice: Choice }
  | { kind: 'void'; plate: number }
  | { kind: 'bill'; plate: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    choice: choiceArb,
    quantity: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({ kind: fc.constant('rechoose' as const), plate: fc.nat({ max: 20 }), choice: choiceArb }),
  fc.record({ kind: fc.constant('void' as const), plate: fc.nat({ max: 20 }) }),
  fc.record({ kind: fc.constant('bill' as const), plate: fc.nat({ max: 20 }) }),
);

describeEachDatabase('order totals with modifiers (property)', (target) => {
  it('keeps the order total equal to the sum of its live plates, options included, whatever the steps', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const call = callerFor(app, (await loggedInUser(app, db, 'manager')).cookies);
    const menu = await tacoMenu(call, db);
    const extras = [menu.pineapple, menu.cheese, menu.noOnion];
    const optionIds = (choice: Choice) => [
      choice.isFlour ? menu.flour.id : menu.corn.id,
      ...choice.extras.map((index) => extras[index]?.id as string),
    ];
    const deltaCents = new Map(
      [menu.corn, menu.flour, ...extras].map((option) => [option.id, Math.round(option.price_delta * 100)]),
    );

    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 8 }), async (steps) => {
        const { id: orderId } = (await call('POST', '/orders', {})).json();
        const plates: string[] = [];
        for (const step of steps) {
          const plate = plates[step.kind === 'add' ? 0 : step.plate % Math.max(plates.length, 1)];
          if (step.kind === 'add') {
            const added = await call('POST', `/orders/${orderId}/dishes`, [
              { dish_id: menu.tacos.id, modifiers: optionIds(step.choice), quantity: step.quantity },
            ]);
            assert.equal(added.statusCode, 201, added.body);
            plates.push(...added.json().ids);
          } else if (plate === undefined) {
            // Nothing on the order yet to change.
          } else if (step.kind === 'rechoose') {
            // Refused when the plate is voided or billed: either way the total must still hold.
            await call('PUT', `/orders/${orderId}/dishes/${plate}`, { modifiers: optionIds(step.choice) });
          } else if (step.kind === 'void') {
            await call('PUT', `/orders/${orderId}/dishes/${plate}/status`, {
              status: 'voided',
              reason: 'test',
            });
          } else {
            await call('POST', `/orders/${orderId}/tickets`, { order_dish_ids: [plate] });
          }
        }
        const listed = await call('GET', `/orders/${orderId}/dishes`);
        const views = (listed.statusCode === 204 ? [] : listed.json()) as {
          status: string;
          price_at_order: number;
          modifiers: { option_id: string }[];
        }[];
        for (const view of views) {
          const expected =
            3000 +
            view.modifiers.reduce((sum, modifier) => sum + (deltaCents.get(modifier.option_id) ?? 0), 0);
          assert.equal(Math.round(view.price_at_order * 100), expected);
        }
        const liveCents = views
          .filter((view) => view.status !== 'voided')
          .reduce((sum, view) => sum + Math.round(view.price_at_order * 100), 0);
        assert.equal(Number((await storedOrder(db, orderId)).total_cents), liveCents);
      }),
      { numRuns: 15 },
    );
  });
});
