import type { Kysely } from 'kysely';

/**
 * The inventory report sums each item's movements of a period by reason. Grouping a week's movements
 * read by time (~60k rows at 1M orders) made SQLite, which groups through a sorter, spend 40 ms a
 * week and 290 ms for four. With this index each item's sum for one reason is a single range of it,
 * read in index order and without the table (it holds `delta`): 9 ms a week, 25 ms for four.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('stock_movements_item_reason_at')
    .on('stock_movements')
    .columns(['item_type', 'item_id', 'reason', 'at', 'delta'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('stock_movements_item_reason_at').execute();
}
