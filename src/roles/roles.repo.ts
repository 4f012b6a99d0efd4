import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../core/db/database';
import type { Database } from '../core/db/schema';

export type RoleRow = Selectable<Database['roles']>;

export function listRoles(db: Db): Promise<RoleRow[]> {
  return db.selectFrom('roles').selectAll().orderBy('name').execute();
}

export function findRoleById(db: Db, id: string): Promise<RoleRow | undefined> {
  return db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findRoleByName(db: Db, name: string): Promise<RoleRow | undefined> {
  return db.selectFrom('roles').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function insertRole(db: Db, role: Insertable<Database['roles']>): Promise<void> {
  await db.insertInto('roles').values(role).execute();
}

export async function updateRole(db: Db, id: string, changes: Updateable<Database['roles']>): Promise<void> {
  await db.updateTable('roles').set(changes).where('id', '=', id).execute();
}

export async function deleteRole(db: Db, id: string): Promise<void> {
  await db.deleteFrom('roles').where('id', '=', id).execute();
}

/** Whether any user, deleted ones included, still names the role (their rows reference it). */
export async function isRoleInUse(db: Db, name: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('role', '=', name).limit(1).executeTakeFirst();
  return row !== undefined;
}
