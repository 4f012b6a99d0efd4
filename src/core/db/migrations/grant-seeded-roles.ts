import type { Kysely } from 'kysely';

/**
 * Adds permissions to the roles the server seeded (is_seeded 1), keeping what each already holds;
 * a role an administrator made or renamed is left as they made it. For migrations that bring new
 * permissions: a migration imports no feature, so this lives beside them.
 */
export async function grantSeededRoles(
  db: Kysely<unknown>,
  grants: Readonly<Record<string, readonly string[]>>,
): Promise<void> {
  const roles = db as unknown as Kysely<{
    roles: { name: string; permissions: string; is_seeded: number; updated_at: number };
  }>;
  for (const [name, added] of Object.entries(grants)) {
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
    const missing = added.filter((grant) => !held.includes(grant));
    if (missing.length === 0) continue;
    await roles
      .updateTable('roles')
      .set({ permissions: JSON.stringify([...held, ...missing]), updated_at: Date.now() })
      .where('name', '=', name)
      .execute();
  }
}
