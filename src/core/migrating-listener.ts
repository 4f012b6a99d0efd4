import { createServer } from 'node:http';

/** `port`: the one it took (the configured one, or a free one for port 0). */
export type MigratingListener = { port: number; close(): Promise<void> };

/**
 * What answers on the server's port while an upgrade's schema migrations run, before the application
 * exists: `/health` 503 `migrating` (as the application answers during the backfills that follow),
 * `/health/live` 200, anything else 503 `Migrating the database`. A load balancer and an operator see
 * an upgrade under way, not a refused connection. Undefined when the port cannot be taken: the
 * application's own listen then reports why.
 */
export async function listenWhileMigrating(
  port: number,
  host: string,
): Promise<MigratingListener | undefined> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const [status, body] =
      path === '/health/live'
        ? [200, { status: 'ok' }]
        : path === '/health'
          ? [503, { status: 'migrating', database: 'ok' }]
          : [503, { message: 'Migrating the database' }];
    response.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    });
    response.end(JSON.stringify(body));
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, resolve);
    });
  } catch {
    return undefined;
  }
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
