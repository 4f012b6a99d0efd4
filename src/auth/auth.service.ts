import { recordAudit } from '../audit/audit.api';
import type { AppContext } from '../core/context';
import { tokenRefused, UnauthorizedError } from '../core/errors';
import { type FailureBucket, type FailureRule, limitFailures } from '../core/failure-limiter';
import { newId } from '../core/ids';
import { verifyPin } from '../core/pin';
import { TOKEN_LIFETIME_SECONDS } from '../core/tokens';
import * as sessions from '../users/users.api';
import {
  findLiveUserById,
  findLiveUserByNameKey,
  listLiveUsers,
  toUserView,
  type UserRow,
  userNameKey,
} from '../users/users.api';
import type { UserView } from '../users/users.schemas';

export type SessionTokens = { access: string; refresh: string };

const INVALID_CREDENTIALS = 'Invalid credentials';
/** Compared against when the name is unknown, so a miss costs the same PBKDF2 work as a wrong PIN. */
const DECOY_HASH = '0'.repeat(64);

const refreshLifetimeMs = TOKEN_LIFETIME_SECONDS.refresh * 1000;

/** Failed logins per name and address: guessing a 4-digit PIN takes days, not minutes. */
const LOGIN_FAILURES_PER_NAME: FailureRule = { scope: 'login', max: 10, windowMs: 60_000 };
/** Failed logins per address across all names, so spraying guesses over many accounts is slow too. */
const LOGIN_FAILURES_PER_ADDRESS: FailureRule = { scope: 'login-address', max: 30, windowMs: 60_000 };
/**
 * Failed logins per account from every address together: the cap no address changes (issue 35).
 * Behind a proxy trusted by hop count, a client that connects directly forges `X-Forwarded-For` and
 * gets a fresh budget per forged address; this one still holds, at the cost that a stranger can make
 * an account wait out the hour (its right PIN waits too, or guessing would go on).
 */
const LOGIN_FAILURES_PER_ACCOUNT: FailureRule = { scope: 'login-account', max: 50, windowMs: 3_600_000 };

/** How long a rotated refresh token still yields its successor: two tabs, or a retry after a lost answer. */
export const REFRESH_GRACE_MS = 10_000;

/** Each login opens its own session, so a second tablet does not log out the first. */
/** The names a login screen offers to tap, so staff type only their PIN, and how many digits it has. */
export async function listStaffNames(
  ctx: AppContext,
): Promise<{ name: string; pin_length: number | null }[]> {
  const users = await listLiveUsers(ctx.db);
  return users.map(({ name, pin_length }) => ({ name, pin_length }));
}

export async function login(
  ctx: AppContext,
  credentials: { name: string; pin: string },
  clientAddress: string,
): Promise<{ user: UserView; tokens: SessionTokens }> {
  const nameKey = userNameKey(credentials.name);
  return limitFailures(ctx.db, ctx.clock, pinFailureBuckets(nameKey, clientAddress), () =>
    openSession(ctx, nameKey, credentials, clientAddress),
  );
}

/**
 * The failure budgets every PIN typed for a name spends: a login's, and a manager's approval typed on
 * another user's tablet, so approvals are no side door for guessing a PIN.
 */
export function pinFailureBuckets(nameKey: string, clientAddress: string): FailureBucket[] {
  return [
    { rule: LOGIN_FAILURES_PER_NAME, key: `${clientAddress}|${nameKey}` },
    { rule: LOGIN_FAILURES_PER_ADDRESS, key: clientAddress },
    { rule: LOGIN_FAILURES_PER_ACCOUNT, key: nameKey },
  ];
}

/**
 * The live user with this name and PIN; otherwise records `auth.login_failed` and throws 401
 * `{"message":"Invalid credentials"}`, the same for an unknown name as for a wrong PIN.
 */
export async function checkCredentials(
  ctx: AppContext,
  nameKey: string,
  credentials: { name: string; pin: string },
  clientAddress: string,
): Promise<UserRow> {
  const user = await findLiveUserByNameKey(ctx.db, nameKey);
  const isPinValid = await verifyPin(
    credentials.pin,
    ctx.secrets.pinKey,
    user?.name ?? nameKey,
    user?.pin_hash ?? DECOY_HASH,
  );
  if (!user || !isPinValid) {
    // No business change to ride on: the failure is recorded on its own before it is answered.
    await ctx.db.transaction().execute((trx) =>
      recordAudit(trx, {
        at: ctx.clock.now(),
        actor: { id: user?.id ?? null, name: user?.name ?? credentials.name },
        action: 'auth.login_failed',
        target: { type: 'user', id: user?.id ?? null },
        after: { address: clientAddress },
      }),
    );
    throw new UnauthorizedError(INVALID_CREDENTIALS);
  }
  return user;
}

async function openSession(
  ctx: AppContext,
  nameKey: string,
  credentials: { name: string; pin: string },
  clientAddress: string,
): Promise<{ user: UserView; tokens: SessionTokens }> {
  const user = await checkCredentials(ctx, nameKey, credentials, clientAddress);
  const now = ctx.clock.now();
  const session = { id: newId(), refreshTokenId: newId() };
  await ctx.db.transaction().execute(async (trx) => {
    await sessions.insertSession(trx, {
      id: session.id,
      user_id: user.id,
      refresh_token_id: session.refreshTokenId,
      created_at: now,
      expires_at: now + refreshLifetimeMs,
      revoked_at: null,
    });
    await recordAudit(trx, {
      at: now,
      actor: { id: user.id, name: user.name },
      action: 'auth.login',
      target: { type: 'user', id: user.id },
      after: { address: clientAddress },
    });
  });
  const tokens = await issueTokens(ctx, {
    userId: user.id,
    sessionId: session.id,
    refreshTokenId: session.refreshTokenId,
    accessTokenId: newId(),
    issuedAt: now,
  });
  return { user: toUserView(user), tokens };
}

/**
 * Rotates the refresh token. The token the last rotation replaced, presented again within the grace
 * window, gets that rotation's tokens once more. Any other already rotated token is proof that it
 * leaked (or was replayed), so the whole session is revoked and both holders must log in again.
 */
export async function refresh(ctx: AppContext, refreshToken: string | undefined): Promise<SessionTokens> {
  if (!refreshToken) throw tokenRefused('missing');
  const checked = await ctx.tokens.check('refresh', refreshToken);
  if ('refused' in checked) throw tokenRefused(checked.refused);
  const { claims } = checked;
  const now = ctx.clock.now();
  let session = await sessions.findLiveSession(ctx.db, claims.sid, now);
  if (!session || session.user_id !== claims.sub) throw tokenRefused('revoked');

  if (session.refresh_token_id === claims.jti) {
    const next = {
      tokenId: newId(),
      accessTokenId: newId(),
      rotatedAt: now,
      expiresAt: now + refreshLifetimeMs,
    };
    if (await sessions.rotateRefreshToken(ctx.db, session.id, claims.jti, next)) {
      await assertUserIsLive(ctx, session.user_id);
      return issueTokens(ctx, {
        userId: session.user_id,
        sessionId: session.id,
        refreshTokenId: next.tokenId,
        accessTokenId: next.accessTokenId,
        issuedAt: now,
      });
    }
    // A parallel refresh with the same token rotated it first; its answer is ours too.
    session = await sessions.findLiveSession(ctx.db, claims.sid, now);
    if (!session) throw tokenRefused('revoked');
  }

  const { rotated_at: rotatedAt, access_token_id: accessTokenId } = session;
  const isWithinGrace =
    session.previous_refresh_token_id === claims.jti &&
    rotatedAt !== null &&
    accessTokenId !== null &&
    now - rotatedAt <= REFRESH_GRACE_MS;
  if (!isWithinGrace) {
    await sessions.revokeSession(ctx.db, session.id, now);
    ctx.principals.forgetAll();
    throw tokenRefused('revoked');
  }
  await assertUserIsLive(ctx, session.user_id);
  return issueTokens(ctx, {
    userId: session.user_id,
    sessionId: session.id,
    refreshTokenId: session.refresh_token_id,
    accessTokenId,
    issuedAt: rotatedAt,
  });
}

async function assertUserIsLive(ctx: AppContext, userId: string): Promise<void> {
  if (!(await findLiveUserById(ctx.db, userId))) throw tokenRefused('revoked');
}

/** Ends the session named by whichever of the two tokens is still genuine. */
export async function logout(
  ctx: AppContext,
  cookies: { accessToken: string | undefined; refreshToken: string | undefined },
): Promise<void> {
  const claims =
    (cookies.accessToken && (await ctx.tokens.verify('access', cookies.accessToken))) ||
    (cookies.refreshToken && (await ctx.tokens.verify('refresh', cookies.refreshToken)));
  if (!claims) return;
  await sessions.revokeSession(ctx.db, claims.sid, ctx.clock.now());
  ctx.principals.forgetAll();
}

/** Signs both tokens; the same input always yields the same pair (see TokenService.sign). */
function issueTokens(
  ctx: AppContext,
  issue: {
    userId: string;
    sessionId: string;
    refreshTokenId: string;
    accessTokenId: string;
    issuedAt: number;
  },
): Promise<SessionTokens> {
  const base = { sub: issue.userId, sid: issue.sessionId };
  return Promise.all([
    ctx.tokens.sign('access', { ...base, jti: issue.accessTokenId }, issue.issuedAt),
    ctx.tokens.sign('refresh', { ...base, jti: issue.refreshTokenId }, issue.issuedAt),
  ]).then(([access, refreshToken]) => ({ access, refresh: refreshToken }));
}
