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

  sign(kind: TokenKind, claims: TokenClaims): Promise<string> {
    const issuedAt = Math.floor(this.clock.now() / 1000);
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
    const known = this.verified.get(token);
    if (known) return known.kind === kind && known.expiresAtMs > this.clock.now() ? known.claims : null;
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        currentDate: new Date(this.clock.now()),
      });
      const { typ, sub, sid, jti, exp } = payload;
      if (typ !== kind || typeof sub !== 'string' || typeof sid !== 'string' || typeof jti !== 'string')
        return null;
      const claims = { sub, sid, jti };
      this.remember(token, { kind, claims, expiresAtMs: (exp ?? 0) * 1000 });
      return claims;
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
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
