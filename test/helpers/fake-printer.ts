import { type AddressInfo, createServer, type Server } from 'node:net';

/**
 * A network printer as the print queue sees it: a TCP server on loopback that keeps the bytes of each
 * connection (one print job each) once the sender has finished, before closing its end: a sender that
 * saw the close can count on the bytes being here.
 */
export class FakePrinter {
  readonly jobs: Buffer[] = [];
  private constructor(private readonly server: Server) {}

  /** Listens on `port`, or a free one. */
  static async start(port = 0): Promise<FakePrinter> {
    const server = createServer();
    const printer = new FakePrinter(server);
    server.on('connection', (socket) => {
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('end', () => {
        printer.jobs.push(Buffer.concat(chunks));
        socket.end();
      });
      socket.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    return printer;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A loopback port nothing listens on right now: a printer that is switched off. */
export async function switchedOffPort(): Promise<number> {
  const printer = await FakePrinter.start();
  const { port } = printer;
  await printer.stop();
  return port;
}
