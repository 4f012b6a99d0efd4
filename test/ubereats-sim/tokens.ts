import { randomBytes } from 'node:crypto';
import { bearerOf, UberError } from './http';

/** Uber's client-credentials tokens last 30 days (`expires_in` of the Authentication guide). */
export const TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;
/** The client-credentials grant is limited to 100 tokens an hour; the 101st answers 429. */
export const MINTS_PER_HOUR = 100;
const HOUR_MS = 60 * 60 * 1000;

/** The scopes the Marketplace APIs name for the calls this simulator answers. */
export const KNOWN_SCOPES = [
  'eats.store',
  'eats.order',
  'eats.store.orders.read',
  'eats.store.status.write',
  'eats.store.orders.restaurantdelivery.status',
] as const;

type Token = { expiresAt: number; scopes: ReadonlySet<string> };

export type TokenAnswer = { status: number; body: unknown };

const oauthError = (status: number, error: string, description: string) =>
  new UberError(status, error, description, { error, error_description: description });

/** The OAuth side of auth.uber.com: minting client-credentials tokens and checking them on each call. */
export class TokenAuthority {
  private readonly tokens = new Map<string, Token>();
  private mintTimes: number[] = [];

  constructor(
    private readonly clientId: string,
    private readonly clientSecret: string,
    private readonly now: () => number,
  ) {}

  /** `POST /oauth/v2/token` with a form body; throws the OAuth error the grant would answer. */
  mint(form: URLSearchParams): TokenAnswer {
    if (form.get('grant_type') !== 'client_credentials')
      throw oauthError(400, 'unsupported_grant_type', 'grant_type must be client_credentials');
    if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret)
      throw oauthError(401, 'invalid_client', 'The client ID or secret provided is invalid.');
    const requested = (form.get('scope') ?? '').split(/\s+/).filter((scope) => scope !== '');
    if (requested.length === 0) throw oauthError(400, 'invalid_request', 'scope is required');
    const unknown = requested.filter((scope) => !(KNOWN_SCOPES as readonly string[]).includes(scope));
    if (unknown.length > 0) throw oauthError(400, 'invalid_scope', `unknown scope: ${unknown.join(' ')}`);
    const now = this.now();
    this.mintTimes = this.mintTimes.filter((time) => time > now - HOUR_MS);
    if (this.mintTimes.length >= MINTS_PER_HOUR)
      throw oauthError(429, 'too_many_requests', 'client_credentials tokens are limited to 100 an hour');
    this.mintTimes.push(now);
    const accessToken = randomBytes(24).toString('base64url');
    this.tokens.set(accessToken, {
      expiresAt: now + TOKEN_LIFETIME_SECONDS * 1000,
      scopes: new Set(requested),
    });
    return {
      status: 200,
      body: {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: TOKEN_LIFETIME_SECONDS,
        scope: requested.join(' '),
      },
    };
  }

  /** The caller's token must be live and hold one of `scopes`: 401 without a usable token, 403 without the scope. */
  authorize(header: string | undefined, scopes: readonly string[]): void {
    const presented = bearerOf(header);
    const token = presented === undefined ? undefined : this.tokens.get(presented);
    if (token === undefined || token.expiresAt <= this.now())
      throw new UberError(401, 'unauthorized', 'Invalid OAuth 2.0 credentials provided.');
    if (!scopes.some((scope) => token.scopes.has(scope)))
      throw new UberError(403, 'forbidden', `This endpoint requires one of the scopes: ${scopes.join(', ')}`);
  }

  get minted(): number {
    return this.mintTimes.length;
  }

  /** Forgets every token, as when the client secret is rotated. */
  revokeAll(): void {
    this.tokens.clear();
  }

  reset(): void {
    this.tokens.clear();
    this.mintTimes = [];
  }
}
