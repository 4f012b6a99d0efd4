import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { baseUrlOf, closeServer, listenOn } from '../helpers/loopback-server';
import { handleControl } from './control';
import { HttpAnswer, isAuthorized, Params, parseForm, readBody, sendJson, sendText, TEXTS } from './http';
import { type Answer, ROUTES } from './routes';
import { type ReceiveOptions, type SimIncoming, SimNode } from './sim-node';

export type SimulatorOptions = {
  password?: string;
  /** phoenixd's `http-password-limited-access`: everything but paying out. */
  limitedPassword?: string;
  /** The liquidity fee taken from every payment received (SimNode.liquidityFeeSat). */
  liquidityFeeSat?: number;
  port?: number;
  host?: string;
  balanceSat?: number;
  webhookUrl?: string;
  webhookSecret?: string;
};

/** up: answers; down: drops every connection; slow: answers only after `delayMs`. */
export type SimMode = { kind: 'up' } | { kind: 'down' } | { kind: 'slow'; delayMs: number };

export type WebhookDelivery = { status: number; body: string };

/**
 * deliver: phoenixd posts each payment's webhook once, right after the payment and without the payer
 * waiting for it, and ignores the answer (no retry, nothing kept); drop: it never arrives (a crash,
 * a network cut, a wrong URL), so only a sweep, a lookup or the catch-up read finds the payment.
 */
export type WebhookMode = 'deliver' | 'drop';

/**
 * A stand-in for phoenixd on a real HTTP port: its routes, Basic auth, form bodies, JSON shapes
 * and texts, plus controls for what a test needs (balance, forced failures, an unreachable or
 * slow node, an outside payer paying our invoice, which fires the signed webhook).
 */
export class PhoenixdSimulator {
  readonly node: SimNode;
  readonly password: string;
  readonly limitedPassword: string;
  webhookUrl: string | undefined;
  webhookSecret: string | undefined;
  /** `METHOD /path` of every request that reached the node, in arrival order, answered or not yet. */
  readonly received: string[] = [];
  private mode: SimMode = { kind: 'up' };
  private failing: { path: string; answered: number } | undefined;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  webhookMode: WebhookMode = 'deliver';
  private lastWebhook: { body: string; payment: SimIncoming } | undefined;
  private readonly deliveries = new Set<Promise<unknown>>();

  private constructor(options: SimulatorOptions) {
    this.node = new SimNode(options.balanceSat ?? 1_000_000);
    this.node.liquidityFeeSat = options.liquidityFeeSat ?? 0;
    this.password = options.password ?? 'sim-http-password';
    this.limitedPassword = options.limitedPassword ?? 'sim-limited-password';
    this.webhookUrl = options.webhookUrl;
    this.webhookSecret = options.webhookSecret;
    this.server = createServer((request, response) => this.onRequest(request, response));
    this.server.on('connection', (socket) => {
      if (this.mode.kind === 'down') {
        socket.destroy();
        return;
      }
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(options: SimulatorOptions = {}): Promise<PhoenixdSimulator> {
    const simulator = new PhoenixdSimulator(options);
    await listenOn(simulator.server, options);
    return simulator;
  }

  get url(): string {
    return baseUrlOf(this.server);
  }

  /** With `durationMs`, the node returns to normal by itself (a down node cannot be told over HTTP). */
  setMode(mode: SimMode, durationMs?: number): void {
    this.mode = mode;
    // Kept-alive connections would otherwise still reach a node that is meant to be down.
    if (mode.kind === 'down') for (const socket of this.sockets) socket.destroy();
    if (durationMs !== undefined) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.mode = { kind: 'up' };
      }, durationMs);
      this.timers.add(timer);
    }
  }

  /**
   * An outside payer pays one of our invoices. phoenixd then posts the payment_received event once
   * to each of its webhooks (phoenix.conf's and the invoice's own `webhookUrl`), in the background:
   * `webhooks` settles when they were answered, or failed, one delivery per URL. Throws
   * PaymentRefusedError as the node would refuse.
   */
  async receivePayment(invoice: string, options: ReceiveOptions = {}) {
    const payment = this.node.receive(invoice, options);
    const event = {
      type: 'payment_received',
      timestamp: payment.completedAt,
      amountSat: payment.receivedSat,
      paymentHash: payment.paymentHash,
      externalId: payment.externalId,
      payerNote: payment.payerNote,
      payerKey: null,
    };
    // phoenixd's webhook client pretty-prints and keeps nulls; the signature covers exactly these bytes.
    const body = JSON.stringify(event, null, 4);
    this.lastWebhook = { body, payment };
    const webhooks =
      this.webhookMode === 'deliver' ? this.deliverInBackground(body, payment) : Promise.resolve([]);
    return { payment, webhooks };
  }

  /**
   * The last event once more to each of its webhooks, as when phoenix.conf's `webhook=` and the
   * invoice's `webhookUrl` both name the POS: phoenixd itself never sends an event twice to one URL.
   */
  redeliverLastWebhook(): Promise<WebhookDelivery[]> {
    if (this.lastWebhook === undefined) throw new Error('no webhook was sent yet');
    return this.deliverInBackground(this.lastWebhook.body, this.lastWebhook.payment);
  }

  /** Waits for every webhook under way, e.g. before a test looks at what it settled. */
  async webhooksDelivered(): Promise<void> {
    await Promise.allSettled([...this.deliveries]);
  }

  private deliverInBackground(body: string, payment: SimIncoming): Promise<WebhookDelivery[]> {
    const urls = [this.webhookUrl, payment.webhookUrl].filter((url): url is string => !!url);
    const delivery = Promise.all(urls.map((url) => this.deliverWebhook(url, body)));
    this.deliveries.add(delivery);
    void delivery.finally(() => this.deliveries.delete(delivery));
    return delivery;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    await this.webhooksDelivered();
    await closeServer(this.server);
  }

  private async deliverWebhook(url: string, body: string): Promise<WebhookDelivery> {
    const signature = createHmac('sha256', this.webhookSecret ?? '')
      .update(body)
      .digest('hex');
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-phoenix-signature': signature },
        body,
      });
      return { status: response.status, body: await response.text() };
    } catch (error) {
      // phoenixd only logs a failed delivery; status 0 tells the caller nobody answered.
      return {
        status: 0,
        body: `webhook failure: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }

  /**
   * The node answers the next `answered` requests to `path` as usual, then 500 to every later one
   * (until `failAfter(undefined)`): a node that breaks in the middle of a read of several pages.
   */
  failAfter(path: string | undefined, answered = 0): void {
    this.failing = path === undefined ? undefined : { path, answered };
  }

  private onRequest(request: IncomingMessage, response: ServerResponse): void {
    const path = new URL(request.url ?? '/', 'http://sim').pathname;
    this.received.push(`${request.method} ${path}`);
    if (this.failing?.path === path) {
      if (this.failing.answered === 0) {
        sendText(response, 500, 'simulated node failure');
        return;
      }
      this.failing.answered -= 1;
    }
    if (this.mode.kind === 'slow') {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void this.answer(request, response);
      }, this.mode.delayMs);
      this.timers.add(timer);
      return;
    }
    void this.answer(request, response);
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const url = new URL(request.url ?? '/', 'http://sim');
      const body = await readBody(request);
      const path = url.pathname.replace(/\/$/, '') || '/';
      if (path.startsWith('/sim/')) return await this.answerControl(request, response, path, body);
      const matches = ROUTES.filter((route) => route.pattern.test(path));
      if (matches.length === 0) throw new HttpAnswer(404, TEXTS.unknownEndpoint);
      const route = matches.find((candidate) => candidate.method === request.method);
      if (!route) throw new HttpAnswer(405, TEXTS.methodNotAllowed);
      const passwords = route.paysOut ? [this.password] : [this.password, this.limitedPassword];
      if (!passwords.some((password) => isAuthorized(request.headers.authorization, password))) {
        response.setHeader('www-authenticate', 'Basic realm="Ktor Server", charset=UTF-8');
        throw new HttpAnswer(401, TEXTS.unauthorized);
      }
      const values =
        route.method === 'POST' ? parseForm(request.headers['content-type'], body) : url.searchParams;
      const captured = route.pattern.exec(path)?.slice(1) ?? [];
      send(response, route.handle(this.node, new Params(values), captured.map(decodeURIComponent)));
    } catch (error) {
      if (error instanceof HttpAnswer) sendText(response, error.status, error.text);
      else sendText(response, 500, error instanceof Error ? error.message : String(error));
    }
  }

  private async answerControl(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    body: string,
  ) {
    if (request.method !== 'POST') throw new HttpAnswer(405, TEXTS.methodNotAllowed);
    if (!isAuthorized(request.headers.authorization, this.password))
      throw new HttpAnswer(401, TEXTS.unauthorized);
    const params = new Params(parseForm(request.headers['content-type'], body));
    send(response, await handleControl(this, path, params));
  }
}

function send(response: ServerResponse, answer: Answer): void {
  if ('text' in answer) sendText(response, 200, answer.text);
  else sendJson(response, answer.json);
}
