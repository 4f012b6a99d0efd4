import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { COOKIE_NAMES } from './cookies';
import { ForbiddenError, tokenRefused, UnauthorizedError } from './errors';
import type { TokenService } from './tokens';

export type Role = 'admin' | 'staff';

/** Who is calling: a live user acting through one live login session. */
export type Principal = Readonly<{ id: string; name: string; role: Role; sessionId: string }>;

/** Finds the caller when the session is live and the user not deleted; the auth feature provides it. */
export type PrincipalLookup = (sessionId: string, userId: string) => Promise<Principal | undefined>;

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Reachable without an access token. Every other route requires one. */
    public?: boolean;
    /** Only administrators may call it. */
    adminOnly?: boolean;
  }
}

/** Opens the OpenAPI description of every administrator-only operation. */
export const ADMIN_ONLY_NOTE = 'Requires an administrator.';

/**
 * Protects every route by default: a new route is closed until it says `config: { public: true }`.
 * The session is looked up on each call, so logout, user deletion and role changes take effect at
 * once rather than when the one-minute access token runs out.
 */
const guard: FastifyPluginAsync<{ tokens: TokenService; findPrincipal: PrincipalLookup }> = async (
  app,
  { tokens, findPrincipal },
) => {
  app.decorateRequest('principal', null);

  app.addHook('onRoute', (route) => {
    const isPublic = route.config?.public === true || route.url.startsWith('/swagger');
    route.config = { ...route.config, public: isPublic };
    if (route.schema) {
      route.schema.security = isPublic ? [] : [{ accessToken: [] }];
      if (route.config.adminOnly) {
        route.schema.description = [ADMIN_ONLY_NOTE, route.schema.description].filter(Boolean).join(' ');
      }
    }
  });

  app.addHook('onRequest', async (request) => {
    if (request.is404 || request.routeOptions.config.public) return;
    const token = request.cookies[COOKIE_NAMES.access];
    if (!token) throw tokenRefused('missing');
    const checked = await tokens.check('access', token);
    if ('refused' in checked) throw tokenRefused(checked.refused);
    const { claims } = checked;
    // The session was logged out or revoked, or its user deleted: refreshing cannot help.
    const principal = await findPrincipal(claims.sid, claims.sub);
    if (!principal) throw tokenRefused('revoked');
    request.principal = principal;
    if (request.routeOptions.config.adminOnly && principal.role !== 'admin') throw new ForbiddenError();
  });
};

export const authGuard = fp(guard, { name: 'auth-guard', dependencies: ['@fastify/cookie'] });

/** The caller of a protected route; the guard has already rejected anonymous calls. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new UnauthorizedError();
  return request.principal;
}
