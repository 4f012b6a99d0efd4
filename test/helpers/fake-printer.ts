import { type AddressInfo, createServer, type Server } from 'node:net';

/** DLE EOT 4, the ESC/POS real-time paper status request the print queue sends before each job. */
const PAPER_STATUS_REQUEST = Buffer.from([0x10, 0x04, 0x04]);
/** The answer's fixed bits (1 and 4), and bits 5 and 6 set when the paper has run out. */
const PAPER_PRESENT = 0x12;
const PAPER_OUT = 0x72;

/**
 * A network printer as the print queue sees it: a TCP server on loopback that keeps the bytes of each
 * connection (one print job each) once the sender has finished, before closing its end: a sender that
 * saw the close can count on the bytes being here. It answers the paper status request at the start of
 * a connection, as real ESC/POS printers do, and that request is not part of the job it keeps.
 */
export class FakePrinter {
  readonly jobs: Buffer[] = [];
  /** Set to make the printer say its paper has run out. */
  isOutOfPaper = false;
  private constructor(private readonly server: Server) {}

  /** Listens on `port`, or a free one. */
  static async start(port = 0): Promise<FakePrinter> {
    const server = createServer();
    const printer = new FakePrinter(server);
    server.on('connection', (socket) => {
      const chunks: Buffer[] = [];
      let isAnswered = false;
      socket.on('data', (chunk) => {
        chunks.push(chunk);
        const received = Buffer.concat(chunks);
        if (!isAnswered && received.subarray(0, 3).equals(PAPER_STATUS_REQUEST)) {
          isAnswered = true;
          socket.write(Buffer.from([printer.isOutOfPaper ? PAPER_OUT : PAPER_PRESENT]));
        }
      });
      socket.on('end', () => {
        const received = Buffer.concat(chunks);
        const job = isAnswered ? received.subarray(PAPER_STATUS_REQUEST.length) : received;
        // A sender told there is no paper hangs up without a job.
        if (job.length > 0) printer.jobs.push(job);
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
