import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DatabaseHandle } from './db/database';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A long-lived stream (GET /events): closed by its own preClose hook, never awaited here. */
    stream?: boolean;
  }
}

/** How long requests in flight may take to finish once the server is closing. */
export const DRAIN_LIMIT_MS = 10_000;

/**
 * Graceful shutdown: once closing, every answer carries `Connection: close`, so a tablet polling on a
 * keep-alive connection lets go after its current request instead of holding the server open (and
 * its retry goes to another instance). The database closes only after the HTTP server has drained and
 * every handler has finished, including those of clients that hung up mid-request, which the server's
 * drain does not wait for.
 */
export function closeGracefully(app: FastifyInstance, database: DatabaseHandle | undefined): void {
  let isClosing = false;
  // From a request's first hook until its answer is on its way: onSend, which every answer passes.
  const running = new Set<FastifyRequest>();
  let whenNoneRunning: (() => void) | undefined;
  app.addHook('onRequest', (request, _reply, done) => {
    // A stream never answers through onSend; its own preClose hook ends it (events.routes.ts).
    if (request.routeOptions.config.stream !== true) running.add(request);
    done();
  });
  app.addHook('preClose', async () => {
    isClosing = true;
    // A client that never finishes its request, or a stream opened while closing began, would hold
    // the exit for minutes (until Node's request timeout, or systemd's SIGKILL). Past the limit their
    // connections are cut; their handlers still finish before the database closes (below).
    setTimeout(() => app.server.closeAllConnections(), DRAIN_LIMIT_MS).unref();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (isClosing) reply.header('connection', 'close');
    if (running.delete(request) && running.size === 0) whenNoneRunning?.();
    done(null, payload);
  });
  if (database) {
    app.addHook('onClose', async () => {
      if (running.size > 0) {
        await new Promise<void>((resolve) => {
          whenNoneRunning = resolve;
        });
      }
      await database.close();
    });
  }
}
