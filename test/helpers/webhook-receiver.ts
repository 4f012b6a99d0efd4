import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, listenOn } from './loopback-server';

export type ReceivedDelivery = { headers: IncomingHttpHeaders; body: string };
export type ReceiverAnswer = { status: number; headers?: Record<string, string> };

/**
 * A webhook receiver on 127.0.0.1: keeps what it is sent and answers as the test says (200 by
 * default). `stop` and `restart` take it off the port and back onto the same one, so deliveries meet
 * a refused connection in between.
 */
export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  answer: (delivery: ReceivedDelivery) => ReceiverAnswer = () => ({ status: 200 });
  /** How long each answer takes, for tests where deliveries must overlap. */
  delayMs = 0;
  private server: Server | undefined;

  private constructor(private port: number) {}

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(0);
    await receiver.restart();
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** The event ids received, in arrival order. */
  get eventIds(): number[] {
    return this.received.map((delivery) => JSON.parse(delivery.body).id);
  }

  async restart(): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const delivery = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
        this.received.push(delivery);
        const { status, headers } = this.answer(delivery);
        setTimeout(() => response.writeHead(status, headers).end('ok'), this.delayMs);
      });
    });
    await listenOn(server, { port: this.port });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await closeServer(server);
  }
}
