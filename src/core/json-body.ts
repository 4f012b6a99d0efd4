import type { FastifyInstance } from 'fastify';

/**
 * A POST that takes no body is often sent with `Content-Type: application/json` and nothing after it
 * (fetch wrappers, HTTP client libraries); Fastify's parser refuses that with 400, which logged a real
 * client out at its first `/auth/refresh`. An empty JSON body here is no body: a route that takes none
 * runs, a route that needs one still answers 400 from its schema. Anything else goes to Fastify's own
 * parser, with its defences against `__proto__` and `constructor` keys.
 */
export function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // parseAs 'string': the body arrives as text, never a Buffer.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    parseJson(request, body as string, done);
  });
}
