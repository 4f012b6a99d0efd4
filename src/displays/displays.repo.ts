import type { Db } from '../core/db/database';
import { forUpdate } from '../core/db/locks';

/** Clears expired codes and the cashier's earlier one, so each cashier has at most one. */
export async function dropStaleCodes(db: Db, cashierId: string, now: number): Promise<void> {
  await db
    .deleteFrom('display_pairing_codes')
    .where((eb) => eb.or([eb('cashier_id', '=', cashierId), eb('expires_at', '<=', now)]))
    .execute();
}

export async function insertCode(
  db: Db,
  code: { code: string; cashier_id: string; expires_at: number },
): Promise<void> {
  await db.insertInto('display_pairing_codes').values(code).execute();
}

/** A live code, locked so that only one display pairs with it. */
export function lockLiveCode(db: Db, code: string, now: number) {
  return forUpdate(
    db,
    db
      .selectFrom('display_pairing_codes')
      .innerJoin('users', 'users.id', 'display_pairing_codes.cashier_id')
      .select(['display_pairing_codes.cashier_id', 'users.name'])
      .where('display_pairing_codes.code', '=', code)
      .where('display_pairing_codes.expires_at', '>', now),
  ).executeTakeFirst();
}

export async function deleteCode(db: Db, code: string): Promise<void> {
  await db.deleteFrom('display_pairing_codes').where('code', '=', code).execute();
}

export async function pair(db: Db, displayUserId: string, cashierId: string, now: number): Promise<void> {
  await db
    .insertInto('display_pairings')
    .values({ display_user_id: displayUserId, cashier_id: cashierId, paired_at: now })
    .onConflict((conflict) =>
      conflict.column('display_user_id').doUpdateSet({ cashier_id: cashierId, paired_at: now }),
    )
    .execute();
}

/** The cashier a display is paired to, with what their till shows (nulls when it has shown nothing). */
export function findPairing(db: Db, displayUserId: string) {
  return db
    .selectFrom('display_pairings')
    .innerJoin('users', 'users.id', 'display_pairings.cashier_id')
    .leftJoin('till_displays', 'till_displays.cashier_id', 'display_pairings.cashier_id')
    .select(['users.name as cashier', 'till_displays.ticket_id', 'till_displays.payment_id'])
    .where('display_pairings.display_user_id', '=', displayUserId)
    .executeTakeFirst();
}

export async function setCurrent(
  db: Db,
  row: { cashier_id: string; ticket_id: string | null; payment_id: string | null; updated_at: number },
): Promise<void> {
  const { ticket_id, payment_id, updated_at } = row;
  await db
    .insertInto('till_displays')
    .values(row)
    .onConflict((conflict) =>
      conflict.column('cashier_id').doUpdateSet({ ticket_id, payment_id, updated_at }),
    )
    .execute();
}
