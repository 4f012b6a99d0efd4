import assert from 'node:assert/strict';
import { it } from 'node:test';
import { type Insertable, type Kysely, type Migrator, sql } from 'kysely';
import { runBackfills } from '../src/core/db/backfills';
import { type Db, openDatabase } from '../src/core/db/database';
import { backfills } from '../src/core/db/migrations';
import * as amountSplitsMigration from '../src/core/db/migrations/0022_sales_facts_amount_splits';
import * as ordersOnFactsMigration from '../src/core/db/migrations/0045_dashboard';
import type { Database, PaymentStatus } from '../src/core/db/schema';
import { refreshSalesFacts } from '../src/orders/sales-facts';
import { describeEachDatabase } from './helpers/app';
import { migratorOf } from './helpers/migrations';

const AT = Date.UTC(2026, 10, 22, 18, 0, 0);
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

async function migrateTo(migrator: Migrator, name: string): Promise<void> {
  const { error } = await migrator.migrateTo(name);
  assert.equal(error, undefined);
}

/** Every fact, every column, in key order; bigints as numbers (PostgreSQL returns them as strings). */
async function allFacts(db: Db) {
  const rows = await db
    .selectFrom('sales_facts')
    .selectAll()
    .orderBy('kind')
    .orderBy('paid_at')
    .orderBy('ticket_id')
    .orderBy('line')
    .execute();
  return rows.map((row) => ({
    ...row,
    paid_at: Number(row.paid_at),
    order_rows: Number(row.order_rows),
    items: Number(row.items),
    gross: Number(row.gross),
    discounts: Number(row.discounts),
    refunds: Number(row.refunds),
    tips: Number(row.tips),
  }));
}

/**
 * Bills as a database of 0015 holds them, written row by row (no feature code runs at 0015): a bill
 * paid by two methods with a discount, a tip, a partial refund and an expired Lightning attempt; a
 * bill split by amount beside a voided dish, a pending bill and a cancelled one; an order split by
 * dishes into two paid bills, one refunded in full, one paid twice at the same instant; a bill
 * discounted to nothing.
 */
async function writeBillsOf0015(db: Db): Promise<string[]> {
  const userIds = [id(1), id(2)];
  for (const [index, userId] of userIds.entries())
    await db
      .insertInto('users')
      .values({
        id: userId,
        name: `User ${index}`,
        name_key: `user ${index}`,
        pin_hash: 'hash',
        role: 'admin',
        wallet_password_hash: null,
        created_at: AT,
        updated_at: AT,
      })
      .execute();
  await db
    .insertInto('categories')
    .values({ id: id(10), name: 'Mains', type: 'dish', created_at: AT, updated_at: AT })
    .execute();
  const dishIds = [id(11), id(12), id(13)];
  for (const dishId of dishIds)
    await db
      .insertInto('dishes')
      .values({
        id: dishId,
        name: dishId,
        price_cents: 1000,
        category_id: id(10),
        created_at: AT,
        updated_at: AT,
      })
      .execute();

  let next = 100;
  const order = async (userId: string, dishes: [number, string?][]) => {
    const orderId = id(next++);
    await db
      .insertInto('orders')
      .values({
        id: orderId,
        user_id: userId,
        table_id: null,
        waiter: userId,
        status: 'completed',
        total_cents: dishes.reduce((sum, [price]) => sum + price, 0),
        created_at: AT,
        updated_at: AT,
      })
      .execute();
    const lines: string[] = [];
    for (const [index, [price, status]] of dishes.entries()) {
      const line = id(next++);
      lines.push(line);
      await db
        .insertInto('order_dishes')
        .values({
          id: line,
          order_id: orderId,
          dish_id: dishIds[index % dishIds.length] as string,
          price_at_order_cents: price,
          notes: '',
          created_at: AT,
          sent_at: null,
          ready_at: null,
          void_reason: status === 'voided' ? 'Wrong dish' : null,
          voided_at: status === 'voided' ? AT : null,
          ...(status && { status: status as 'voided' }),
          // The table as migration 0015 left it: the ordinal came with 0032.
        } as Insertable<Database['order_dishes']>)
        .execute();
    }
    return { orderId, lines };
  };
  const bill = async (
    orderId: string,
    bill: { status: 1 | 2 | 3; subtotal: number; discount?: number; tips?: number; paidAt?: number },
    lines: string[],
  ) => {
    const ticketId = id(next++);
    const discount = bill.discount ?? 0;
    await db
      .insertInto('tickets')
      .values({
        id: ticketId,
        order_id: orderId,
        status: bill.status,
        subtotal_cents: bill.subtotal,
        discount_cents: discount,
        discount_type: discount > 0 ? 'amount' : null,
        discount_value: discount > 0 ? discount / 100 : null,
        discount_reason: discount > 0 ? 'Regulars' : null,
        total_cents: bill.subtotal - discount,
        tips_cents: bill.tips ?? 0,
        created_by: userIds[0] as string,
        created_at: AT,
        updated_at: AT,
        paid_at: bill.status === 2 ? (bill.paidAt ?? AT) : null,
        canceled_at: bill.status === 3 ? AT : null,
      })
      .execute();
    for (const line of lines)
      await db
        .insertInto('ticket_dishes')
        .values({ ticket_id: ticketId, order_dish_id: line, is_live: bill.status === 3 ? 0 : 1 })
        .execute();
    return ticketId;
  };
  const payment = async (
    ticketId: string,
    method: string,
    amount: number,
    options: { tip?: number; refunded?: number; status?: PaymentStatus; at?: number } = {},
  ) => {
    await db
      .insertInto('payments')
      .values({
        id: id(next++),
        ticket_id: ticketId,
        method,
        amount_cents: amount,
        tip_cents: options.tip ?? 0,
        tendered_cents: null,
        change_cents: null,
        refunded_cents: options.refunded ?? 0,
        status: options.status ?? 'settled',
        created_by: userIds[0] as string,
        created_at: options.at ?? AT,
        settled_at: options.status === 'expired' ? null : (options.at ?? AT),
        amount_sat: null,
        rate: null,
        payment_hash: null,
        invoice: null,
        expires_at: null,
        received_sat: null,
      })
      .execute();
  };

  const first = await order(userIds[0] as string, [[3333], [1000], [1000]]);
  const whole = await bill(
    first.orderId,
    { status: 2, subtotal: 5333, discount: 533, tips: 300 },
    first.lines,
  );
  await payment(whole, 'lightning', 2000, { status: 'expired', at: AT - 2000 });
  await payment(whole, 'cash', 2000, { at: AT - 1000 });
  await payment(whole, 'card', 2800, { tip: 300, refunded: 450, status: 'partially_refunded' });

  const second = await order(userIds[1] as string, [[1500], [700], [700, 'voided']]);
  const byAmount = await bill(second.orderId, { status: 2, subtotal: 999, paidAt: AT + 60_000 }, []);
  await payment(byAmount, 'card', 999, { at: AT + 60_000 });
  await bill(second.orderId, { status: 3, subtotal: 1500 }, [second.lines[0] as string]);
  await bill(second.orderId, { status: 1, subtotal: 1201 }, [second.lines[1] as string]);

  const third = await order(userIds[0] as string, [[1250], [990], [990]]);
  const one = await bill(third.orderId, { status: 2, subtotal: 1250 }, [third.lines[0] as string]);
  await payment(one, 'cash', 1250, { refunded: 1250, status: 'refunded' });
  const two = await bill(third.orderId, { status: 2, subtotal: 1980, tips: 101 }, third.lines.slice(1));
  await payment(two, 'cash', 1000);
  await payment(two, 'card', 980, { tip: 101 });

  const fourth = await order(userIds[1] as string, [[800]]);
  await bill(
    fourth.orderId,
    { status: 2, subtotal: 800, discount: 800, paidAt: AT + 3_600_000 },
    fourth.lines,
  );
  return [first.orderId, second.orderId, third.orderId, fourth.orderId];
}

/** The backfill of 0022 alone, `size` orders a batch; `stopAfter` batches, a close of the server mid-way. */
async function backfill(db: Db, size: number, stopAfter = Number.POSITIVE_INFINITY) {
  const batches: number[] = [];
  const isComplete = await runBackfills(db as unknown as Kysely<unknown>, backfills, {
    batchSize: size,
    shouldStop: () => batches.length >= stopAfter,
    onProgress: ({ done }) => batches.push(done),
  });
  return { isComplete, batches };
}

describeEachDatabase('migrations 0016, 0022 and 0045 sales facts', (target) => {
  it('backfills a database at 0015 by batches of orders, resumes after a stop, and writes what refreshSalesFacts does today', async (t) => {
    const { url, drop } = await target.url();
    const database = openDatabase(url);
    t.after(async () => {
      await database.close();
      await drop();
    });
    const { db } = database;
    const migrator = await migratorOf(database);
    await migrateTo(migrator, '0015_report_indexes');
    const orderIds = await writeBillsOf0015(db);

    await migrateTo(migrator, '0016_sales_facts');
    assert.deepEqual(await allFacts(db), [], '0016 leaves the facts to the backfill of 0022');

    // 0022 schedules the backfill. Run on its own: this fixture's bills predate checks that 0018 adds,
    // and the backfill reads none of it.
    const migrating = db as unknown as Kysely<unknown>;
    await amountSplitsMigration.up(migrating);
    const stopped = await backfill(db, 1, 2);
    assert.deepEqual(
      stopped,
      { isComplete: false, batches: [1, 2] },
      'one order a transaction, stopped after two',
    );
    assert.deepEqual(
      new Set((await allFacts(db)).map((fact) => fact.order_id)),
      new Set([...orderIds].sort().slice(0, 2)),
      'the facts of the first two orders in id order are committed',
    );

    const resumed = await backfill(db, 1);
    assert.deepEqual(resumed, { isComplete: true, batches: [3, 4, 4] }, 'the restart goes on from the third');
    const batched = await allFacts(db);
    assert.deepEqual(
      ['bill', 'method', 'dish'].map((kind) => batched.filter((fact) => fact.kind === kind).length),
      [5, 6, 8],
      'every kind of fact of the five Paid bills',
    );

    // Run again in one batch (0022 run after a down), over the facts already there: the same rows.
    await amountSplitsMigration.up(migrating);
    assert.deepEqual(await backfill(db, 1000), { isComplete: true, batches: [4, 4] });
    assert.deepEqual(await allFacts(db), batched);

    // Two servers starting together on one database: they take turns, and no order is done twice.
    await amountSplitsMigration.up(migrating);
    // (SQLite in memory is one database per handle: one handle serves both, a transaction at a time.)
    const other = database.dialect === 'postgres' ? openDatabase(url) : database;
    if (other !== database) t.after(() => other.close());
    const [first, second] = await Promise.all([backfill(db, 1), backfill(other.db, 1)]);
    assert.equal((first?.batches.length ?? 0) + (second?.batches.length ?? 0) >= 5, true);
    assert.deepEqual(await allFacts(db), batched);

    // 0045 and its backfill, with the order's guests and channel that later migrations add (those
    // between add checks this fixture predates): today's statement writes the same facts.
    await sql`alter table orders add column guests integer`.execute(db);
    await sql`alter table orders add column channel text not null default 'dine_in'`.execute(db);
    const [withGuests, , splitByDishes, delivered] = orderIds as [string, string, string, string];
    await db
      .updateTable('orders')
      .set({ guests: 4 })
      .where('id', 'in', [withGuests, splitByDishes])
      .execute();
    await db.updateTable('orders').set({ channel: 'ubereats' }).where('id', '=', delivered).execute();
    await ordersOnFactsMigration.up(migrating);
    assert.deepEqual(await backfill(db, 2), { isComplete: true, batches: [2, 4, 4] });
    const upgraded = await allFacts(db);
    assert.deepEqual(
      upgraded
        .filter((fact) => fact.kind === 'bill')
        .map((fact) => [fact.order_id, fact.guests, fact.channel, Number(fact.seated_at), fact.is_last_bill]),
      [
        [withGuests, 4, 'dine_in', AT, 1],
        // Its two bills were paid at the same instant: the later by id is the last.
        [splitByDishes, 4, 'dine_in', AT, 0],
        [splitByDishes, 4, 'dine_in', AT, 1],
        [orderIds[1], null, 'dine_in', AT, 1],
        [delivered, null, 'ubereats', AT, 1],
      ],
      "every bill with its order's guests, channel and creation, and whether it is the order's last",
    );
    for (const orderId of orderIds) await db.transaction().execute((trx) => refreshSalesFacts(trx, orderId));
    assert.deepEqual(await allFacts(db), upgraded);
  });
});
