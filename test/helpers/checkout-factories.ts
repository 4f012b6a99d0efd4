import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/core/db/database';
import { loggedInUser } from './auth';
import { withoutPosition } from './db-digest';
import { insertDish } from './factories';
import { type Caller, callerFor } from './orders-factories';

/**
 * A cashier (staff), an administrator, and an open order with dishes at these prices in cents,
 * created through the API: what most bill tests start from.
 */
export async function billableOrder(
  app: FastifyInstance,
  db: Db,
  pricesCents: number[] = [1000, 2000, 3000],
): Promise<{ call: Caller; admin: Caller; cookies: string; orderId: string; dishIds: string[] }> {
  const { cookies } = await loggedInUser(app, db, 'staff');
  const { cookies: adminCookies } = await loggedInUser(app, db, 'admin');
  const call = callerFor(app, cookies);
  const dish = await insertDish(db);
  const created = await call('POST', '/orders/with-dishes', {
    order: {},
    dishes: pricesCents.map((cents) => ({ dish_id: dish.id, price_at_order: cents / 100 })),
  });
  assert.equal(created.statusCode, 201, created.body);
  const orderId = created.json().id as string;
  const dishes = await db
    .selectFrom('order_dishes')
    .select(['id', 'price_at_order_cents'])
    .where('order_id', '=', orderId)
    .execute();
  // In the order of the prices given, so tests can name a dish by its price.
  const dishIds = pricesCents.map((cents) => {
    const index = dishes.findIndex((row) => Number(row.price_at_order_cents) === cents);
    const [row] = dishes.splice(index, 1);
    return row?.id as string;
  });
  return { call, admin: callerFor(app, adminCookies), cookies, orderId, dishIds };
}

/** Creates a bill and returns its id, asserting the 201. */
export async function createBill(call: Caller, orderId: string, body: unknown = {}): Promise<string> {
  const response = await call('POST', `/orders/${orderId}/tickets`, body);
  assert.equal(response.statusCode, 201, response.body);
  return response.json().id as string;
}

/**
 * The outbox in insertion order, without `position`: PostgreSQL's sequencer numbers events in the
 * background, so a position may appear between two reads that no request changed.
 */
export async function storedEvents(db: Db) {
  const rows = await db.selectFrom('events').selectAll().orderBy('id').execute();
  return rows.map(withoutPosition).map((row) => ({
    ...row,
    id: Number(row.id),
    payload: JSON.parse(row.payload),
  }));
}
