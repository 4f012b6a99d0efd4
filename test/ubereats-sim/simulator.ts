import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { baseUrlOf, closeServer, listenOn } from '../helpers/loopback-server';
import { trackedSleep } from '../helpers/sim-process';
import type { DeliveryFaults } from '../helpers/webhook-delivery';
import { handleControl } from './control';
import { type ApiFaults, faultApplies, mergeFaults, NO_FAULTS } from './faults';
import { isObject, parseJsonObject, readBody, sendEmpty, sendJson, UberError } from './http';
import { type NewOrder, OrderBook, type OrderEvent, type SimOrder } from './orders';
import { ROUTES } from './routes';
import { StoreState } from './store';
import { TokenAuthority } from './tokens';
import { WebhookSender } from './webhooks';

export type UberEatsSimulatorOptions = {
  clientId?: string;
  /** Also the key of every webhook's `X-Uber-Signature`. */
  clientSecret?: string;
  storeId?: string;
  storeName?: string;
  webhookUrl?: string;
  /** The first webhook back-off (Uber: 1 s, then 2 s, 4 s …); tests shorten it. */
  webhookRetryBaseMs?: number;
  /** The clock behind deadlines, token expiry and pauses; `/sim/clock` moves it further. */
  now?: () => number;
  port?: number;
  host?: string;
};

export type RecordedRequest = { method: string; path: string; body: unknown };

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A stand-in for the Uber Eats Marketplace APIs on a real HTTP port, for one store: the OAuth
 * client-credentials token (the auth URL is the same server), orders announced by signed webhooks
 * and read, accepted, denied, cancelled and marked ready, the menu upload, item suspension and the
 * store's status; plus faults and controls (control.ts).
 */
export class UberEatsSimulator {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly store: StoreState;
  readonly tokens: TokenAuthority;
  readonly webhooks: WebhookSender;
  readonly orders: OrderBook;
  private readonly server: Server;
  private readonly clock: () => number;
  private clockOffsetMs = 0;
  private faults: ApiFaults = NO_FAULTS;
  private readonly recorded: RecordedRequest[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly deadlineTimer: NodeJS.Timeout;

  private constructor(options: UberEatsSimulatorOptions) {
    this.clientId = options.clientId ?? 'sim-ubereats-client';
    this.clientSecret = options.clientSecret ?? 'sim-ubereats-secret';
    this.clock = options.now ?? Date.now;
    const now = () => this.now();
    this.store = new StoreState(
      options.storeId ?? 'sim-store-1',
      options.storeName ?? 'Taquería de prueba',
      now,
    );
    this.tokens = new TokenAuthority(this.clientId, this.clientSecret, now);
    this.webhooks = new WebhookSender(this.clientSecret, options.webhookRetryBaseMs ?? 1000);
    this.webhooks.url = options.webhookUrl;
    this.orders = new OrderBook(now, (event) => this.announce(event));
    this.server = createServer((request, response) => void this.onRequest(request, response));
    // Unanswered orders are cancelled at their deadline even when nobody asks the simulator anything.
    this.deadlineTimer = setInterval(() => this.orders.expireOverdue(), 1000);
    this.deadlineTimer.unref();
  }

  static async start(options: UberEatsSimulatorOptions = {}): Promise<UberEatsSimulator> {
    const simulator = new UberEatsSimulator(options);
    await listenOn(simulator.server, options);
    return simulator;
  }

  /** Both the API base URL (`POS_UBEREATS_API_URL`) and the auth URL (`POS_UBEREATS_AUTH_URL`). */
  get url(): string {
    return baseUrlOf(this.server);
  }

  now(): number {
    return this.clock() + this.clockOffsetMs;
  }

  advanceClock(ms: number): void {
    this.clockOffsetMs += ms;
    this.orders.expireOverdue();
  }

  resourceHref(orderId: string): string {
    return `${this.url}/v2/eats/order/${orderId}`;
  }

  placeOrder(order: NewOrder): SimOrder {
    return this.orders.place(order);
  }

  cancelOrder(id: string, reason: string): SimOrder {
    return this.orders.cancelByPlatform(id, reason);
  }

  finishOrder(id: string): SimOrder {
    return this.orders.finish(id);
  }

  setFaults(faults: Partial<ApiFaults>): void {
    try {
      this.faults = mergeFaults(this.faults, faults);
    } catch (error) {
      throw new UberError(400, 'invalid_argument', error instanceof Error ? error.message : String(error));
    }
  }

  setWebhookFaults(faults: Partial<DeliveryFaults>): void {
    this.webhooks.faults = { ...this.webhooks.faults, ...faults };
  }

  reset(): void {
    this.orders.orders.clear();
    this.store.menu = undefined;
    this.store.menuUploads = 0;
    this.store.suspensions.clear();
    this.store.prices.clear();
    this.store.status = { status: 'ONLINE', pausedUntil: null, reason: '' };
    this.tokens.reset();
    this.webhooks.reset();
    this.faults = NO_FAULTS;
    this.recorded.length = 0;
    this.clockOffsetMs = 0;
  }

  /** Every API request received (not the /sim controls), in arrival order, answered or not. */
  requests(): RecordedRequest[] {
    return structuredClone(this.recorded);
  }

  snapshot() {
    this.orders.expireOverdue();
    const status = this.store.currentStatus();
    return structuredClone({
      now: new Date(this.now()).toISOString(),
      store: {
        id: this.store.id,
        name: this.store.name,
        status: status.status,
        pausedUntil: status.pausedUntil === null ? null : new Date(status.pausedUntil).toISOString(),
        statusReason: status.reason,
        menuUploads: this.store.menuUploads,
        menu: this.store.menu ?? null,
        suspendedItems: this.store.suspendedItems(),
        prices: Object.fromEntries(this.store.prices),
      },
      orders: [...this.orders.orders.values()],
      webhooks: this.webhooks.snapshot((event) => event.event_id),
      tokensMintedLastHour: this.tokens.minted,
      faults: this.faults,
      requests: this.recorded,
    });
  }

  /** Waits for every webhook under way, e.g. before a test looks at what the receiver got. */
  webhooksSettled(): Promise<void> {
    return this.webhooks.settled();
  }

  async stop(): Promise<void> {
    clearInterval(this.deadlineTimer);
    for (const timer of this.timers) clearTimeout(timer);
    await this.webhooks.stop();
    await closeServer(this.server);
  }

  private announce({ type, order }: OrderEvent): void {
    this.webhooks.send({
      event_id: randomUUID(),
      event_type: type,
      event_time: Math.floor(this.now() / 1000),
      meta: {
        resource_id: order.id,
        status: type === 'orders.notification' ? 'pos' : 'canceled',
        user_id: this.store.id,
      },
      resource_href: this.resourceHref(order.id),
    });
  }

  private async onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://sim');
    const path = url.pathname.replace(/\/$/, '') || '/';
    const method = request.method ?? 'GET';
    try {
      const text = await readBody(request);
      if (path.startsWith('/sim/')) {
        const answer = await handleControl(this, method, path, parseJsonObject(text));
        return sendJson(response, 200, answer);
      }
      await this.answerApi(request, response, { method, path, url, text });
    } catch (error) {
      const failure = asUberError(error);
      sendJson(response, failure.status, failure.body);
    }
  }

  private async answerApi(
    request: IncomingMessage,
    response: ServerResponse,
    { method, path, url, text }: { method: string; path: string; url: URL; text: string },
  ): Promise<void> {
    this.recorded.push({ method, path: `${path}${url.search}`, body: parseForRecord(text) });
    const routeKey = `${method} ${path}`;
    if (faultApplies(this.faults, 'delayMs', routeKey)) await this.sleep(this.faults.delayMs);
    if (this.consume('fail5xx', routeKey))
      throw new UberError(500, 'internal_server_error', 'simulated server failure');
    const losesAnswer = MUTATING.has(method) && this.consume('loseAnswer', routeKey);
    let status: number;
    let json: unknown;
    try {
      ({ status, json } = this.route(request, method, path, url, text));
    } catch (error) {
      const failure = asUberError(error);
      ({ status, body: json } = failure);
    }
    // The work is done; the client never learns it (a timeout, a cut connection, a crashed proxy).
    if (losesAnswer) {
      request.socket.destroy();
      return;
    }
    if (json === undefined) sendEmpty(response, status);
    else sendJson(response, status, json);
  }

  private route(request: IncomingMessage, method: string, path: string, url: URL, text: string) {
    if (method === 'POST' && path === '/oauth/v2/token') {
      const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
      if (type !== 'application/x-www-form-urlencoded')
        throw new UberError(400, 'invalid_request', 'the token request must be a form', {
          error: 'invalid_request',
          error_description: 'the token request must be application/x-www-form-urlencoded',
        });
      const answer = this.tokens.mint(new URLSearchParams(text));
      return { status: answer.status, json: answer.body };
    }
    const matches = ROUTES.filter((candidate) => candidate.pattern.test(path));
    if (matches.length === 0) throw new UberError(404, 'not_found', `no route ${method} ${path}`);
    const route = matches.find((candidate) => candidate.method === method);
    if (route === undefined)
      throw new UberError(405, 'method_not_allowed', `${method} is not allowed on ${path}`);
    this.tokens.authorize(request.headers.authorization, route.scopes);
    this.orders.expireOverdue();
    const answer = route.handle({
      orders: this.orders,
      store: this.store,
      now: () => this.now(),
      params: (route.pattern.exec(path)?.slice(1) ?? []).map(decodeURIComponent),
      query: url.searchParams,
      body: parseJsonObject(text),
    });
    return { status: answer.status, json: answer.json };
  }

  private consume(name: 'fail5xx' | 'loseAnswer', routeKey: string): boolean {
    if (!faultApplies(this.faults, name, routeKey)) return false;
    this.faults = { ...this.faults, [name]: this.faults[name] - 1 };
    return true;
  }

  private sleep(ms: number): Promise<void> {
    return trackedSleep(this.timers, ms);
  }
}

function parseForRecord(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) || Array.isArray(value) ? value : text;
  } catch {
    return text;
  }
}

function asUberError(error: unknown): UberError {
  if (error instanceof UberError) return error;
  return new UberError(500, 'internal_server_error', error instanceof Error ? error.message : String(error));
}
