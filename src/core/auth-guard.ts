import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { COOKIE_NAMES } from './cookies';
import { tokenRefused, UnauthorizedError } from './errors';
import { errors } from './schemas';
import type { TokenService } from './tokens';

/** Who is calling: a live user acting through one live login session, with their role's permissions. */
export type Principal = Readonly<{
  id: string;
  name: string;
  /** The name of the user's role. */
  role: string;
  /** The names of the permissions the role holds (roles/permissions.ts). */
  permissions: ReadonlySet<string>;
  sessionId: string;
  /**
   * The `X-Manager-Approval` header of this request, unchecked: a manager's approval for one action
   * the caller's role lacks, checked and consumed only by the action that needs it.
   */
  approvalToken?: string;
}>;

/** Finds the caller when the session is live and the user not deleted; the auth feature provides it. */
export type PrincipalLookup = (sessionId: string, userId: string) => Promise<Principal | undefined>;

/**
 * What the guard asks the roles feature, handed over by buildApp as the principal lookup is: core
 * knows no permission by name. Methods, so the roles feature's functions over its own permission
 * names fit as they are.
 */
export type RoutePermissions = Readonly<{
  /** The permission a route needs: its own `config.permission`, else the one its operationId has. */
  permissionOfRoute(
    operationId: string | undefined,
    declared: RoutePermission | undefined,
  ): RoutePermission | undefined;
  /** Opens the OpenAPI description of a guarded operation. */
  permissionNote(permission: RoutePermission): string;
  /** Throws the 403 unless the caller's role holds `permission` (any one of a list). */
  authorize(principal: Principal, permission: RoutePermission): void;
}>;

/** A permission's name, or a list of names of which the caller needs any one. */
export type RoutePermission = string | readonly string[];

/** The header a request carries a manager's approval in (lower case, as Node.js names headers). */
export const APPROVAL_HEADER = 'x-manager-approval';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Reachable without an access token. Every other route requires one. */
    public?: boolean;
    /** The permission the caller's role must hold; by default the table ROUTE_PERMISSIONS says. */
    permission?: RoutePermission;
  }
}

/**
 * Protects every route by default: a new route is closed until it says `config: { public: true }`.
 * The session is looked up on each call, so logout, user deletion and role changes take effect at
 * once rather than when the one-minute access token runs out. A route's permission (ROUTE_PERMISSIONS)
 * is checked here, first, before its body is parsed or its service runs.
 */
const guard: FastifyPluginAsync<{
  tokens: TokenService;
  findPrincipal: PrincipalLookup;
  permissions: RoutePermissions;
}> = async (app, { tokens, findPrincipal, permissions }) => {
  app.decorateRequest('principal', null);

  app.addHook('onRoute', (route) => {
    const isPublic = route.config?.public === true || route.url.startsWith('/swagger');
    route.config = { ...route.config, public: isPublic };
    if (route.schema) {
      route.schema.security = isPublic ? [] : [{ accessToken: [] }];
      const permission = permissions.permissionOfRoute(route.schema.operationId, route.config.permission);
      if (permission) {
        route.config.permission = permission;
        // Routes that were open to every user did not declare the refusal they can now give.
        const responses = (route.schema.response ?? {}) as Record<string, unknown>;
        route.schema.response = { ...responses, 403: responses[403] ?? errors(403)[403] };
        route.schema.description = [permissions.permissionNote(permission), route.schema.description]
          .filter(Boolean)
          .join(' ');
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
    const approvalToken = request.headers[APPROVAL_HEADER];
    // The looked-up principal is shared between requests (a cache): the token is this request's own.
    request.principal = typeof approvalToken === 'string' ? { ...principal, approvalToken } : principal;
    const { permission } = request.routeOptions.config;
    if (permission) permissions.authorize(principal, permission);
  });
};

export const authGuard = fp(guard, { name: 'auth-guard', dependencies: ['@fastify/cookie'] });

/** The caller of a protected route; the guard has already rejected anonymous calls. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new UnauthorizedError();
  return request.principal;
}
