import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { isDatabaseUnavailable, isStorageFull } from './db/failures';
import { AppError, TooManyRequestsError, UnauthorizedError } from './errors';
import { describeValidationErrors } from './validation';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The bare-text answer when a path parameter is malformed; defaults to `Missing or malformed ID`. */
    malformedIdMessage?: string;
  }
}

const TEXT = 'text/plain; charset=utf-8';

function sendAppError(reply: FastifyReply, error: AppError): FastifyReply {
  reply.code(error.statusCode);
  if (error instanceof TooManyRequestsError) reply.header('retry-after', String(error.retryAfterSeconds));
  if (error.isBareText) return reply.type(TEXT).send(error.message);
  const reason = error instanceof UnauthorizedError ? error.reason : undefined;
  return reply.send(reason ? { message: error.message, reason } : { message: error.message });
}

/** What a client sees of any 5xx; the cause goes to the log. */
export const INTERNAL_ERROR_BODY = Object.freeze({ message: 'Internal server error' });
/** A write refused for want of space (SQLite's file or disk, PostgreSQL's disk_full): 507 Insufficient Storage. */
const STORAGE_FULL_BODY = Object.freeze({ message: 'Storage is full' });
/** The database server is gone for now (a restart, a network cut): 503, so clients retry, not 500. */
const DATABASE_UNAVAILABLE_BODY = Object.freeze({ message: 'Database unavailable' });

/** The one place where failures become HTTP answers. 5xx causes go to the log, never to the client. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setNotFoundHandler((_request, reply) => {
    reply.code(404).type(TEXT).send('Resource not found');
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) return sendAppError(reply, error);

    if (error.validation) {
      if (error.validationContext === 'params') {
        const message = request.routeOptions.config.malformedIdMessage ?? 'Missing or malformed ID';
        return reply.code(400).type(TEXT).send(message);
      }
      const details = describeValidationErrors(
        error.validation as never,
        error.validationContext ?? 'request',
      );
      return reply.code(400).send({ message: 'Validation failed', details });
    }

    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ message: status === 429 ? 'Too many requests' : error.message });
    }

    request.log.error({ err: error }, 'request failed');
    // Nothing was written and a retry will fail alike until someone frees space: say so, not "internal".
    if (isStorageFull(error)) return reply.code(507).send(STORAGE_FULL_BODY);
    if (isDatabaseUnavailable(error)) return reply.code(503).send(DATABASE_UNAVAILABLE_BODY);
    return reply.code(500).send(INTERNAL_ERROR_BODY);
  });
}
