import { type Kysely, sql } from 'kysely';

/** Categories, the records that use them, and the dining room. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('categories')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('type', 'text', (col) => col.notNull().check(sql`type in ('dish', 'ingredient', 'product')`))
    .addColumn('is_deleted', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('categories_live_type_name_unique')
    .on('categories')
    .columns(['type', 'name'])
    .unique()
    .where(sql.ref('is_deleted'), '=', 0)
    .execute();

  await db.schema
    .createTable('dishes')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('price_cents', 'bigint', (col) => col.notNull().check(sql`price_cents >= 0`))
    .addColumn('category_id', 'text', (col) => col.notNull().references('categories.id'))
    .addColumn('is_deleted', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('dishes_category_id').on('dishes').column('category_id').execute();

  await db.schema
    .createTable('ingredients')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('category_id', 'text', (col) => col.notNull().references('categories.id'))
    .addColumn('quantity', 'double precision', (col) => col.notNull())
    .addColumn('unit', 'text', (col) => col.notNull())
    .addColumn('is_deleted', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('ingredients_category_id').on('ingredients').column('category_id').execute();

  await db.schema
    .createTable('products')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('sku', 'text', (col) => col.notNull())
    .addColumn('price_cents', 'bigint', (col) => col.notNull().check(sql`price_cents >= 0`))
    .addColumn('quantity', 'integer', (col) => col.notNull())
    .addColumn('category_id', 'text', (col) => col.notNull().references('categories.id'))
    .addColumn('is_deleted', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('products_category_id').on('products').column('category_id').execute();
  await db.schema
    .createIndex('products_live_sku_unique')
    .on('products')
    .column('sku')
    .unique()
    .where(sql.ref('is_deleted'), '=', 0)
    .execute();

  await db.schema
    .createTable('spaces')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('is_deleted', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();

  // order_id has no foreign key: orders reference tables too, and SQLite cannot add the second
  // half of a cycle after the fact. The orders service keeps it consistent inside its transactions.
  await db.schema
    .createTable('dining_tables')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('available').check(sql`status in ('available', 'occupied', 'reserved')`),
    )
    .addColumn('space_id', 'text', (col) => col.notNull().references('spaces.id'))
    .addColumn('order_id', 'text')
    .addColumn('is_deleted', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('dining_tables_space_id').on('dining_tables').column('space_id').execute();
}
