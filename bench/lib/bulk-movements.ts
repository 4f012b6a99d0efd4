import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { ApiSession } from './api';
import type { BenchDatabase } from './databases';

/**
 * Stock history for the scale runs, written straight into the database: `count` movements over the
 * year before `now`, as a restaurant of ~60 stock items records them (sales most of all, a delivery
 * now and then, waste, voids, adjustments and counts). Per item they are numbered from 1 and each
 * keeps the stock it left, in time order, as `applyMovement` writes them, and every item's stock
 * columns end where its last movement left it: the invariants the inventory report relies on.
 */
const YEAR_MS = 365 * 86_400_000;
const INGREDIENTS = 45;
const PRODUCTS = 15;
const SQLITE_ROWS_PER_INSERT = 500;
const POSTGRES_ROWS_PER_INSERT = 20_000;
const COLUMNS = [
  'id',
  'item_type',
  'item_id',
  'seq',
  'delta',
  'stock_after',
  'reason',
  'order_dish_id',
  'user_id',
  'note',
  'at',
] as const;

type ItemType = 'ingredient' | 'product';
type StockItem = { itemType: ItemType; id: string; seq: number; stock: number; movedAt: number };
type Movement = [string, ItemType, string, number, number, number, string, null, string, string, number];

/** The stock items of a mid-sized kitchen, created through the API as a manager would. */
export async function seedStockItems(admin: ApiSession): Promise<void> {
  const pantry = await admin.expect<{ id: string }>(201, 'POST', '/categories', {
    name: 'Pantry',
    type: 'ingredient',
  });
  const bar = await admin.expect<{ id: string }>(201, 'POST', '/categories', {
    name: 'Bar',
    type: 'product',
  });
  for (let index = 0; index < INGREDIENTS; index++) {
    await admin.expect(201, 'POST', '/ingredients', {
      name: `Ingredient ${index + 1}`,
      category_id: pantry.id,
      quantity: 10,
      unit: 'kg',
    });
  }
  for (let index = 0; index < PRODUCTS; index++) {
    await admin.expect(201, 'POST', '/products', {
      name: `Product ${index + 1}`,
      sku: `BENCH-${index + 1}`,
      price: 3.5,
      quantity: 48,
      category_id: bar.id,
    });
  }
}

/** Replaces every movement with `count` new ones over the year before `now`, and sets the items' stock to match. */
export async function writeStockHistory(
  database: BenchDatabase,
  history: { now: number; userId: string },
  count: number,
): Promise<void> {
  if (database.engine === 'sqlite') writeIntoSqlite(database.url.slice('sqlite:'.length), history, count);
  else await writeIntoPostgres(database.url, history, count);
}

/**
 * The movements in time order, in batches. Each item opens with a count at the start of the year;
 * then each movement picks an item (some far busier than others) and a reason.
 */
function* movements(
  items: StockItem[],
  history: { now: number; userId: string },
  count: number,
  batch: number,
) {
  const start = history.now - YEAR_MS;
  let rows: Movement[] = [];
  let made = 0;
  const record = (item: StockItem, delta: number, reason: string, at: number) => {
    item.seq += 1;
    item.stock += delta;
    item.movedAt = at;
    made += 1;
    const id = `00000000-0000-7000-8000-${made.toString(16).padStart(12, '0')}`;
    rows.push([
      id,
      item.itemType,
      item.id,
      item.seq,
      delta,
      item.stock,
      reason,
      null,
      history.userId,
      '',
      at,
    ]);
  };
  for (const item of items) record(item, item.itemType === 'ingredient' ? 20_000 : 96, 'count', start);
  for (let index = made; index < count; index++) {
    const at = start + Math.floor(((index + Math.random()) * YEAR_MS) / count);
    const item = items[Math.floor(Math.random() ** 2 * items.length)] as StockItem;
    const unit = item.itemType === 'ingredient' ? 1 + Math.floor(Math.random() * 250) : 1;
    const draw = Math.random();
    if (draw < 0.88) record(item, -unit, 'sale', at);
    else if (draw < 0.9) record(item, unit, 'void', at);
    else if (draw < 0.93) record(item, -unit, 'waste', at);
    else if (draw < 0.98) record(item, unit * 40, 'receiving', at);
    else if (draw < 0.99) record(item, draw < 0.985 ? unit : -unit, 'adjustment', at);
    else record(item, -unit, 'count', at);
    if (rows.length === batch) {
      yield rows;
      rows = [];
    }
  }
  if (rows.length > 0) yield rows;
}

function writeIntoSqlite(path: string, history: { now: number; userId: string }, count: number): void {
  const db = new SQLite(path);
  try {
    db.pragma('synchronous = OFF');
    const items = [
      ...(db
        .prepare("select 'ingredient' as itemType, id from ingredients order by id")
        .all() as StockItem[]),
      ...(db.prepare("select 'product' as itemType, id from products order by id").all() as StockItem[]),
    ].map((item) => ({ ...item, seq: 0, stock: 0, movedAt: 0 }));
    const placeholders = (rows: number) =>
      Array(rows)
        .fill(`(${COLUMNS.map(() => '?').join(', ')})`)
        .join(', ');
    const insert = (rows: number) =>
      db.prepare(`insert into stock_movements (${COLUMNS.join(', ')}) values ${placeholders(rows)}`);
    const full = insert(SQLITE_ROWS_PER_INSERT);
    db.transaction(() => {
      db.exec('delete from stock_movements');
      for (const rows of movements(items, history, count, SQLITE_ROWS_PER_INSERT)) {
        (rows.length === SQLITE_ROWS_PER_INSERT ? full : insert(rows.length)).run(rows.flat());
      }
      for (const item of items) {
        db.prepare(
          `update ${item.itemType === 'ingredient' ? 'ingredients' : 'products'}
           set stock = ?, stock_moves = ?, stock_moved_at = ? where id = ?`,
        ).run(item.stock, item.seq, item.movedAt, item.id);
      }
    })();
  } finally {
    db.close();
  }
}

async function writeIntoPostgres(url: string, history: { now: number; userId: string }, count: number) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: found } = await client.query<{ itemType: ItemType; id: string }>(
      `select 'ingredient' as "itemType", id from ingredients
       union all select 'product', id from products order by 1, 2`,
    );
    const items = found.map((item) => ({ ...item, seq: 0, stock: 0, movedAt: 0 }));
    const types = [
      'text',
      'text',
      'text',
      'int',
      'bigint',
      'bigint',
      'text',
      'text',
      'text',
      'text',
      'bigint',
    ];
    await client.query('begin');
    await client.query('delete from stock_movements');
    for (const rows of movements(items, history, count, POSTGRES_ROWS_PER_INSERT)) {
      // One array per column: a statement of 20k rows with 11 parameters, not 220k.
      await client.query(
        `insert into stock_movements (${COLUMNS.join(', ')})
         select * from unnest(${types.map((type, index) => `$${index + 1}::${type}[]`).join(', ')})`,
        COLUMNS.map((_, column) => rows.map((row) => row[column])),
      );
    }
    for (const item of items) {
      await client.query(
        `update ${item.itemType === 'ingredient' ? 'ingredients' : 'products'}
         set stock = $1, stock_moves = $2, stock_moved_at = $3 where id = $4`,
        [item.stock, item.seq, item.movedAt, item.id],
      );
    }
    await client.query('commit');
    await client.query('vacuum analyze stock_movements');
  } finally {
    await client.end();
  }
}
