import type { ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config';
import { ForbiddenError } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

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
    exposedHeaders: ['X-Total-Count', 'Retry-After'],
  });

  // Browsers always send Origin on cross-site writes; a write from a page we do not trust is refused
  // before it can ride on the user's cookies.
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method)) return done();
    const origin = request.headers.origin;
    // No Origin: not a browser (a tablet app, curl, phoenixd's webhook), so no ambient cookies to abuse.
    if (origin === undefined || isSameOrigin(request, origin) || allowedOrigins.has(origin)) return done();
    done(new ForbiddenError('Origin not allowed'));
  });
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
