import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DatabaseHandle } from './db/database';

/**
 * Graceful shutdown: once closing, every answer carries `Connection: close`, so a tablet polling on a
 * keep-alive connection lets go after its current request instead of holding the server open (and
 * its retry goes to another instance). The database closes only after the HTTP server has drained and
 * every handler has finished, including those of clients that hung up mid-request, which the server's
 * drain does not wait for.
 */
export function closeGracefully(app: FastifyInstance, database: DatabaseHandle | undefined): void {
  let isClosing = false;
  const handlers = handlersInFlight(app);
  app.addHook('preClose', async () => {
    isClosing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (isClosing) reply.header('connection', 'close');
    done(null, payload);
  });
  if (database) {
    app.addHook('onClose', async () => {
      await handlers.finished();
      await database.close();
    });
  }
}

/** Counts requests from their first hook until their answer is on its way (onSend, which every answer passes). */
function handlersInFlight(app: FastifyInstance): { finished(): Promise<void> } {
  const running = new WeakSet<FastifyRequest>();
  let count = 0;
  let whenNoneLeft: (() => void) | undefined;
  app.addHook('onRequest', (request, _reply, done) => {
    running.add(request);
    count++;
    done();
  });
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (running.delete(request) && --count === 0) whenNoneLeft?.();
    done(null, payload);
  });
  return {
    finished: () =>
      count === 0
        ? Promise.resolve()
        : new Promise((resolve) => {
            whenNoneLeft = resolve;
          }),
  };
}
