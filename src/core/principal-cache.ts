import type { Principal, PrincipalLookup } from './auth-guard';
import type { Clock } from './clock';

/** How long another instance may go on trusting a session this one has just revoked. */
export const PRINCIPAL_CACHE_TTL_MS = 1000;
const MAX_ENTRIES = 10_000;

/**
 * Remembers for a second who a session belongs to. The guard checks the session on every request so
 * that logout, deletion and demotion apply at once; under load that lookup was the largest single
 * cost left. This instance forgets everything the moment it changes a session or a user, so here the
 * effect is still immediate; instances sharing the database notice within the TTL.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, { principal: Principal; expiresAt: number }>();
  /** Bumped by every forget, so a lookup that raced a revocation is not stored afterwards. */
  private generation = 0;

  constructor(private readonly clock: Clock) {}

  wrap(lookup: PrincipalLookup): PrincipalLookup {
    return async (sessionId, userId) => {
      const key = `${sessionId} ${userId}`;
      const cached = this.entries.get(key);
      if (cached && cached.expiresAt > this.clock.now()) return cached.principal;
      const generation = this.generation;
      const principal = await lookup(sessionId, userId);
      if (!principal || generation !== this.generation) {
        this.entries.delete(key);
        return principal;
      }
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, { principal, expiresAt: this.clock.now() + PRINCIPAL_CACHE_TTL_MS });
      return principal;
    };
  }

  /** Called after any session is revoked or any user changes: rare events, so forgetting all is simplest. */
  forgetAll(): void {
    this.generation++;
    this.entries.clear();
  }
}
