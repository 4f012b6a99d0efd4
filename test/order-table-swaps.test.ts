import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Db } from '../src/core/db/database';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { insertOrder, insertTable } from './helpers/factories';
import { diningRoom } from './helpers/orders-factories';

const ACTIVE = ['pending', 'preparing', 'ready'];

/** Every table points at the one active order seated at it, or at nothing when none is. */
async function assertTablesMatchOrders(db: Db): Promise<void> {
  const tables = await db.selectFrom('dining_tables').select(['id', 'status', 'order_id']).execute();
  const active = await db
    .selectFrom('orders')
    .select(['id', 'table_id'])
    .where('status', 'in', ACTIVE)
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

describeEachDatabase('orders swapping tables', (target) => {
  it('refuses both moves of simultaneous table swaps, without a server error', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call } = await diningRoom(app, db);
    // Five pairs swap at once (ten requests, the size of the PostgreSQL pool), twenty times over.
    const pairs = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const tables = [(await insertTable(db)).id, (await insertTable(db)).id];
        const orders = [];
        for (const table_id of tables) orders.push((await call('POST', '/orders', { table_id })).json().id);
        return { tables, orders };
      }),
    );
    const statuses = new Set<number>();
    for (let round = 0; round < 100; round++) {
      const moves = pairs.flatMap(({ tables, orders }) => [
        { order: orders[0], to: tables[1] },
        { order: orders[1], to: tables[0] },
      ]);
      const responses = await Promise.all(
        moves.map(({ order, to }) => call('PUT', `/orders/${order}`, { table_id: to })),
      );
      responses.forEach((response, index) => {
        statuses.add(response.statusCode);
        // One after the other, each move finds its target taken; at the same moment, the same answer.
        assert.deepEqual(
          { status: response.statusCode, body: response.json() },
          { status: 400, body: { message: `Table with ID: ${moves[index].to} already has an active order` } },
          `round ${round}`,
        );
      });
    }
    assert.deepEqual([...statuses], [400]);
    await assertTablesMatchOrders(db);
    for (const { tables, orders } of pairs) {
      const seats = await db
        .selectFrom('orders')
        .select(['id', 'table_id'])
        .where('id', 'in', orders)
        .execute();
      assert.deepEqual(
        new Map(seats.map((seat) => [seat.id, seat.table_id])),
        new Map([
          [orders[0], tables[0]],
          [orders[1], tables[1]],
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
          const [first, second] = [(await insertTable(db)).id, (await insertTable(db)).id];
          const seated = await insertOrder(db, { userId: user.id, tableId: first });
          const moving = await insertOrder(db, { userId: user.id, tableId: second });
          const counter = await insertOrder(db, { userId: user.id, tableId: null });
          return [
            { send: () => call('DELETE', `/orders/${seated.id}`), allowed: [200] },
            { send: () => call('PUT', `/orders/${moving.id}`, { table_id: first }), allowed: [200, 400] },
            { send: () => call('POST', '/orders', { table_id: second }), allowed: [201, 400] },
            { send: () => call('PUT', `/orders/${counter.id}`, { table_id: second }), allowed: [200, 400] },
          ];
        }),
      );
      const requests = lanes.flat();
      const responses = await Promise.all(requests.map(({ send }) => send()));
      responses.forEach((response, index) => {
        const { allowed } = requests[index];
        assert.ok(
          allowed.includes(response.statusCode),
          `round ${round}: ${response.statusCode} ${response.body}`,
        );
        if (response.statusCode === 400)
          assert.match(response.json().message, /already has an active order$/);
      });
    }
    await assertTablesMatchOrders(db);
  });
});
