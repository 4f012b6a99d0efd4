import { createHash, randomBytes } from 'node:crypto';
import { recordAudit } from '../audit/audit.api';
import { checkCredentials, pinFailureBuckets } from '../auth/auth.api';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { BadRequestError, ForbiddenError } from '../core/errors';
import { limitFailures } from '../core/failure-limiter';
import { toIsoUtc } from '../core/time';
import {
  type ApprovableAction,
  grantedPermissions,
  parsePermissions,
  REQUEST_PERMISSIONS,
} from '../permissions/permissions.api';
import { findRoleByName } from '../roles/roles.api';
import { userNameKey } from '../users/users.api';
import * as repo from './approvals.repo';
import { APPROVAL_LIFETIME_MS, type ApprovalBody, type ApprovalReply } from './approvals.schemas';

/** Who approved an action the caller's own role does not allow. */
export type Approver = Readonly<{ id: string; name: string }>;

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A manager types their name and PIN on the caller's tablet to let the caller do one thing their role
 * does not allow. A wrong name or PIN counts against the same budgets as a login (401); a right PIN
 * whose role lacks the permission is refused (403). Only the token's hash is stored.
 */
export async function issueApproval(
  ctx: AppContext,
  principal: Principal,
  input: ApprovalBody,
  clientAddress: string,
): Promise<ApprovalReply> {
  const nameKey = userNameKey(input.name);
  const approver = await limitFailures(ctx.db, ctx.clock, pinFailureBuckets(nameKey, clientAddress), () =>
    checkCredentials(ctx, nameKey, input, clientAddress),
  );
  const role = await findRoleByName(ctx.db, approver.role);
  const permissions = grantedPermissions(approver.role, role ? parsePermissions(role.permissions) : []);
  if (!permissions.has(input.permission)) throw new ForbiddenError();
  if (input.permission === 'dishes.void' && input.order_dish_ids === undefined) {
    throw new BadRequestError('An approval to void names its plates (order_dish_ids)');
  }

  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  const expiresAt = now + APPROVAL_LIFETIME_MS;
  await ctx.db.transaction().execute(async (trx) => {
    await repo.deleteExpiredApprovals(trx, now);
    await repo.insertApproval(trx, {
      token_hash: hashOf(token),
      user_id: principal.id,
      approver_id: approver.id,
      permission: input.permission,
      created_at: now,
      expires_at: expiresAt,
      used_at: null,
      order_id: input.order_id,
      order_dish_ids: input.order_dish_ids ? JSON.stringify(input.order_dish_ids) : null,
    });
    await recordAudit(trx, {
      at: now,
      actor: { id: approver.id, name: approver.name },
      action: 'auth.approval_granted',
      target: { type: 'user', id: principal.id },
      after: {
        permission: input.permission,
        order_id: input.order_id,
        order_dish_ids: input.order_dish_ids ?? null,
        for: { id: principal.id, name: principal.name },
        address: clientAddress,
      },
    });
  });
  return {
    approval: token,
    approver: { id: approver.id, name: approver.name },
    permission: input.permission,
    order_id: input.order_id,
    order_dish_ids: input.order_dish_ids ?? null,
    expires_at: toIsoUtc(expiresAt),
  };
}

/** What an approvable request acts on: its order, and the plates it voids or bills. */
export type ApprovalTarget = Readonly<{ orderId: string; orderDishIds: readonly string[] }>;

/**
 * The check of an approvable action (REQUEST_PERMISSIONS), inside the write's transaction: a caller
 * whose role allows it passes (null: nobody else approved). Otherwise the approval the request carries
 * must be one issued to this caller for this permission and this order, unused and unexpired, naming
 * every plate the request acts on when it names plates; it is spent here, and given back when the
 * write rolls back (a refusal here rolls it back too). No approval, or any other: 403, as without
 * approvals.
 */
export async function authorizeApprovable(
  trx: Db,
  principal: Principal,
  action: ApprovableAction,
  target: ApprovalTarget,
  now: number,
): Promise<Approver | null> {
  const permission = REQUEST_PERMISSIONS[action];
  if (principal.permissions.has(permission)) return null;
  if (principal.approvalToken === undefined) throw new ForbiddenError();
  const approval = await repo.consumeApproval(trx, {
    tokenHash: hashOf(principal.approvalToken),
    userId: principal.id,
    permission,
    orderId: target.orderId,
    now,
  });
  if (!approval) throw new ForbiddenError();
  if (approval.orderDishIds !== null) {
    const approved = new Set(JSON.parse(approval.orderDishIds) as string[]);
    const isWithin = target.orderDishIds.length > 0 && target.orderDishIds.every((id) => approved.has(id));
    if (!isWithin) throw new ForbiddenError();
  }
  return { id: approval.id, name: approval.name };
}
