import { recordAudit } from '../audit/audit.api';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { isForeignKeyViolation, isUniqueViolation } from '../core/db/locks';
import { BadRequestError, ConflictError, NotFoundError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import { newId } from '../core/ids';
import {
  ADMIN_ROLE,
  authorize,
  grantedPermissions,
  PERMISSION_NAMES,
  PERMISSIONS,
  parsePermissions,
} from '../permissions/permissions.api';
import * as roles from './roles.repo';
import type { PermissionView, RoleBody, RoleView } from './roles.schemas';

export const ROLE_NAME_TAKEN = 'A role with this name already exists';
export const ADMIN_ROLE_FIXED = 'The admin role cannot be edited';
export const SEEDED_ROLE_NAME_FIXED = 'A seeded role cannot be renamed';
export const SEEDED_ROLE_KEPT = 'A seeded role cannot be deleted';
export const ROLE_IN_USE = 'The role is assigned to users';

function toRoleView(row: roles.RoleRow): RoleView {
  const granted = grantedPermissions(row.name, parsePermissions(row.permissions));
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    permissions: PERMISSION_NAMES.filter((name) => granted.has(name)),
    is_seeded: Number(row.is_seeded) === 1,
  };
}

export function listPermissions(): PermissionView[] {
  return PERMISSION_NAMES.map((name) => ({ name, description: PERMISSIONS[name] }));
}

export async function listRoles(ctx: AppContext, principal: Principal): Promise<RoleView[]> {
  authorize(principal, 'roles.manage');
  return (await roles.listRoles(ctx.db)).map(toRoleView);
}

export async function getRole(ctx: AppContext, principal: Principal, id: string): Promise<RoleView> {
  authorize(principal, 'roles.manage');
  const row = await roles.findRoleById(ctx.db, id);
  if (!row) throw new NotFoundError();
  return toRoleView(row);
}

export async function createRole(
  ctx: AppContext,
  principal: Principal,
  input: RoleBody,
  claim: IdempotencyClaim | undefined,
): Promise<RoleView> {
  authorize(principal, 'roles.manage');
  const now = ctx.clock.now();
  const row: roles.RoleRow = {
    id: newId(),
    name: input.name,
    description: input.description ?? '',
    permissions: JSON.stringify(input.permissions),
    is_seeded: 0,
    created_at: now,
    updated_at: now,
  };
  try {
    return await inIdempotentTransaction(ctx.db, { claim, statusCode: 201, now }, async (trx) => {
      await roles.insertRole(trx, row);
      const view = toRoleView(row);
      await recordAudit(trx, {
        at: now,
        actor: principal,
        action: 'role.created',
        target: { type: 'role', id: row.id },
        after: view,
      });
      return view;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new BadRequestError(ROLE_NAME_TAKEN);
    throw error;
  }
}

/** Users of the role get its new permissions from their next request; renaming carries them along. */
export async function updateRole(
  ctx: AppContext,
  principal: Principal,
  id: string,
  input: RoleBody,
): Promise<RoleView> {
  authorize(principal, 'roles.manage');
  try {
    const updated = await ctx.db.transaction().execute(async (trx) => {
      const existing = await roles.findRoleById(trx, id);
      if (!existing) throw new NotFoundError();
      if (existing.name === ADMIN_ROLE) throw new BadRequestError(ADMIN_ROLE_FIXED);
      const isSeeded = Number(existing.is_seeded) === 1;
      if (isSeeded && input.name !== existing.name) throw new BadRequestError(SEEDED_ROLE_NAME_FIXED);
      const changes = {
        name: input.name,
        // Omitted keeps the description; null clears it.
        description: input.description === undefined ? existing.description : (input.description ?? ''),
        permissions: JSON.stringify(input.permissions),
        updated_at: ctx.clock.now(),
      };
      await roles.updateRole(trx, id, changes);
      const view = toRoleView({ ...existing, ...changes });
      await recordAudit(trx, {
        at: changes.updated_at,
        actor: principal,
        action: 'role.updated',
        target: { type: 'role', id },
        before: toRoleView(existing),
        after: view,
      });
      return view;
    });
    ctx.principals.forgetAll();
    return updated;
  } catch (error) {
    if (isUniqueViolation(error)) throw new BadRequestError(ROLE_NAME_TAKEN);
    throw error;
  }
}

export async function deleteRole(ctx: AppContext, principal: Principal, id: string): Promise<void> {
  authorize(principal, 'roles.manage');
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const existing = await roles.findRoleById(trx, id);
      if (!existing) throw new NotFoundError();
      if (Number(existing.is_seeded) === 1) throw new BadRequestError(SEEDED_ROLE_KEPT);
      if (await roles.isRoleInUse(trx, existing.name)) throw new ConflictError(ROLE_IN_USE);
      await roles.deleteRole(trx, id);
      await recordAudit(trx, {
        at: ctx.clock.now(),
        actor: principal,
        action: 'role.deleted',
        target: { type: 'role', id },
        before: toRoleView(existing),
      });
    });
  } catch (error) {
    // A user given the role meanwhile: the foreign key refuses the delete.
    if (isForeignKeyViolation(error)) throw new ConflictError(ROLE_IN_USE);
    throw error;
  }
  ctx.principals.forgetAll();
}
