import type { ServerResponse } from 'node:http';
import { isIPv4, isIPv6 } from 'node:net';
import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config';
import { ForbiddenError, MisdirectedRequestError } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Every method the API has; @fastify/cors would otherwise allow only GET, HEAD and POST. */
const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'];
/** The request headers clients send besides the CORS-safelisted ones. */
const CORS_REQUEST_HEADERS = ['Content-Type', 'Idempotency-Key', 'Last-Event-ID', 'X-Manager-Approval'];

/**
 * DNS rebinding: a page on evil.example whose name the attacker re-points at this box is same-origin
 * with itself, so the Origin check below cannot tell it apart. Its requests still carry
 * `Host: evil.example`, which is neither an address nor a name this server is known by. Registered
 * before every other hook, so nothing else runs for such a request. The host checked is the one the
 * rest of the server believes (Fastify's `request.host`): behind a trusted proxy, its
 * `X-Forwarded-Host`, which the origin check compares with; checking only the proxy's own `Host` let a
 * forwarded name through both checks (issue 35).
 */
export function refuseUnknownHosts(app: FastifyInstance, config: Config): void {
  const knownNames = new Set(['localhost', ...config.allowedHosts]);
  const loggedNames = new Set<string>();
  app.addHook('onRequest', (request, _reply, done) => {
    const host = request.headers.host === undefined ? undefined : request.host;
    if (host === undefined || isKnownHost(host, knownNames)) return done();
    // Once per name, so the operator who just put a proxy in front learns what to set, and a
    // scanner trying many names cannot flood the log (nor grow this set without end).
    const name = nameOf(host).toLowerCase().slice(0, 253);
    if (!loggedNames.has(name) && loggedNames.size < MAX_LOGGED_UNKNOWN_HOSTS) {
      loggedNames.add(name);
      request.log.warn(
        { host: name },
        `421 for requests addressed to "${name}": if this server is reached by that name, add it to POS_ALLOWED_HOSTS`,
      );
    }
    done(new MisdirectedRequestError());
  });
}

const MAX_LOGGED_UNKNOWN_HOSTS = 100;

/** The Host header without its port (not for IPv6 literals, which isKnownHost handles first). */
function nameOf(host: string): string {
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

function isKnownHost(host: string, knownNames: ReadonlySet<string>): boolean {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end > 0 && isIPv6(host.slice(1, end));
  }
  const name = nameOf(host);
  if (isIPv4(name)) return true;
  const lowerName = name.toLowerCase();
  return knownNames.has(lowerName.endsWith('.') ? lowerName.slice(0, -1) : lowerName);
}

/** Security headers, CORS for the configured front-ends, and the CSRF origin check cookie auth needs. */
export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  const securityHeaders = headersSetBy({
    // Swagger UI is the only HTML we serve; it needs its own inline styles.
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        scriptSrc: ["'self'"],
        // A restaurant's box is often reached over plain HTTP on the LAN; upgrading would break the docs page.
        upgradeInsecureRequests: config.isProduction ? [] : null,
      },
    },
    hsts: config.isProduction,
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(securityHeaders);
    done();
  });

  const allowedOrigins = new Set(config.corsOrigins);
  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin !== undefined && allowedOrigins.has(origin)),
    credentials: true,
    methods: CORS_METHODS,
    allowedHeaders: CORS_REQUEST_HEADERS,
    exposedHeaders: ['X-Total-Count', 'Retry-After'],
  });

  // Browsers always send Origin on cross-site writes; a write from a page we do not trust is refused
  // before it can ride on the user's cookies.
  const reportedOrigins = new Set<string>();
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method)) return done();
    const origin = request.headers.origin;
    // No Origin: not a browser (a tablet app, curl, phoenixd's webhook), so no ambient cookies to abuse.
    if (origin === undefined || isSameOrigin(request, origin) || allowedOrigins.has(origin)) return done();
    reportRefusedOrigin(request, origin, reportedOrigins);
    done(new ForbiddenError('Origin not allowed'));
  });
}

/** Most origins the log names; past it, refusals are not reported (a flood of forged origins stays quiet). */
const MAX_REPORTED_ORIGINS = 100;

/**
 * Reads are allowed from anywhere but writes are not, so a client served from another origin (or behind
 * a proxy that forwards the browser's Origin) half-works; the operator learns why from one log line per
 * origin, not one per request.
 */
function reportRefusedOrigin(request: FastifyRequest, origin: string, reported: Set<string>): void {
  if (reported.has(origin) || reported.size >= MAX_REPORTED_ORIGINS) return;
  reported.add(origin);
  request.log.warn(
    { origin },
    `write refused from origin ${JSON.stringify(origin)}: add it to POS_CORS_ORIGINS if that client is trusted`,
  );
}

/**
 * The headers helmet sets with these options. They do not depend on the request (no CSP nonces), so
 * they are computed once; @fastify/helmet rebuilt helmet's middleware, parsing the CSP directives, on
 * every request, which was 4.5 % of the server's time under load.
 */
function headersSetBy(options: HelmetOptions): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as never, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return Object.freeze(headers);
}

function isSameOrigin(request: FastifyRequest, origin: string): boolean {
  return origin === `${request.protocol}://${request.host}`;
}
