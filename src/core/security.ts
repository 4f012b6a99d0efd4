import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { ForbiddenError } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Security headers, CORS for the configured front-ends, and the CSRF origin check cookie auth needs. */
export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(helmet, {
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

  const allowedOrigins = new Set(config.corsOrigins);
  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin !== undefined && allowedOrigins.has(origin)),
    credentials: true,
    exposedHeaders: ['X-Total-Count', 'Retry-After'],
  });

  // Browsers always send Origin on cross-site writes; a write from a page we do not trust is refused
  // before it can ride on the user's cookies.
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    // No Origin: not a browser (a tablet app, curl, phoenixd's webhook), so no ambient cookies to abuse.
    if (origin === undefined || isSameOrigin(request, origin) || allowedOrigins.has(origin)) return;
    throw new ForbiddenError('Origin not allowed');
  });
}

function isSameOrigin(request: FastifyRequest, origin: string): boolean {
  return origin === `${request.protocol}://${request.host}`;
}
