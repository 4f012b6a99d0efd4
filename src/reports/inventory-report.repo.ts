import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../core/db/database';
import type { StockItemType, StockReason } from '../core/db/schema';

/** One item's figures over [from, to), in its base unit. */
export type InventoryRowBase = {
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

type Range = { from: number; to: number };

const REASON_COLUMNS: Record<string, StockReason> = {
  sales: 'sale',
  void_returns: 'void',
  waste: 'waste',
  receiving: 'receiving',
  adjustments: 'adjustment',
  counts: 'count',
};

/** The movements of the item `i` (of `itemType`) that `condition` keeps. */
const movementsOf = (itemType: StockItemType, condition: RawBuilder<unknown>) =>
  sql`from stock_movements m where m.item_type = ${sql.lit(itemType)} and m.item_id = i.id and ${condition}`;

/**
 * The item's stock just before `instant`: what its last earlier movement left. An item's movements
 * never go back in time as they are numbered, so the latest `at` (the highest `seq` among equals) is
 * the last one, found by one descent of the (item_type, item_id, at) index, however long its history.
 */
const stockBefore = (itemType: StockItemType, instant: number) =>
  sql`coalesce((select m.stock_after ${movementsOf(itemType, sql`m.at < ${instant}`)}
    order by m.at desc, m.seq desc limit 1), 0)`;

/**
 * The item's movements of one reason in the period, summed from one range of the (item_type,
 * item_id, reason, at, delta) index (migration 0028): no table read, and no grouping sort, which
 * SQLite, without hash aggregation, would pay for every movement of the period.
 */
const movedFor = (itemType: StockItemType, reason: StockReason, range: Range) =>
  sql`(select coalesce(sum(m.delta), 0) ${movementsOf(
    itemType,
    sql`m.reason = ${sql.lit(reason)} and m.at >= ${range.from} and m.at < ${range.to}`,
  )})`;

function itemsOf(itemType: StockItemType, range: Range) {
  const [table, unit] =
    itemType === 'ingredient' ? [sql.table('ingredients'), sql`i.unit`] : [sql.table('products'), sql`''`];
  const sums = Object.entries(REASON_COLUMNS).map(
    ([column, reason]) => sql`${movedFor(itemType, reason, range)} as ${sql.ref(column)}`,
  );
  return sql`select ${sql.lit(itemType)} as item_type, i.id as item_id, i.name as name, ${unit} as unit,
      ${stockBefore(itemType, range.from)} as opening, ${stockBefore(itemType, range.to)} as closing,
      ${sql.join(sums)}
    from ${table} i
    where i.is_deleted = 0
      or exists (select 1 ${movementsOf(itemType, sql`m.at >= ${range.from} and m.at < ${range.to}`)})`;
}

/**
 * Every live item, and every deleted one that moved in [from, to): its stock at both ends and its
 * movements in between summed by reason, each figure a few index reads per item, so the cost follows
 * the items and the period's movements, not the history. Opening plus the sums is the closing
 * exactly, as each movement's `stock_after` is the one before plus its delta.
 */
export async function inventoryRows(db: Db, range: Range): Promise<InventoryRowBase[]> {
  const { rows } = await sql<Record<keyof InventoryRowBase, unknown>>`${itemsOf('ingredient', range)}
    union all
    ${itemsOf('product', range)}
    order by item_type, name, item_id`.execute(db);
  return rows.map((row) => ({
    item_type: row.item_type as StockItemType,
    item_id: String(row.item_id),
    name: String(row.name),
    unit: String(row.unit),
    opening: Number(row.opening),
    sales: Number(row.sales),
    void_returns: Number(row.void_returns),
    waste: Number(row.waste),
    receiving: Number(row.receiving),
    adjustments: Number(row.adjustments),
    counts: Number(row.counts),
    closing: Number(row.closing),
  }));
}
