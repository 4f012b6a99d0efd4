import { sql } from 'kysely';
import type { Db } from '../core/db/database';

/** What proves the caller may set a wallet password: the current one, or the PIN when none is set. */
export function findWalletCredentials(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .select(['name', 'pin_hash', 'wallet_password_hash'])
    .where('id', '=', userId)
    .where('is_deleted', '=', sql.lit(0))
    .executeTakeFirst();
}

/**
 * Swaps the hash only if it is still the one the caller checked the current password against, so
 * two concurrent changes cannot both pass with the same old password.
 */
export async function replaceWalletPasswordHash(
  db: Db,
  userId: string,
  change: { expectedHash: string | null; newHash: string; now: number },
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ wallet_password_hash: change.newHash, updated_at: change.now })
    .where('id', '=', userId)
    .where('is_deleted', '=', sql.lit(0))
    .where((eb) =>
      change.expectedHash === null
        ? eb('wallet_password_hash', 'is', null)
        : eb('wallet_password_hash', '=', change.expectedHash),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records a logged-out wallet token until it would have expired anyway, sweeping those past it. */
export async function revokeWalletToken(
  db: Db,
  token: { id: string; expiresAt: number },
  now: number,
): Promise<void> {
  await db.deleteFrom('revoked_wallet_tokens').where('expires_at', '<=', now).execute();
  await db
    .insertInto('revoked_wallet_tokens')
    .values({ token_id: token.id, expires_at: token.expiresAt })
    .onConflict((conflict) => conflict.column('token_id').doNothing())
    .execute();
}

export async function isWalletTokenRevoked(db: Db, tokenId: string): Promise<boolean> {
  const row = await db
    .selectFrom('revoked_wallet_tokens')
    .select('token_id')
    .where('token_id', '=', tokenId)
    .executeTakeFirst();
  return row !== undefined;
}
