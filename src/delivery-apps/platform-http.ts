import type { PlatformAnswer, PlatformCall, PlatformHttp } from '../core/platform-http';
import type { TokenCache } from './token-cache';

/**
 * Calls that carry the platform's token. A 401 means the token we hold is no longer good (revoked, a
 * rotated secret): it is dropped and the call made once more with a new one, never more than once.
 */
export class AuthorizedHttp {
  constructor(
    readonly http: PlatformHttp,
    private readonly tokens: TokenCache,
    private readonly authorization: (token: string) => Record<string, string>,
  ) {}

  async send(call: PlatformCall): Promise<PlatformAnswer> {
    const token = await this.tokens.get();
    const answer = await this.http.send(this.withToken(call, token));
    if (answer.status !== 401) return answer;
    this.tokens.drop(token);
    return this.http.send(this.withToken(call, await this.tokens.get()));
  }

  /** The body of a call that must succeed. */
  async ok(call: PlatformCall): Promise<unknown> {
    return this.http.expectOk(await this.send(call), `${call.method} ${call.path}`);
  }

  private withToken(call: PlatformCall, token: string): PlatformCall {
    return { ...call, headers: { ...call.headers, ...this.authorization(token) } };
  }
}
