import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { Type } from 'typebox';
import { Money } from '../src/core/money';
import { validatorCompiler } from '../src/core/validation';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { insertCategory } from './helpers/factories';

const ACCEPTED: [string, number][] = [
  ['19.99', 1999],
  ['0.1', 10],
  ['1e-2', 1],
  ['0', 0],
  ['12.50', 1250],
  ['99999999.99', 9_999_999_999],
];
const REFUSED = ['1.0000000001', '1.001', '0.015', '12.345', '1e-9', '99999999.999', '-0.01', '100000000'];

describeEachDatabase('money in requests', (target) => {
  it('stores amounts with at most two decimals exactly, and refuses any other with 400', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db);
    const category = await insertCategory(db, { type: 'dish' });
    const createDish = (price: string) =>
      app.inject({
        method: 'POST',
        url: '/dishes',
        headers: { cookie: cookies, 'content-type': 'application/json' },
        // Raw JSON text, so the number reaches the server exactly as written.
        payload: `{"name":"Dish ${price}","price":${price},"category_id":"${category.id}"}`,
      });

    for (const price of REFUSED) {
      const response = await createDish(price);
      assert.equal(response.statusCode, 400, price);
      assert.equal(response.json().message, 'Validation failed');
      assert.ok(
        response.json().details.some((detail: { field: string }) => detail.field === 'price'),
        price,
      );
    }
    assert.deepEqual(await db.selectFrom('dishes').selectAll().execute(), []);

    for (const [price, cents] of ACCEPTED) {
      const response = await createDish(price);
      assert.equal(response.statusCode, 201, `${price}: ${response.body}`);
      const stored = await db
        .selectFrom('dishes')
        .select('price_cents')
        .where('id', '=', response.json().id)
        .executeTakeFirstOrThrow();
      assert.equal(stored.price_cents, cents, price);
    }
  });
});

it('accepts every whole number of cents and refuses every amount with a third decimal', () => {
  const validate = validatorCompiler({
    schema: Type.Object({ amount: Money() }),
    httpPart: 'body',
    method: 'POST',
    url: '/',
  }) as (value: unknown) => boolean;
  const maxCents = 9_999_999_999;
  fc.assert(fc.property(fc.integer({ min: 0, max: maxCents }), (cents) => validate({ amount: cents / 100 })));
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: maxCents - 1 }),
      fc.integer({ min: 1, max: 9 }),
      // Up to 4 more digits: 14 significant digits, all of which a double holds.
      fc.integer({ min: 1, max: 4 }),
      (cents, digit, depth) => !validate({ amount: (cents + digit / 10 ** depth) / 100 }),
    ),
  );
});
