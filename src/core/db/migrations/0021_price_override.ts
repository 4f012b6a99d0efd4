import type { Kysely } from 'kysely';

/**
 * Issue 27: charging a dish at another price than the menu's becomes its own permission, held by
 * managers and by `staff` (which keeps what every user could do before roles, and every user could
 * set `price_at_order`). The day's total sales (`GET /orders/total-sales/{date}`) now needs
 * `reports.read`, which `staff` therefore gains for the same reason. `admin` holds every permission
 * in code. A seeded role an administrator has edited keeps its edits and gains only these.
 */
const GRANTS: Record<string, string[]> = {
  manager: ['orders.price_override'],
  staff: ['orders.price_override', 'reports.read'],
};

export async function up(db: Kysely<unknown>): Promise<void> {
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
