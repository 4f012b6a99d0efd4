import type { Kysely } from 'kysely';

/**
 * Issue 35: giving an order to another waiter moves its sale and tips in the reports by waiter, so it
 * becomes the `orders.reassign` permission, which the seeded manager gains, and `staff`, the role of
 * what every user could do before roles (`admin` holds every permission in code). A seeded role an
 * administrator has edited keeps its edits and gains only this.
 */
const GRANT = 'orders.reassign';
const ROLES = ['manager', 'staff'];

export async function up(db: Kysely<unknown>): Promise<void> {
  const roles = db as unknown as Kysely<{
    roles: { name: string; permissions: string; is_seeded: number; updated_at: number };
  }>;
  for (const name of ROLES) {
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

export async function down(): Promise<void> {
  // The grant stays: taking a permission from a role an administrator may have relied on is not undone.
}
