import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The simulators' listen: loopback and a free port unless told otherwise, so tests never collide. */
export function listenOn(server: Server, options: { port?: number; host?: string }): Promise<void> {
  return new Promise((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
}

/** The base URL of a listening server. */
export function baseUrlOf(server: Server): string {
  const { address, port } = server.address() as AddressInfo;
  return `http://${address}:${port}`;
}

/** A request's whole body as text: the simulators read it before they route or sign it. */
export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Stops a server at once: keep-alive connections are dropped rather than waited out. */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
