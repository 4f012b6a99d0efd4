import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { BadRequestError, ConflictError, UnauthorizedError } from '../core/errors';
import { type FailureRule, limitFailures } from '../core/failure-limiter';
import { newId } from '../core/ids';
import { hashWalletPassword, verifyPin, verifyWalletPassword } from '../core/pin';
import { TOKEN_LIFETIME_SECONDS } from '../core/tokens';
import { authorize } from '../permissions/permissions.api';
import * as repo from './wallet-access.repo';

const INVALID_CREDENTIALS = 'Invalid credentials';
export const WALLET_AUTH_REQUIRED = 'Wallet authentication required';
/** Compared against when no password is set, so that case costs the same PBKDF2 work as a wrong one. */
const DECOY_HASH = '0'.repeat(64);

/**
 * Wrong wallet passwords, and wrong proofs when setting one, share one budget per admin: otherwise
 * setting a password would be a second, unthrottled way to test guesses.
 */
const WALLET_SECRET_FAILURES: FailureRule = { scope: 'wallet-secret', max: 10, windowMs: 60_000 };

function limitWalletSecretFailures<T>(ctx: AppContext, principal: Principal, attempt: () => Promise<T>) {
  return limitFailures(ctx.db, ctx.clock, [{ rule: WALLET_SECRET_FAILURES, key: principal.id }], attempt);
}

async function isCorrectPassword(
  ctx: AppContext,
  userId: string,
  password: string,
  storedHash: string | null,
) {
  const isMatch = await verifyWalletPassword(password, ctx.secrets.pinKey, userId, storedHash ?? DECOY_HASH);
  return storedHash !== null && isMatch;
}

async function credentialsOf(ctx: AppContext, principal: Principal) {
  const credentials = await repo.findWalletCredentials(ctx.db, principal.id);
  if (!credentials) throw new UnauthorizedError();
  return credentials;
}

/** Checks the admin's wallet password and signs a wallet token bound to this user and login session. */
export async function grantWalletAccess(
  ctx: AppContext,
  principal: Principal,
  password: string,
): Promise<string> {
  authorize(principal, 'wallet.use');
  const { wallet_password_hash: storedHash } = await credentialsOf(ctx, principal);
  await limitWalletSecretFailures(ctx, principal, async () => {
    if (!(await isCorrectPassword(ctx, principal.id, password, storedHash))) {
      throw new UnauthorizedError(INVALID_CREDENTIALS);
    }
  });
  return ctx.tokens.sign('wallet', { sub: principal.id, sid: principal.sessionId, jti: newId() });
}

/**
 * A wallet token proves a recent password check by this very user on this very login; one copied
 * from another session or another admin, or one logged out, is refused. The revocation lookup costs a
 * query per wallet call, which the wallet's low traffic affords.
 */
export async function assertWalletAccess(
  ctx: AppContext,
  principal: Principal,
  walletToken: string | undefined,
): Promise<void> {
  authorize(principal, 'wallet.use');
  const claims = walletToken ? await ctx.tokens.verify('wallet', walletToken) : null;
  if (
    !claims ||
    claims.sub !== principal.id ||
    claims.sid !== principal.sessionId ||
    (await repo.isWalletTokenRevoked(ctx.db, claims.jti))
  ) {
    throw new UnauthorizedError(WALLET_AUTH_REQUIRED);
  }
}

/** Wallet logout: the caller's wallet token stops working everywhere, not only in this browser. */
export async function revokeWalletAccess(
  ctx: AppContext,
  principal: Principal,
  walletToken: string | undefined,
): Promise<void> {
  authorize(principal, 'wallet.use');
  const claims = walletToken ? await ctx.tokens.verify('wallet', walletToken) : null;
  if (!claims || claims.sub !== principal.id) return;
  const now = ctx.clock.now();
  // The token's own expiry is at most one lifetime away; keeping the entry that long is enough.
  await repo.revokeWalletToken(
    ctx.db,
    { id: claims.jti, expiresAt: now + TOKEN_LIFETIME_SECONDS.wallet * 1000 },
    now,
  );
}

/**
 * Setting a wallet password needs proof: the current wallet password, or the user's PIN while none is
 * set. A stolen, still-open admin session alone thus cannot take over the wallet.
 */
export async function changeWalletPassword(
  ctx: AppContext,
  principal: Principal,
  input: { current_password?: string | undefined; pin?: string | undefined; new_password: string },
): Promise<void> {
  authorize(principal, 'wallet.use');
  const credentials = await credentialsOf(ctx, principal);
  const storedHash = credentials.wallet_password_hash;
  if (storedHash !== null && input.current_password === undefined) {
    throw new BadRequestError('The current wallet password is required to change it');
  }
  if (storedHash === null && input.pin === undefined) {
    throw new BadRequestError('Your PIN is required to set a first wallet password');
  }
  await limitWalletSecretFailures(ctx, principal, async () => {
    const isProven =
      storedHash === null
        ? await verifyPin(input.pin ?? '', ctx.secrets.pinKey, credentials.name, credentials.pin_hash)
        : await isCorrectPassword(ctx, principal.id, input.current_password ?? '', storedHash);
    if (!isProven) throw new UnauthorizedError(INVALID_CREDENTIALS);
  });
  const newHash = await hashWalletPassword(input.new_password, ctx.secrets.pinKey, principal.id);
  const isReplaced = await repo.replaceWalletPasswordHash(ctx.db, principal.id, {
    expectedHash: storedHash,
    newHash,
    now: ctx.clock.now(),
  });
  if (!isReplaced) throw new ConflictError('The wallet password was changed meanwhile; try again');
}
