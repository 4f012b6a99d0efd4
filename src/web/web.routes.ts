import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';

/**
 * Where `npm run build` writes the web app: dist/web under the project's root, found by walking up
 * from this module, which runs from src/web/ (tsx) or as dist/server.js (compiled).
 */
function builtWebAppFolder(): string {
  let folder = import.meta.dirname;
  while (!existsSync(join(folder, 'package.json')) && dirname(folder) !== folder) folder = dirname(folder);
  return join(folder, 'dist', 'web');
}

/** A path under /app/ names a file when its last segment has an extension; anything else is a screen. */
const FILE_PATH = /\.[a-z0-9]+$/i;
const HASHED_ASSET = /^assets\//;

/**
 * Serves the restaurant's web app at /app/: its files, and index.html for every screen's address
 * (the app routes on the client). Public: the app itself asks for the login.
 */
export const webAppRoutes: FastifyPluginAsync<{ root?: string }> = async (app, options) => {
  const root = options.root ?? builtWebAppFolder();
  // `npm run build` writes a .br and a .gz beside each text file; the one the browser accepts is sent
  // (with Content-Encoding and Vary), so nothing is compressed per request.
  await app.register(fastifyStatic, { root, serve: false, preCompressed: true });
  const hidden = { schema: { hide: true }, config: { public: true } };

  app.get('/app', hidden, (_request, reply) => reply.redirect('/app/'));
  app.get<{ Params: { '*': string } }>('/app/*', hidden, (request, reply) => {
    const path = request.params['*'];
    if (!existsSync(join(root, 'index.html'))) {
      return reply.code(503).send({ message: 'The web app is not built: run npm run build' });
    }
    if (!FILE_PATH.test(path)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
    }
    // Hashed names change with their content, so a tablet may keep them for good.
    const maxAge = HASHED_ASSET.test(path) ? 365 * 24 * 3600 : 0;
    return reply
      .header('cache-control', maxAge ? `public, max-age=${maxAge}, immutable` : 'no-cache')
      .sendFile(path, { cacheControl: false });
  });
};

/**
 * The guest's page (GET /g/{token}), built apart from the staff app under guest/: its HTML for any
 * token (an unknown, expired or revoked one included: the page asks /guest/{token} and says the link
 * is no longer valid) and its own assets under /g/assets/. Nothing of the staff app is reachable
 * under /g/, so a public site can expose /g/ and /guest/ alone. Public and never cached: the
 * address carries the token.
 */
export const guestPageRoutes: FastifyPluginAsync<{ root?: string }> = async (app, options) => {
  const root = join(options.root ?? builtWebAppFolder(), 'guest');
  await app.register(fastifyStatic, { root, serve: false, preCompressed: true });
  const hidden = { schema: { hide: true }, config: { public: true } };

  app.get<{ Params: { token: string } }>('/g/:token', hidden, (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!existsSync(join(root, 'index.html'))) {
      return reply.code(503).send({ message: 'The web app is not built: run npm run build' });
    }
    return reply.sendFile('index.html', root, { cacheControl: false });
  });
  app.get<{ Params: { '*': string } }>('/g/assets/*', hidden, (request, reply) =>
    reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .sendFile(request.params['*'], join(root, 'assets'), { cacheControl: false }),
  );
};
