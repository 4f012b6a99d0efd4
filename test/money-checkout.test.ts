import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { billableOrder, createBill } from './helpers/checkout-factories';
import { sqliteTarget } from './helpers/database';
import { databaseDigest } from './helpers/db-digest';

/** Parsed as 1.0000000001: a double holds it, so it must not be rounded to 1.00. */
const THIRD_DECIMAL = 1.0000000001;

describeEachDatabase('money with more than two decimals at checkout', (target) => {
  it('refuses bill amounts, discount values, payment amounts, Lightning amounts and refunds with 400', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, admin, orderId } = await billableOrder(app, db);
    const ticketId = await createBill(call, orderId, { amount: 30 });
    const paymentId = (
      await call('POST', `/tickets/${ticketId}/payments`, { method: 'cash', amount: 10 })
    ).json().id as string;
    const before = await databaseDigest(db);
    const cases: [typeof call, string, unknown, string][] = [
      [call, `/orders/${orderId}/tickets`, { amount: THIRD_DECIMAL }, 'amount'],
      [
        admin,
        `/orders/${orderId}/tickets`,
        { discount: { type: 'amount', value: THIRD_DECIMAL, reason: 'Regular' } },
        'discount.value',
      ],
      [
        admin,
        `/orders/${orderId}/tickets`,
        { discount: { type: 'percent', value: 12.505, reason: 'Regular' } },
        'discount.value',
      ],
      [call, `/tickets/${ticketId}/payments`, { method: 'cash', amount: THIRD_DECIMAL }, 'amount'],
      [call, `/tickets/${ticketId}/payments`, { method: 'cash', amount: 1, tip: 0.001 }, 'tip'],
      [call, `/tickets/${ticketId}/lightning`, { amount: THIRD_DECIMAL }, 'amount'],
      [admin, `/payments/${paymentId}/refund`, { amount: THIRD_DECIMAL, reason: 'Cold soup' }, 'amount'],
    ];
    for (const [caller, url, body, field] of cases) {
      const response = await caller('POST', url, body);
      assert.equal(response.statusCode, 400, `${url} ${JSON.stringify(body)}: ${response.body}`);
      assert.equal(response.json().message, 'Validation failed');
      assert.deepEqual(
        [...new Set(response.json().details.map((detail: { field: string }) => detail.field))],
        [field],
        url,
      );
    }
    assert.equal(await databaseDigest(db), before);
  });
});

it('checks every two-decimal number of every request exactly (x-whole-cents), not only with multipleOf', async (t) => {
  const { app } = await buildTestApp(t, sqliteTarget);
  await app.ready();
  const inexact: string[] = [];
  let seen = 0;
  const walk = (schema: unknown, where: string) => {
    if (typeof schema !== 'object' || schema === null) return;
    const node = schema as Record<string, unknown>;
    if (node.multipleOf === 0.01) {
      seen += 1;
      if (node['x-whole-cents'] !== true) inexact.push(where);
    }
    for (const [key, value] of Object.entries(node)) walk(value, `${where}.${key}`);
  };
  const document = app.swagger() as unknown as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      walk(operation.requestBody, `${method.toUpperCase()} ${path} body`);
      walk(operation.parameters, `${method.toUpperCase()} ${path} parameters`);
    }
  }
  assert.ok(seen >= 10, 'the walk saw the money fields');
  assert.deepEqual(inexact, []);
});
