import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from './clock';

export type TokenKind = 'access' | 'refresh' | 'wallet';

export const TOKEN_LIFETIME_SECONDS: Readonly<Record<TokenKind, number>> = {
  access: 60,
  refresh: 30 * 24 * 60 * 60,
  wallet: 5 * 60,
};

export type TokenClaims = {
  /** User id. */
  sub: string;
  /** Login session id: every token of one device's login shares it. */
  sid: string;
  /** Unique per token; the refresh token's id is what rotation compares. */
  jti: string;
};

/** The outcome of checking a token: its claims, or why it was refused. */
export type TokenCheck = { claims: TokenClaims } | { refused: 'expired' | 'invalid' };

type VerifiedToken = { kind: TokenKind; claims: TokenClaims; expiresAtMs: number };
const VERIFIED_CACHE_SIZE = 10_000;

/** Signs and checks our JWTs. Each kind is stamped in `typ`, so one kind can never stand in for another. */
export class TokenService {
  private readonly key: Uint8Array;
  private readonly verified = new Map<string, VerifiedToken>();

  constructor(
    secret: string,
    private readonly clock: Clock,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /**
   * HS256 is deterministic: the same claims issued at the same second give the very same token, which
   * is how a refresh within the grace window hands out its successor again.
   */
  sign(kind: TokenKind, claims: TokenClaims, issuedAtMs = this.clock.now()): Promise<string> {
    const issuedAt = Math.floor(issuedAtMs / 1000);
    return new SignJWT({ typ: kind, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub)
      .setJti(claims.jti)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + TOKEN_LIFETIME_SECONDS[kind])
      .sign(this.key);
  }

  /** The claims of a genuine, unexpired token of this kind; null for anything else. */
  async verify(kind: TokenKind, token: string): Promise<TokenClaims | null> {
    const result = await this.check(kind, token);
    return 'claims' in result ? result.claims : null;
  }

  /** Like `verify`, but says why a token is refused: `expired` only for a genuine token of this kind. */
  async check(kind: TokenKind, token: string): Promise<TokenCheck> {
    const known = this.verified.get(token);
    if (known) {
      if (known.kind !== kind) return { refused: 'invalid' };
      return known.expiresAtMs > this.clock.now() ? { claims: known.claims } : { refused: 'expired' };
    }
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        currentDate: new Date(this.clock.now()),
      });
      const { typ, sub, sid, jti, exp } = payload;
      if (typ !== kind || typeof sub !== 'string' || typeof sid !== 'string' || typeof jti !== 'string')
        return { refused: 'invalid' };
      const claims = { sub, sid, jti };
      this.remember(token, { kind, claims, expiresAtMs: (exp ?? 0) * 1000 });
      return { claims };
    } catch (error) {
      // jose checks the signature before the expiry, so an expired token here is a genuine one.
      if (error instanceof joseErrors.JWTExpired) {
        return { refused: error.payload.typ === kind ? 'expired' : 'invalid' };
      }
      if (error instanceof joseErrors.JOSEError) return { refused: 'invalid' };
      throw error;
    }
  }

  /**
   * A tablet sends the same access token with every request for a minute; its signature only needs
   * checking once. Only genuine tokens are remembered, and expiry is still checked on every use.
   */
  private remember(token: string, entry: VerifiedToken): void {
    if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.clear();
    this.verified.set(token, entry);
  }
}
