import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../core/db/database';
import type { StockItemType } from '../core/db/schema';

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

const REASON_COLUMNS = {
  sales: 'sale',
  void_returns: 'void',
  waste: 'waste',
  receiving: 'receiving',
  adjustments: 'adjustment',
  counts: 'count',
} as const;

/**
 * The item's stock just before `instant`: what its last earlier movement left. An item's movements
 * never go back in time as they are numbered, so the latest `at` (the highest `seq` among equals) is
 * the last one, found by one descent of the (item_type, item_id, at) index, however long its history.
 */
function stockBefore(itemType: StockItemType, item: RawBuilder<unknown>, instant: number) {
  return sql`coalesce((select m.stock_after from stock_movements m
    where m.item_type = ${sql.lit(itemType)} and m.item_id = ${item} and m.at < ${instant}
    order by m.at desc, m.seq desc limit 1), 0)`;
}

function itemsOf(itemType: StockItemType, range: { from: number; to: number }) {
  const [table, unit] =
    itemType === 'ingredient' ? [sql.table('ingredients'), sql`i.unit`] : [sql.table('products'), sql`''`];
  return sql`select ${sql.lit(itemType)} as item_type, i.id as item_id, i.name as name, ${unit} as unit,
      ${stockBefore(itemType, sql`i.id`, range.from)} as opening,
      ${stockBefore(itemType, sql`i.id`, range.to)} as closing,
      ${sql.join(Object.keys(REASON_COLUMNS).map((column) => sql`coalesce(moved.${sql.ref(column)}, 0) as ${sql.ref(column)}`))}
    from ${table} i
    left join moved on moved.item_type = ${sql.lit(itemType)} and moved.item_id = i.id
    where i.is_deleted = 0 or moved.item_id is not null`;
}

/**
 * Every live item, and every deleted one that moved in [from, to): its stock at both ends and its
 * movements in between summed by reason. The sums read the period's movements once, by the (at)
 * index; each end is one index read per item. Opening plus the sums is the closing exactly, as each
 * movement's `stock_after` is the one before plus its delta.
 */
export async function inventoryRows(
  db: Db,
  range: { from: number; to: number },
): Promise<InventoryRowBase[]> {
  const sums = Object.entries(REASON_COLUMNS).map(
    ([column, reason]) =>
      sql`sum(case when reason = ${sql.lit(reason)} then delta else 0 end) as ${sql.ref(column)}`,
  );
  const { rows } = await sql<Record<keyof InventoryRowBase, unknown>>`with moved as (
      select item_type, item_id, ${sql.join(sums)}
      from stock_movements where at >= ${range.from} and at < ${range.to}
      group by item_type, item_id)
    ${itemsOf('ingredient', range)}
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
