import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

/**
 * Issue 24, inventory that moves. Stock is an integer in each item's base unit: thousandths of the
 * ingredient's unit (2.5 kg is 2500), whole units of a product; never a float, so a thousand sales of
 * 0.03 kg take exactly 30 kg off.
 *
 * `stock_movements` is the only way stock changes: every write adds a movement and moves the item's
 * `stock` by its delta in one guarded update, under the item's row lock, in the same transaction. The
 * item's `stock_moves` numbers its movements (unique per item) and each movement keeps the stock it
 * left (`stock_after`), so the stock at any moment is one index read and a report's opening and
 * closing agree with the sums between them. `stock_moved_at` never goes back, so an item's
 * movements are in time order even if the clock steps back.
 *
 * The stock items have today becomes each one's first movement, a `count` ("Opening stock"), so stock
 * is the sum of an item's movements from the start.
 *
 * A recipe line hangs on a dish or on a modifier option and uses an ingredient or a product; foreign
 * keys on all four, so a line never names something that does not exist.
 */
const GRANTS: Record<string, string[]> = {
  manager: ['inventory.read', 'inventory.write'],
  staff: ['inventory.read', 'inventory.write'],
  kitchen: ['inventory.read'],
};

type Item = { id: string; stock: number };

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['ingredients', 'products']) {
    await db.schema
      .alterTable(table)
      .addColumn('stock', 'bigint', (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable(table)
      .addColumn('reorder_level', 'bigint', (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable(table)
      .addColumn('stock_moves', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable(table)
      .addColumn('stock_moved_at', 'bigint', (col) => col.notNull().defaultTo(0))
      .execute();
  }
  // Kilograms as a double become grams exactly; a fourth decimal, which nothing could have meant, rounds.
  await sql`update ingredients set stock = round(quantity * 1000)`.execute(db);
  await sql`update products set stock = quantity`.execute(db);
  await db.schema.alterTable('ingredients').dropColumn('quantity').execute();
  await db.schema.alterTable('products').dropColumn('quantity').execute();

  await db.schema
    .createTable('stock_movements')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('item_type', 'text', (col) => col.notNull())
    .addColumn('item_id', 'text', (col) => col.notNull())
    .addColumn('seq', 'integer', (col) => col.notNull())
    .addColumn('delta', 'bigint', (col) => col.notNull())
    .addColumn('stock_after', 'bigint', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    // No foreign key: a plate taken off its order is deleted, and its movements stay as history.
    .addColumn('order_dish_id', 'text')
    .addColumn('user_id', 'text')
    .addColumn('note', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('at', 'bigint', (col) => col.notNull())
    .addCheckConstraint('stock_movements_item_type', sql`item_type in ('ingredient', 'product')`)
    .addCheckConstraint(
      'stock_movements_reason',
      sql`reason in ('sale', 'void', 'receiving', 'adjustment', 'waste', 'count')`,
    )
    .addCheckConstraint('stock_movements_delta', sql`delta <> 0`)
    .execute();
  await db.schema
    .createIndex('stock_movements_item_seq')
    .on('stock_movements')
    .columns(['item_type', 'item_id', 'seq'])
    .unique()
    .execute();
  await db.schema
    .createIndex('stock_movements_item_at')
    .on('stock_movements')
    .columns(['item_type', 'item_id', 'at'])
    .execute();
  await db.schema.createIndex('stock_movements_at').on('stock_movements').column('at').execute();
  await db.schema
    .createIndex('stock_movements_order_dish')
    .on('stock_movements')
    .column('order_dish_id')
    .execute();

  await db.schema
    .createTable('recipe_lines')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('dish_id', 'text', (col) => col.references('dishes.id'))
    .addColumn('option_id', 'text', (col) => col.references('modifier_options.id'))
    .addColumn('ingredient_id', 'text', (col) => col.references('ingredients.id'))
    .addColumn('product_id', 'text', (col) => col.references('products.id'))
    .addColumn('quantity', 'bigint', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addCheckConstraint('recipe_lines_owner', sql`(dish_id is null) <> (option_id is null)`)
    .addCheckConstraint('recipe_lines_item', sql`(ingredient_id is null) <> (product_id is null)`)
    .addCheckConstraint('recipe_lines_quantity', sql`quantity > 0`)
    .execute();
  for (const column of ['dish_id', 'option_id', 'ingredient_id', 'product_id']) {
    await db.schema.createIndex(`recipe_lines_${column}`).on('recipe_lines').column(column).execute();
  }

  await recordOpeningStock(db);
  await grantSeededRoles(db);
}

async function recordOpeningStock(db: Kysely<unknown>): Promise<void> {
  const now = Date.now();
  for (const [table, itemType] of [
    ['ingredients', 'ingredient'],
    ['products', 'product'],
  ] as const) {
    const { rows } = await sql<Item>`select id, stock from ${sql.table(table)} where stock <> 0`.execute(db);
    for (const item of rows) {
      await sql`insert into stock_movements (id, item_type, item_id, seq, delta, stock_after, reason, note, at)
        values (${randomUUID()}, ${itemType}, ${item.id}, 1, ${item.stock}, ${item.stock}, 'count', 'Opening stock', ${now})`.execute(
        db,
      );
    }
    await sql`update ${sql.table(table)} set stock_moves = 1, stock_moved_at = ${now} where stock <> 0`.execute(
      db,
    );
  }
}

async function grantSeededRoles(db: Kysely<unknown>): Promise<void> {
  const roles = db as unknown as Kysely<{
    roles: { name: string; permissions: string; is_seeded: number; updated_at: number };
  }>;
  for (const [name, grants] of Object.entries(GRANTS)) {
    const row = await roles
      .selectFrom('roles')
      .select('permissions')
      .where('name', '=', name)
      .where('is_seeded', '=', 1)
      .executeTakeFirst();
    if (!row) continue;
    const parsed: unknown = JSON.parse(row.permissions);
    const held = Array.isArray(parsed)
      ? parsed.filter((item): item is string => typeof item === 'string')
      : [];
    const added = grants.filter((grant) => !held.includes(grant));
    if (added.length === 0) continue;
    await roles
      .updateTable('roles')
      .set({ permissions: JSON.stringify([...held, ...added]), updated_at: Date.now() })
      .where('name', '=', name)
      .execute();
  }
}
