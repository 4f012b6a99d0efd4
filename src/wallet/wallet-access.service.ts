import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { BadRequestError, ConflictError, UnauthorizedError } from '../core/errors';
import { newId } from '../core/ids';
import { hashWalletPassword, verifyWalletPassword } from '../core/pin';
import * as repo from './wallet-access.repo';

const INVALID_CREDENTIALS = 'Invalid credentials';
export const WALLET_AUTH_REQUIRED = 'Wallet authentication required';
/** Compared against when no password is set, so that case costs the same PBKDF2 work as a wrong one. */
const DECOY_HASH = '0'.repeat(64);

async function isCorrectPassword(
  ctx: AppContext,
  userId: string,
  password: string,
  storedHash: string | null,
) {
  const isMatch = await verifyWalletPassword(password, ctx.secrets.pinKey, userId, storedHash ?? DECOY_HASH);
  return storedHash !== null && isMatch;
}

/** Checks the admin's wallet password and signs a wallet token bound to this user and login session. */
export async function grantWalletAccess(
  ctx: AppContext,
  principal: Principal,
  password: string,
): Promise<string> {
  const storedHash = (await repo.findWalletPasswordHash(ctx.db, principal.id)) ?? null;
  if (!(await isCorrectPassword(ctx, principal.id, password, storedHash))) {
    throw new UnauthorizedError(INVALID_CREDENTIALS);
  }
  return ctx.tokens.sign('wallet', { sub: principal.id, sid: principal.sessionId, jti: newId() });
}

/**
 * A wallet token proves a recent password check by this very user on this very login; one copied
 * from another session or another admin is refused.
 */
export async function assertWalletAccess(
  ctx: AppContext,
  principal: Principal,
  walletToken: string | undefined,
): Promise<void> {
  const claims = walletToken ? await ctx.tokens.verify('wallet', walletToken) : null;
  if (!claims || claims.sub !== principal.id || claims.sid !== principal.sessionId) {
    throw new UnauthorizedError(WALLET_AUTH_REQUIRED);
  }
}

export async function changeWalletPassword(
  ctx: AppContext,
  principal: Principal,
  input: { current_password?: string | undefined; new_password: string },
): Promise<void> {
  const storedHash = (await repo.findWalletPasswordHash(ctx.db, principal.id)) ?? null;
  if (storedHash !== null) {
    if (input.current_password === undefined) {
      throw new BadRequestError('The current wallet password is required to change it');
    }
    if (!(await isCorrectPassword(ctx, principal.id, input.current_password, storedHash))) {
      throw new UnauthorizedError(INVALID_CREDENTIALS);
    }
  }
  const newHash = await hashWalletPassword(input.new_password, ctx.secrets.pinKey, principal.id);
  const isReplaced = await repo.replaceWalletPasswordHash(ctx.db, principal.id, {
    expectedHash: storedHash,
    newHash,
    now: ctx.clock.now(),
  });
  if (!isReplaced) throw new ConflictError('The wallet password was changed meanwhile; try again');
}
