import type { AppContext } from '../core/context';
import { UnauthorizedError } from '../core/errors';
import { newId } from '../core/ids';
import { verifyPin } from '../core/pin';
import { TOKEN_LIFETIME_SECONDS } from '../core/tokens';
import { findLiveUserById, findLiveUserByName } from '../users/users.repo';
import type { UserView } from '../users/users.schemas';
import { toUserView } from '../users/users.service';
import * as sessions from './sessions.repo';

export type SessionTokens = { access: string; refresh: string };

const INVALID_CREDENTIALS = 'Invalid credentials';
/** Compared against when the name is unknown, so a miss costs the same PBKDF2 work as a wrong PIN. */
const DECOY_HASH = '0'.repeat(64);

const refreshLifetimeMs = TOKEN_LIFETIME_SECONDS.refresh * 1000;

/** Each login opens its own session, so a second tablet does not log out the first. */
export async function login(
  ctx: AppContext,
  credentials: { name: string; pin: string },
): Promise<{ user: UserView; tokens: SessionTokens }> {
  const user = await findLiveUserByName(ctx.db, credentials.name.trim());
  const isPinValid = await verifyPin(
    credentials.pin,
    ctx.secrets.pinKey,
    user?.name ?? credentials.name,
    user?.pin_hash ?? DECOY_HASH,
  );
  if (!user || !isPinValid) throw new UnauthorizedError(INVALID_CREDENTIALS);

  const now = ctx.clock.now();
  const session = { id: newId(), refreshTokenId: newId() };
  await sessions.insertSession(ctx.db, {
    id: session.id,
    user_id: user.id,
    refresh_token_id: session.refreshTokenId,
    created_at: now,
    expires_at: now + refreshLifetimeMs,
    revoked_at: null,
  });
  return {
    user: toUserView(user),
    tokens: await issueTokens(ctx, user.id, session.id, session.refreshTokenId),
  };
}

/**
 * Rotates the refresh token. A token that was already rotated is proof that it leaked (or was
 * replayed), so the whole session is revoked and both holders must log in again.
 */
export async function refresh(ctx: AppContext, refreshToken: string | undefined): Promise<SessionTokens> {
  const claims = refreshToken ? await ctx.tokens.verify('refresh', refreshToken) : null;
  if (!claims) throw new UnauthorizedError();
  const now = ctx.clock.now();
  const session = await sessions.findLiveSession(ctx.db, claims.sid, now);
  if (!session || session.user_id !== claims.sub) throw new UnauthorizedError();

  const nextTokenId = newId();
  const isRotated =
    session.refresh_token_id === claims.jti &&
    (await sessions.rotateRefreshToken(ctx.db, session.id, claims.jti, {
      tokenId: nextTokenId,
      expiresAt: now + refreshLifetimeMs,
    }));
  if (!isRotated) {
    await sessions.revokeSession(ctx.db, session.id, now);
    ctx.principals.forgetAll();
    throw new UnauthorizedError();
  }
  if (!(await findLiveUserById(ctx.db, session.user_id))) throw new UnauthorizedError();
  return issueTokens(ctx, session.user_id, session.id, nextTokenId);
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

async function issueTokens(
  ctx: AppContext,
  userId: string,
  sessionId: string,
  refreshTokenId: string,
): Promise<SessionTokens> {
  const [access, refreshToken] = await Promise.all([
    ctx.tokens.sign('access', { sub: userId, sid: sessionId, jti: newId() }),
    ctx.tokens.sign('refresh', { sub: userId, sid: sessionId, jti: refreshTokenId }),
  ]);
  return { access, refresh: refreshToken };
}
