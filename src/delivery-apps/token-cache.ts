/** A token as the platform issued it. */
export type IssuedToken = { token: string; expiresInSeconds: number };

/**
 * Renews a token this long before the platform says it expires, so that a call never carries a token
 * that lapses on its way (Uber's last 30 days and Rappi's a week: a minute is nothing to them).
 */
const RENEW_EARLY_MS = 60_000;

/**
 * One platform's access token, kept until it expires: Uber mints at most 100 an hour and Rappi asks
 * integrators not to log in per call. Callers that need a token at the same moment share one fetch.
 */
export class TokenCache {
  private current: { token: string; expiresAt: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(
    private readonly issue: () => Promise<IssuedToken>,
    private readonly now: () => number,
  ) {}

  get(): Promise<string> {
    if (this.current !== undefined && this.current.expiresAt > this.now())
      return Promise.resolve(this.current.token);
    this.pending ??= this.issue()
      .then(({ token, expiresInSeconds }) => {
        this.current = { token, expiresAt: this.now() + expiresInSeconds * 1000 - RENEW_EARLY_MS };
        return token;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }

  /** The platform refused this token (revoked, rotated secret): the next call fetches another. */
  drop(token: string): void {
    if (this.current?.token === token) this.current = undefined;
  }
}
