import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Db } from '../src/core/db/database';
import type { StockItemType, StockReason } from '../src/core/db/schema';
import { moveStock } from '../src/inventory/stock.service';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { insertIngredient, insertProduct } from './helpers/menu-factories';
import { callerFor } from './helpers/orders-factories';

type Item = { itemType: StockItemType; id: string };
type Row = {
  item_type: StockItemType;
  item_id: string;
  name: string;
  unit: string;
  opening: number;
  sales: number;
  void_returns: number;
  waste: number;
  receiving: number;
  adjustments: number;
  counts: number;
  closing: number;
};
const MOVEMENTS = ['sales', 'void_returns', 'waste', 'receiving', 'adjustments', 'counts'] as const;

/** Mexico City is UTC−6 all year: its day 2026-11-23 is [06:00Z on the 23rd, 06:00Z on the 24th). */
const ZONE = { POS_TIMEZONE: 'America/Mexico_City' };
const localMidnight = (day: number) => Date.UTC(2026, 10, day, 6, 0, 0);
const HOUR = 3_600_000;

/** One movement as the services record it, in base units, at `at`. */
async function move(db: Db, item: Item, delta: number, reason: StockReason, at: number): Promise<void> {
  await db
    .transaction()
    .execute((trx) =>
      moveStock(trx, [{ itemType: item.itemType, itemId: item.id, delta, reason, userId: null, now: at }]),
    );
}

const ingredient = (id: string): Item => ({ itemType: 'ingredient', id });
const product = (id: string): Item => ({ itemType: 'product', id });

/** The same figures in thousandths, where sums of decimals are exact. */
const thousandths = (value: number) => Math.round(value * 1000);

describeEachDatabase('inventory report', (target) => {
  it('gives each item its stock at both ends and its movements between by reason, adding up exactly', async (t) => {
    const { app, db } = await buildTestApp(t, target, { env: ZONE });
    const admin = callerFor(app, (await loggedInUser(app, db, 'admin')).cookies);
    const manager = callerFor(app, (await loggedInUser(app, db, 'manager')).cookies);
    // Every item opens with a count at 2026-11-22 18:00Z: 2.5 kg, or 24 units.
    const cheese = ingredient((await insertIngredient(db, { name: 'Cheese' })).id);
    const basil = ingredient((await insertIngredient(db, { name: 'Basil' })).id);
    const cola = product((await insertProduct(db, { name: 'Cola' })).id);
    const water = product((await insertProduct(db, { name: 'Water' })).id);
    await insertProduct(db, { name: 'Juice', isDeleted: true });

    await move(db, cheese, 1200, 'receiving', Date.UTC(2026, 10, 22, 23));
    await move(db, cheese, -200, 'waste', localMidnight(23) - 1);
    await move(db, cheese, -30, 'sale', localMidnight(23));
    await move(db, cheese, -30, 'sale', localMidnight(23) + HOUR);
    await move(db, cheese, 30, 'void', localMidnight(23) + 2 * HOUR);
    await move(db, cheese, -100, 'waste', localMidnight(23) + 3 * HOUR);
    await move(db, cheese, 1000, 'receiving', localMidnight(24) + HOUR);
    await move(db, cheese, 50, 'adjustment', localMidnight(24) + 2 * HOUR);
    await move(db, cheese, -20, 'count', localMidnight(25) - 1);
    await move(db, cheese, 5000, 'receiving', localMidnight(25));
    await move(db, cola, -2, 'sale', localMidnight(24) + 14 * HOUR);
    await move(db, basil, -2500, 'waste', localMidnight(23) + 5 * HOUR);
    const deleted = await admin('DELETE', `/ingredients/${basil.id}`);
    assert.equal(deleted.statusCode, 200, deleted.body);

    const response = await manager('GET', '/reports/inventory?from=2026-11-23&to=2026-11-24');
    assert.equal(response.statusCode, 200, response.body);
    const report: { from: string; to: string; items: Row[] } = response.json();
    assert.equal(report.from, '2026-11-23');
    assert.equal(report.to, '2026-11-24');
    const still = { sales: 0, void_returns: 0, waste: 0, receiving: 0, adjustments: 0, counts: 0 };
    assert.deepEqual(report.items, [
      // Deleted, but it moved in the period.
      {
        item_type: 'ingredient',
        item_id: basil.id,
        name: 'Basil',
        unit: 'kg',
        opening: 2.5,
        ...still,
        waste: -2.5,
        closing: 0,
      },
      {
        item_type: 'ingredient',
        item_id: cheese.id,
        name: 'Cheese',
        unit: 'kg',
        opening: 3.5,
        sales: -0.06,
        void_returns: 0.03,
        waste: -0.1,
        receiving: 1,
        adjustments: 0.05,
        counts: -0.02,
        closing: 4.4,
      },
      {
        item_type: 'product',
        item_id: cola.id,
        name: 'Cola',
        unit: '',
        opening: 24,
        ...still,
        sales: -2,
        closing: 22,
      },
      // Live and still: it is on the report all the same.
      {
        item_type: 'product',
        item_id: water.id,
        name: 'Water',
        unit: '',
        opening: 24,
        ...still,
        closing: 24,
      },
    ]);
    for (const row of report.items) {
      const moved = MOVEMENTS.reduce((sum, figure) => sum + thousandths(row[figure]), 0);
      assert.equal(thousandths(row.opening) + moved, thousandths(row.closing), row.name);
    }

    // The stock of today is the closing of a period that ends today, and the sum of all movements.
    const today = (await manager('GET', '/reports/inventory?from=2026-01-01&to=2026-11-30')).json();
    const stored = await db
      .selectFrom('ingredients')
      .select('stock')
      .where('id', '=', cheese.id)
      .executeTakeFirstOrThrow();
    const whole = today.items.find((row: Row) => row.item_id === cheese.id);
    assert.equal(thousandths(whole.closing), Number(stored.stock));
    assert.equal(whole.opening, 0);
    assert.equal(thousandths(whole.counts), 2500 - 20);
    assert.equal(whole.receiving, 7.2);
    // A deleted item that did not move in the period is not on it.
    const later = (await manager('GET', '/reports/inventory?from=2026-11-26&to=2026-11-26')).json();
    assert.deepEqual(
      later.items.map((row: Row) => [row.name, row.opening, row.closing]),
      [
        ['Cheese', 9.4, 9.4],
        ['Cola', 22, 22],
        ['Water', 24, 24],
      ],
    );
  });

  it('answers the same rows as CSV, with formula-like names made inert', async (t) => {
    const { app, db } = await buildTestApp(t, target, { env: ZONE });
    const manager = callerFor(app, (await loggedInUser(app, db, 'manager')).cookies);
    const item = await insertIngredient(db, { name: '=HYPERLINK("http://x","y")' });
    await move(db, ingredient(item.id), -125, 'waste', localMidnight(23));

    const csv = await manager('GET', '/reports/inventory?from=2026-11-23&to=2026-11-23', undefined, {
      accept: 'text/csv',
    });
    assert.equal(csv.statusCode, 200, csv.body);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    assert.deepEqual(csv.body.trimEnd().split('\n'), [
      'item_type,item_id,name,unit,opening,sales,void_returns,waste,receiving,adjustments,counts,closing',
      `ingredient,${item.id},"'=HYPERLINK(""http://x"",""y"")",kg,2.5,0,0,-0.125,0,0,0,2.375`,
    ]);
  });

  it('refuses bad periods and readers without inventory.read', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const manager = callerFor(app, (await loggedInUser(app, db, 'manager')).cookies);
    const waiter = callerFor(app, (await loggedInUser(app, db, 'waiter')).cookies);
    for (const query of [
      'from=2026-11-23&to=2026-11-22',
      'from=2025-01-01&to=2026-11-22',
      'to=2026-11-22',
      'from=2026-11-22',
      'from=2026-02-30&to=2026-03-01',
      'from=yesterday&to=2026-03-01',
    ]) {
      const refused = await manager('GET', `/reports/inventory?${query}`);
      assert.equal(refused.statusCode, 400, query);
    }
    const forbidden = await waiter('GET', '/reports/inventory?from=2026-11-01&to=2026-11-22');
    assert.equal(forbidden.statusCode, 403);
    assert.deepEqual(forbidden.json(), { message: 'Unauthorized API access' });
    assert.equal((await manager('GET', '/reports/inventory?from=2025-11-23&to=2026-11-23')).statusCode, 200);
  });
});
