import type { Insertable } from 'kysely';
import type { Db } from '../core/db/database';
import type { Database } from '../core/db/schema';

export async function insertApproval(
  db: Db,
  approval: Insertable<Database['manager_approvals']>,
): Promise<void> {
  await db.insertInto('manager_approvals').values(approval).execute();
}

/** Approvals past their time are of no use; the audit log keeps who approved what. */
export async function deleteExpiredApprovals(db: Db, now: number): Promise<void> {
  await db.deleteFrom('manager_approvals').where('expires_at', '<=', now).execute();
}

/**
 * Spends the approval in one statement: only an unused, unexpired one issued to this user for this
 * permission and order matches, so two requests racing with one token cannot both get it. Answers the
 * approver and the plates it names; the caller checks those and rolls back to give it back.
 */
export async function consumeApproval(
  db: Db,
  use: { tokenHash: string; userId: string; permission: string; orderId: string; now: number },
): Promise<{ id: string; name: string; orderDishIds: string | null } | undefined> {
  const spent = await db
    .updateTable('manager_approvals')
    .set({ used_at: use.now })
    .where('token_hash', '=', use.tokenHash)
    .where('user_id', '=', use.userId)
    .where('permission', '=', use.permission)
    .where('order_id', '=', use.orderId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', use.now)
    .returning(['approver_id', 'order_dish_ids'])
    .executeTakeFirst();
  if (!spent) return undefined;
  const approver = await db
    .selectFrom('users')
    .select(['id', 'name'])
    .where('id', '=', spent.approver_id)
    .executeTakeFirst();
  return approver && { ...approver, orderDishIds: spent.order_dish_ids };
}
