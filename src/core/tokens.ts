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

/** Signs and checks our JWTs. Each kind is stamped in `typ`, so one kind can never stand in for another. */
export class TokenService {
  private readonly key: Uint8Array;

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
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        currentDate: new Date(this.clock.now()),
      });
      const { typ, sub, sid, jti } = payload;
      if (typ !== kind || typeof sub !== 'string' || typeof sid !== 'string' || typeof jti !== 'string')
        return null;
      return { sub, sid, jti };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
  }
}
