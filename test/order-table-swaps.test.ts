import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Db } from '../src/core/db/database';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { insertOrder, insertTable } from './helpers/factories';
import { diningRoom } from './helpers/orders-factories';

/** Every table points at the one active order seated at it, or at nothing when none is. */
async function assertTablesMatchOrders(db: Db): Promise<void> {
  const tables = await db.selectFrom('dining_tables').select(['id', 'status', 'order_id']).execute();
  const active = await db
    .selectFrom('orders')
    .select(['id', 'table_id'])
    .where('status', 'in', ['pending', 'preparing', 'ready'])
    .where('is_deleted', '=', 0)
    .where('table_id', 'is not', null)
    .execute();
  for (const table of tables) {
    const seated = active.filter((order) => order.table_id === table.id).map((order) => order.id);
    assert.ok(seated.length <= 1, `table ${table.id} holds ${seated.length} active orders`);
    const expected = seated.length
      ? { status: 'occupied', order_id: seated[0] }
      : { status: 'available', order_id: null };
    assert.deepEqual({ status: table.status, order_id: table.order_id }, expected, `table ${table.id}`);
  }
}

/** Two tables, each with an active order, ready to swap. */
async function seatedPair(db: Db, userId: string) {
  const [first, second] = [(await insertTable(db)).id, (await insertTable(db)).id];
  const onFirst = (await insertOrder(db, { userId, tableId: first })).id;
  const onSecond = (await insertOrder(db, { userId, tableId: second })).id;
  return { first, second, onFirst, onSecond };
}

// On PostgreSQL a swap deadlocked (a 500) before order writes locked their tables in id order; the
// mixed race deadlocks when only updates take those locks, so it keeps creates and deletes honest.
describeEachDatabase('orders racing for tables', (target) => {
  it('refuses both moves of simultaneous table swaps, as it would one after the other', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, user } = await diningRoom(app, db);
    // Five pairs swap at once (ten requests, the size of the PostgreSQL pool), a hundred times over.
    const pairs = await Promise.all(Array.from({ length: 5 }, () => seatedPair(db, user.id)));
    const moves = pairs.flatMap((pair) => [
      { order: pair.onFirst, to: pair.second },
      { order: pair.onSecond, to: pair.first },
    ]);
    for (let round = 0; round < 100; round++) {
      const answers = await Promise.all(
        moves.map(async (move) => ({
          move,
          response: await call('PUT', `/orders/${move.order}`, { table_id: move.to }),
        })),
      );
      for (const { move, response } of answers) {
        assert.deepEqual(
          { status: response.statusCode, body: response.json() },
          { status: 400, body: { message: `Table with ID: ${move.to} already has an active order` } },
          `round ${round}`,
        );
      }
    }
    await assertTablesMatchOrders(db);
    for (const pair of pairs) {
      const seats = await db
        .selectFrom('orders')
        .select(['id', 'table_id'])
        .where('id', 'in', [pair.onFirst, pair.onSecond])
        .execute();
      assert.deepEqual(
        new Map(seats.map((seat) => [seat.id, seat.table_id])),
        new Map([
          [pair.onFirst, pair.first],
          [pair.onSecond, pair.second],
        ]),
      );
    }
  });

  it('keeps every table in step with its order when deletes, moves and new orders race for it', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, user } = await diningRoom(app, db);
    for (let round = 0; round < 50; round++) {
      // Two lanes at once, four requests each: within the PostgreSQL pool of ten.
      const lanes = await Promise.all(
        Array.from({ length: 2 }, async () => {
          const { first, second, onFirst, onSecond } = await seatedPair(db, user.id);
          const atCounter = (await insertOrder(db, { userId: user.id, tableId: null })).id;
          return [
            { send: () => call('DELETE', `/orders/${onFirst}`), allowed: [200] },
            { send: () => call('PUT', `/orders/${onSecond}`, { table_id: first }), allowed: [200, 400] },
            { send: () => call('POST', '/orders', { table_id: second }), allowed: [201, 400] },
            { send: () => call('PUT', `/orders/${atCounter}`, { table_id: second }), allowed: [200, 400] },
          ];
        }),
      );
      const answers = await Promise.all(
        lanes.flat().map(async ({ send, allowed }) => ({ allowed, response: await send() })),
      );
      for (const { allowed, response } of answers) {
        const summary = `round ${round}: ${response.statusCode} ${response.body}`;
        assert.ok(allowed.includes(response.statusCode), summary);
        if (response.statusCode === 400)
          assert.match(response.json().message, /already has an active order$/);
      }
    }
    await assertTablesMatchOrders(db);
  });
});
