import { type Insertable, sql } from 'kysely';
import type { Principal } from '../core/auth-guard';
import type { Db } from '../core/db/database';
import { prepared } from '../core/db/prepared';
import type { Database } from '../core/db/schema';
import { grantedPermissions, parsePermissions } from '../permissions/permissions.api';

export async function insertSession(db: Db, session: Insertable<Database['sessions']>): Promise<void> {
  await db.insertInto('sessions').values(session).execute();
}

export function findLiveSession(db: Db, id: string, now: number) {
  return db
    .selectFrom('sessions')
    .select([
      'id',
      'user_id',
      'refresh_token_id',
      'previous_refresh_token_id',
      'rotated_at',
      'access_token_id',
    ])
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/**
 * Swaps the refresh token id only if it is still the one presented; 0 rows means someone else used it.
 * The replaced id, the time and the new access token's id are kept to hand out the same successor
 * tokens again during the grace window.
 */
export async function rotateRefreshToken(
  db: Db,
  sessionId: string,
  presentedTokenId: string,
  next: { tokenId: string; accessTokenId: string; rotatedAt: number; expiresAt: number },
): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({
      refresh_token_id: next.tokenId,
      previous_refresh_token_id: presentedTokenId,
      rotated_at: next.rotatedAt,
      access_token_id: next.accessTokenId,
      expires_at: next.expiresAt,
    })
    .where('id', '=', sessionId)
    .where('refresh_token_id', '=', presentedTokenId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function revokeSession(db: Db, sessionId: string, now: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeSessionsOfUser(
  db: Db,
  userId: string,
  now: number,
  options: { except?: string | undefined } = {},
): Promise<void> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (options.except !== undefined) query = query.where('id', '!=', options.except);
  await query.execute();
}

const livePrincipal = prepared(
  (db, { sessionId, userId, now }: { sessionId: string; userId: string; now: number }) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .innerJoin('roles', 'roles.name', 'users.role')
      .select(['users.id', 'users.name', 'users.role', 'roles.permissions'])
      .where('sessions.id', '=', sessionId)
      .where('sessions.user_id', '=', userId)
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', now)
      .where('users.is_deleted', '=', sql.lit(0)),
);

/**
 * One indexed lookup per authenticated request: the session must be live and its user not deleted.
 * The role's permissions come along, so a role edit applies from the next request.
 */
export async function findPrincipal(
  db: Db,
  sessionId: string,
  userId: string,
  now: number,
): Promise<Principal | undefined> {
  const row = await livePrincipal.first(db, { sessionId, userId, now });
  if (!row) return undefined;
  const permissions = grantedPermissions(row.role, parsePermissions(row.permissions));
  return { id: row.id, name: row.name, role: row.role, permissions, sessionId };
}
