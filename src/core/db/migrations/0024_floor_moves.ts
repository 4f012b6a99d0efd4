import { type Kysely, sql } from 'kysely';

/**
 * Issue 23, the floor's moves: an order counts its guests (null: not asked), and moving a party
 * between tables, merging tables and moving plates between orders become the `orders.move`
 * permission, which the seeded roles that run the floor gain (`admin` holds every permission in
 * code). A seeded role an administrator has edited keeps its edits and gains only this.
 */
const FLOOR_ROLES = ['waiter', 'cashier', 'manager', 'staff'];
const GRANT = 'orders.move';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('orders')
    .addColumn('guests', 'integer', (col) => col.check(sql`guests between 1 and 99`))
    .execute();

  const roles = db as unknown as Kysely<{
    roles: { name: string; permissions: string; is_seeded: number; updated_at: number };
  }>;
  for (const name of FLOOR_ROLES) {
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
    if (held.includes(GRANT)) continue;
    await roles
      .updateTable('roles')
      .set({ permissions: JSON.stringify([...held, GRANT]), updated_at: Date.now() })
      .where('name', '=', name)
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('guests').execute();
}
