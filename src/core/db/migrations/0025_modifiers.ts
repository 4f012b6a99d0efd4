import { type Kysely, sql } from 'kysely';

/**
 * Issue 23, the menu a kitchen uses: a dish's description and availability (the kitchen's "86"),
 * modifier groups and their options linked to dishes in order, and on each plate its seat, its
 * course and a snapshot of the options chosen for it.
 *
 * The snapshot is a child table (`order_dish_modifiers`), not JSON on the plate: chits, receipts and
 * reports read it with one plain join or `in (…)` that means the same on SQLite and PostgreSQL,
 * option sales can be counted in SQL, and each row still names the option it came from. Its name,
 * group name and delta are copied, so a later menu edit changes no history.
 *
 * `menu.availability` goes to the seeded roles that work the floor and the kitchen, and to `staff`
 * (which keeps what every user could do before roles: every user could change the menu). A seeded
 * role an administrator has edited keeps its edits and gains only this.
 */
const GRANTS: Record<string, string[]> = {
  kitchen: ['menu.availability'],
  waiter: ['menu.availability'],
  cashier: ['menu.availability'],
  manager: ['menu.availability'],
  staff: ['menu.availability'],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('dishes')
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('dishes')
    .addColumn('is_available', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('modifier_groups')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('min_select', 'integer', (col) => col.notNull())
    .addColumn('max_select', 'integer', (col) => col.notNull())
    .addColumn('is_deleted', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .addCheckConstraint(
      'modifier_groups_select_range',
      sql`min_select >= 0 and max_select >= 1 and min_select <= max_select`,
    )
    .execute();
  // Two managers naming two groups alike at once: the index, not a read, decides.
  await db.schema
    .createIndex('modifier_groups_live_name_unique')
    .on('modifier_groups')
    .column('name')
    .unique()
    .where(sql.ref('is_deleted'), '=', 0)
    .execute();

  await db.schema
    .createTable('modifier_options')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('group_id', 'text', (col) => col.notNull().references('modifier_groups.id'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('price_delta_cents', 'bigint', (col) => col.notNull())
    .addColumn('is_available', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('position', 'integer', (col) => col.notNull())
    // Set when an edit of the group leaves the option out: kept for the plates that name it.
    .addColumn('retired_at', 'bigint')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('modifier_options_live_name_unique')
    .on('modifier_options')
    .columns(['group_id', 'name'])
    .unique()
    .where(sql.ref('retired_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('dish_modifier_groups')
    .addColumn('dish_id', 'text', (col) => col.notNull().references('dishes.id'))
    .addColumn('group_id', 'text', (col) => col.notNull().references('modifier_groups.id'))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('dish_modifier_groups_pk', ['dish_id', 'group_id'])
    .execute();
  // "Is this group in use?" reads by group.
  await db.schema
    .createIndex('dish_modifier_groups_group_id')
    .on('dish_modifier_groups')
    .column('group_id')
    .execute();

  await db.schema.alterTable('order_dishes').addColumn('seat', 'integer').execute();
  await db.schema
    .alterTable('order_dishes')
    .addColumn('course', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('order_dish_modifiers')
    .addColumn('order_dish_id', 'text', (col) => col.notNull().references('order_dishes.id'))
    .addColumn('option_id', 'text', (col) => col.notNull().references('modifier_options.id'))
    .addColumn('group_name', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('price_delta_cents', 'bigint', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('order_dish_modifiers_pk', ['order_dish_id', 'option_id'])
    .execute();

  await grantSeededRoles(db);
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
