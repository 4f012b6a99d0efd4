import type { Db } from '../core/db/database';

export async function findWalletPasswordHash(db: Db, userId: string): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('users')
    .select('wallet_password_hash')
    .where('id', '=', userId)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
  return row?.wallet_password_hash;
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
    .where('is_deleted', '=', 0)
    .where((eb) =>
      change.expectedHash === null
        ? eb('wallet_password_hash', 'is', null)
        : eb('wallet_password_hash', '=', change.expectedHash),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
