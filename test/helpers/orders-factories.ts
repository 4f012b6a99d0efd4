import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Db } from '../../src/core/db/database';
import { loggedInUser } from './auth';
import { insertDish, insertTable, type UserFixture } from './factories';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Requests as the logged-in user: `call('POST', '/orders', body, { 'idempotency-key': 'k' })`. */
export type Caller = (
  method: Method,
  url: string,
  payload?: unknown,
  headers?: Record<string, string>,
) => Promise<LightMyRequestResponse>;

export function callerFor(app: FastifyInstance, cookies: string): Caller {
  return (method, url, payload, headers = {}) =>
    app.inject({ method, url, headers: { cookie: cookies, ...headers }, payload } as InjectOptions);
}

/** A logged-in waiter, a dish of 12.50 and a free table: what most order tests start from. */
export async function diningRoom(
  app: FastifyInstance,
  db: Db,
): Promise<{
  call: Caller;
  cookies: string;
  user: UserFixture;
  dish: { id: string; name: string; priceCents: number };
  table: { id: string };
}> {
  const { user, cookies } = await loggedInUser(app, db, 'staff');
  const dish = await insertDish(db, { priceCents: 1250 });
  const table = await insertTable(db);
  return { call: callerFor(app, cookies), cookies, user, dish, table };
}

export function storedOrder(db: Db, id: string) {
  return db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export function storedTable(db: Db, id: string) {
  return db
    .selectFrom('dining_tables')
    .select(['status', 'order_id'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

export function storedOrderDishes(db: Db, orderId: string) {
  return db.selectFrom('order_dishes').selectAll().where('order_id', '=', orderId).orderBy('id').execute();
}

/** Everything an order request can change, to prove a refused request changed nothing. */
export async function ordersSnapshot(db: Db) {
  return {
    orders: await db.selectFrom('orders').selectAll().orderBy('id').execute(),
    orderDishes: await db.selectFrom('order_dishes').selectAll().orderBy('id').execute(),
    tables: await db.selectFrom('dining_tables').selectAll().orderBy('id').execute(),
    idempotencyKeys: await db.selectFrom('idempotency_keys').selectAll().orderBy('scope').execute(),
  };
}

/** The kitchen fields of an order dish's view while it is still on the order, not yet sent. */
export function notYetSent(dishName: string) {
  return {
    dish_name: dishName,
    station: 'kitchen',
    status: 'pending',
    sent_at: null,
    ready_at: null,
    void_reason: null,
    voided_by: null,
    void_approved_by: null,
    ticket_id: null,
    // A plate ordered with only the spec's fields: no options, no seat, the first course.
    modifiers: [],
    seat: null,
    course: 1,
  };
}
