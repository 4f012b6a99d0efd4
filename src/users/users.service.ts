import { type AuditActor, COMMAND_LINE_ACTOR, recordAudit } from '../audit/audit.api';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { isForeignKeyViolation, isUniqueViolation } from '../core/db/locks';
import { BadRequestError, NotFoundError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import { newId } from '../core/ids';
import { hashPin } from '../core/pin';
import { ADMIN_ROLE, DEFAULT_ROLE } from '../permissions/permissions.api';
import { revokeSessionsOfUser } from './sessions.repo';
import { userNameKey } from './user-name';
import * as users from './users.repo';
import type { CreateUserBody, CurrentUserView, UpdateUserBody, UserView } from './users.schemas';

export function toUserView(row: Pick<users.UserRow, 'id' | 'name' | 'role'>): UserView {
  return { id: row.id, name: row.name, role: row.role, is_admin: row.role === ADMIN_ROLE };
}

const NAME_TAKEN = 'A user with this name already exists';
const LAST_ADMIN = 'Cannot remove the last admin';
export const UNKNOWN_ROLE = 'Unknown role';

type NewUser = {
  id?: string;
  name: string;
  pin: string;
  /** A role's name. */
  role: string;
  walletPasswordHash?: string | null;
};

/** The row of a new user; PBKDF2 runs here, before any transaction, so no lock is held while it hashes. */
async function newUserRow(ctx: AppContext, input: NewUser): Promise<users.NewUserRow> {
  const now = ctx.clock.now();
  const name = input.name.trim();
  return {
    id: input.id ?? newId(),
    name,
    name_key: userNameKey(name),
    pin_hash: await hashPin(input.pin, ctx.secrets.pinKey, name),
    pin_length: input.pin.length,
    role: input.role,
    wallet_password_hash: input.walletPasswordHash ?? null,
    created_at: now,
    updated_at: now,
  };
}

/** Turns a lost race for the name into the same answer as a visible duplicate. */
async function insertUserRow(db: AppContext['db'], row: users.NewUserRow): Promise<UserView> {
  try {
    await users.insertUser(db, row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new BadRequestError(NAME_TAKEN);
    if (isForeignKeyViolation(error)) throw new BadRequestError(UNKNOWN_ROLE);
    throw error;
  }
  return toUserView(row);
}

export async function insertNewUser(ctx: AppContext, input: NewUser, db = ctx.db): Promise<UserView> {
  return insertUserRow(db, await newUserRow(ctx, input));
}

export async function createUser(
  ctx: AppContext,
  input: CreateUserBody,
  claim: IdempotencyClaim | undefined,
  audit: { actor: AuditActor; action: 'user.created' | 'cli.user_created' },
): Promise<UserView> {
  const row = await newUserRow(ctx, { ...input, role: input.role ?? DEFAULT_ROLE });
  return inIdempotentTransaction(ctx.db, { claim, statusCode: 201, now: row.created_at }, async (trx) => {
    const user = await insertUserRow(trx, row);
    await recordAudit(trx, {
      at: row.created_at,
      ...audit,
      target: { type: 'user', id: user.id },
      after: user,
    });
    return user;
  });
}

export async function listUsers(ctx: AppContext): Promise<UserView[]> {
  return (await users.listLiveUsers(ctx.db)).map(toUserView);
}

export async function getUser(ctx: AppContext, id: string): Promise<UserView> {
  const row = await users.findLiveUserById(ctx.db, id);
  if (!row) throw new NotFoundError();
  return toUserView(row);
}

/**
 * A new PIN or role ends the user's other sessions: whoever learnt the old PIN, or holds a session
 * opened under the old role, is logged out. An admin editing their own account keeps the session
 * they are doing it from.
 */
/** `principal` is the caller, whose own session survives; the admin CLI has none and ends them all. */
export async function updateUser(
  ctx: AppContext,
  principal: Principal | undefined,
  id: string,
  input: UpdateUserBody,
): Promise<UserView> {
  const name = input.name.trim();
  const existing = await users.findLiveUserById(ctx.db, id);
  if (!existing) throw new NotFoundError();
  if (name !== existing.name && input.pin === undefined) {
    throw new BadRequestError('A new PIN is required to rename a user');
  }
  const pinHash = input.pin === undefined ? undefined : await hashPin(input.pin, ctx.secrets.pinKey, name);

  try {
    await ctx.db.transaction().execute(async (trx) => {
      if (existing.role === ADMIN_ROLE && input.role !== ADMIN_ROLE) await assertAnotherAdminRemains(trx, id);
      const now = ctx.clock.now();
      await users.updateUser(trx, id, {
        name,
        name_key: userNameKey(name),
        role: input.role,
        ...(pinHash && { pin_hash: pinHash, pin_length: input.pin?.length }),
        updated_at: now,
      });
      if (pinHash || input.role !== existing.role) {
        const keptSessionId = principal?.id === id ? principal.sessionId : undefined;
        await revokeSessionsOfUser(trx, id, now, { except: keptSessionId });
      }
      await recordAudit(trx, {
        at: now,
        // Without a caller, the admin command line resets a PIN (`reset-pin`).
        ...(principal
          ? { actor: principal, action: 'user.updated' }
          : { actor: COMMAND_LINE_ACTOR, action: 'cli.pin_reset' }),
        target: { type: 'user', id },
        before: toUserView(existing),
        after: { ...toUserView({ id, name, role: input.role }), pin_changed: pinHash !== undefined },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new BadRequestError(NAME_TAKEN);
    if (isForeignKeyViolation(error)) throw new BadRequestError(UNKNOWN_ROLE);
    throw error;
  }
  ctx.principals.forgetAll();
  return toUserView({ id, name, role: input.role });
}

export async function deleteUser(ctx: AppContext, principal: Principal, id: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const existing = await users.findLiveUserById(trx, id);
    if (!existing) throw new NotFoundError();
    if (existing.role === ADMIN_ROLE) await assertAnotherAdminRemains(trx, id);
    const now = ctx.clock.now();
    await users.softDeleteUser(trx, id, now);
    await revokeSessionsOfUser(trx, id, now);
    await recordAudit(trx, {
      at: now,
      actor: principal,
      action: 'user.deleted',
      target: { type: 'user', id },
      before: toUserView(existing),
    });
  });
  ctx.principals.forgetAll();
}

export async function getCurrentUser(ctx: AppContext, principal: Principal): Promise<CurrentUserView> {
  return { ...(await getUser(ctx, principal.id)), permissions: [...principal.permissions].sort() };
}

async function assertAnotherAdminRemains(db: AppContext['db'], leavingAdminId: string): Promise<void> {
  const adminIds = await users.lockLiveAdminIds(db);
  if (!adminIds.some((adminId) => adminId !== leavingAdminId)) throw new BadRequestError(LAST_ADMIN);
}
