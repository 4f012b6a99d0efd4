import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Db } from '../core/db/database';
import { forUpdate } from '../core/db/locks';
import type { Database } from '../core/db/schema';
import { ADMIN_ROLE, DEFAULT_ROLE } from '../permissions/permissions.api';

export type UserRow = Selectable<Database['users']>;
export type NewUserRow = Insertable<Database['users']>;

export function findLiveUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', id)
    .where('is_deleted', '=', sql.lit(0))
    .executeTakeFirst();
}

/** `nameKey` is `userNameKey(name)`, the form names are looked up and kept unique in. */
export function findLiveUserByNameKey(db: Db, nameKey: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('name_key', '=', nameKey)
    .where('is_deleted', '=', sql.lit(0))
    .executeTakeFirst();
}

export function listLiveUsers(db: Db): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().where('is_deleted', '=', sql.lit(0)).orderBy('name').execute();
}

/**
 * Every user there ever was, deleted ones included (deleting the staff does not reopen the initial
 * set-up), but not the system users (ensureSystemUser), which are no one's.
 */
export async function countUsers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('name_key', 'not like', `${SYSTEM_KEY_PREFIX}%`)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

const SYSTEM_KEY_PREFIX = 'system:';

/**
 * A user that is never live, made the first time something outside the staff needs to be named as a
 * record's user (a delivery app is the user of its orders): it signs nobody in, no staff list shows
 * it, and the foreign keys and the reports by waiter name it. The fixed id makes two instances making
 * it at once make it once.
 */
export async function ensureSystemUser(
  db: Db,
  user: { id: string; name: string },
  now: number,
): Promise<void> {
  if (await db.selectFrom('users').select('id').where('id', '=', user.id).executeTakeFirst()) return;
  await db
    .insertInto('users')
    .values({
      id: user.id,
      name: user.name,
      name_key: `${SYSTEM_KEY_PREFIX}${user.id}`,
      // No PIN hashes to this, and a login looks up live users only.
      pin_hash: '!',
      role: DEFAULT_ROLE,
      is_deleted: 1,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
}

export async function insertUser(db: Db, user: NewUserRow): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function updateUser(db: Db, id: string, changes: Updateable<Database['users']>): Promise<void> {
  await db
    .updateTable('users')
    .set(changes)
    .where('id', '=', id)
    .where('is_deleted', '=', sql.lit(0))
    .execute();
}

export async function softDeleteUser(db: Db, id: string, now: number): Promise<void> {
  await db.updateTable('users').set({ is_deleted: 1, updated_at: now }).where('id', '=', id).execute();
}

/** Locks every live admin row, so two admins removing each other cannot both succeed. */
export async function lockLiveAdminIds(db: Db): Promise<string[]> {
  const query = db
    .selectFrom('users')
    .select('id')
    .where('role', '=', ADMIN_ROLE)
    .where('is_deleted', '=', sql.lit(0));
  const rows = await forUpdate(db, query).execute();
  return rows.map((row) => row.id);
}
