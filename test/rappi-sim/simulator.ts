import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { baseUrlOf, listenOn } from '../helpers/loopback-server';
import { type ApiFaults, faultApplies, mergeFaults, NO_FAULTS } from '../ubereats-sim/faults';
import { handleControl } from './control';
import { isObject, parseJson, RappiError, readBody, sendJson, tokenOf } from './http';
import { type NewRappiOrder, orderJson, type RappiOrder, RappiOrderBook } from './orders';
import { type RappiStore, ROUTES } from './routes';
import { RappiWebhooks } from './webhooks';

export type RappiSimulatorOptions = {
  clientId?: string;
  clientSecret?: string;
  /** Rappi's id of the one store (`POS_RAPPI_STORE_ID`). */
  storeId?: string;
  /** The integration's own id of the store (`store.external_id`). */
  storeIntegrationId?: string;
  now?: () => number;
  port?: number;
  host?: string;
};

/** The integrations login's token lasts a week. */
export const TOKEN_LIFETIME_SECONDS = 7 * 24 * 60 * 60;
/** Integrations must leave 45 seconds between reads of new orders (Integration Standards). */
export const READ_GAP_MS = 45_000;

export type OrderRead = { at: number; gapMs: number | null; isTooSoon: boolean };

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A stand-in for Rappi's restaurant API (the `/restaurants/...` family, with the public API's
 * webhook and store-switch calls) for one store, on a real HTTP port: the integrations login, new
 * orders read once, take with cooking time, reject, ready for pickup, availability by SKU, the store
 * switched on and off, and webhooks with their own secret; plus faults and controls (control.ts).
 */
export class RappiSimulator {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly store: RappiStore;
  readonly orders: RappiOrderBook;
  readonly webhooks: RappiWebhooks;
  readonly reads: OrderRead[] = [];
  private readonly tokens = new Map<string, number>();
  private readonly server: Server;
  private readonly clock: () => number;
  private clockOffsetMs = 0;
  private faults: ApiFaults = NO_FAULTS;
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(options: RappiSimulatorOptions) {
    this.clientId = options.clientId ?? 'sim-rappi-client';
    this.clientSecret = options.clientSecret ?? 'sim-rappi-secret';
    this.clock = options.now ?? Date.now;
    this.store = {
      id: options.storeId ?? '900111',
      integrationId: options.storeIntegrationId ?? 'taqueria-1',
      name: 'Taquería de prueba',
      isEnabled: true,
      unavailableSkus: new Set(),
    };
    this.orders = new RappiOrderBook(() => this.now());
    this.webhooks = new RappiWebhooks(() => this.now());
    this.server = createServer((request, response) => void this.onRequest(request, response));
  }

  static async start(options: RappiSimulatorOptions = {}): Promise<RappiSimulator> {
    const simulator = new RappiSimulator(options);
    await listenOn(simulator.server, options);
    return simulator;
  }

  /** The country domain's base (`POS_RAPPI_API_URL`). */
  get url(): string {
    return baseUrlOf(this.server);
  }

  now(): number {
    return this.clock() + this.clockOffsetMs;
  }

  advanceClock(ms: number): void {
    this.clockOffsetMs += ms;
    this.expireOverdue();
  }

  /**
   * An eater orders. With NEW_ORDER registered for the store, Rappi posts it and the order is SENT
   * once the POS answered 200; otherwise (or when the post fails) it waits READY for a read.
   */
  async placeOrder(input: NewRappiOrder): Promise<RappiOrder> {
    const isPushed = this.webhooks.covers('NEW_ORDER', this.store.id);
    const order = this.orders.place(this.store.id, input, isPushed);
    if (isPushed) {
      const status = await this.webhooks.send(
        'NEW_ORDER',
        this.store.id,
        order.id,
        orderJson(order, this.store),
      );
      if (order.state === 'WEBHOOK') this.orders.move(order, status === 200 ? 'SENT' : 'READY');
    }
    return order;
  }

  /** The platform cancels (the eater, support): ORDER_EVENT_CANCEL with the event's name. */
  cancelOrder(id: string, event: string): RappiOrder {
    const order = this.orders.get(this.store.id, id);
    if (order === undefined) throw new RappiError(404, `order ${id} not found`);
    if (['REJECTED', 'TIMEOUT', 'CANCELED'].includes(order.state))
      throw new RappiError(409, `order is ${order.state}`);
    this.orders.move(order, 'CANCELED');
    order.cancelled = { at: this.now(), event };
    void this.webhooks.send('ORDER_EVENT_CANCEL', this.store.id, order.id, {
      event,
      order_id: order.id,
      store_id: this.store.id,
    });
    return order;
  }

  setFaults(faults: Partial<ApiFaults>): void {
    try {
      this.faults = mergeFaults(this.faults, faults);
    } catch (error) {
      throw new RappiError(400, error instanceof Error ? error.message : String(error));
    }
  }

  reset(): void {
    this.orders.orders.clear();
    this.webhooks.reset();
    this.tokens.clear();
    this.reads.length = 0;
    this.store.isEnabled = true;
    this.store.unavailableSkus.clear();
    this.faults = NO_FAULTS;
    this.clockOffsetMs = 0;
  }

  snapshot() {
    this.expireOverdue();
    return structuredClone({
      now: new Date(this.now()).toISOString(),
      store: {
        id: this.store.id,
        integrationId: this.store.integrationId,
        isEnabled: this.store.isEnabled,
        unavailableSkus: [...this.store.unavailableSkus].sort(),
      },
      orders: [...this.orders.orders.values()],
      reads: this.reads,
      readsTooSoon: this.reads.filter((read) => read.isTooSoon).length,
      webhooks: {
        registrations: [...this.webhooks.registrations.values()].map((registration) => ({
          event: registration.event,
          secret: registration.secret,
          stores: Object.fromEntries(registration.stores),
        })),
        deliveries: this.webhooks.deliveries,
        faults: this.webhooks.faults,
      },
      faults: this.faults,
    });
  }

  webhooksSettled(): Promise<void> {
    return this.webhooks.settled();
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    await this.webhooks.settled();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private expireOverdue(): void {
    for (const order of this.orders.expireOverdue())
      void this.webhooks.send('ORDER_EVENT_CANCEL', order.storeId, order.id, {
        event: 'canceled_by_timeout',
        order_id: order.id,
        store_id: order.storeId,
      });
  }

  private recordRead(): void {
    const now = this.now();
    const previous = this.reads.at(-1);
    const gapMs = previous === undefined ? null : now - previous.at;
    this.reads.push({ at: now, gapMs, isTooSoon: gapMs !== null && gapMs < READ_GAP_MS });
  }

  private async onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://sim');
    const path = url.pathname.replace(/\/$/, '') || '/';
    const method = request.method ?? 'GET';
    try {
      const body = parseJson(await readBody(request));
      if (path.startsWith('/sim/'))
        return sendJson(response, 200, await handleControl(this, method, path, body));
      await this.answerApi(request, response, method, path, body);
    } catch (error) {
      const failure = asRappiError(error);
      sendJson(response, failure.status, { message: failure.message });
    }
  }

  private async answerApi(
    request: IncomingMessage,
    response: ServerResponse,
    method: string,
    path: string,
    body: unknown,
  ): Promise<void> {
    const routeKey = `${method} ${path}`;
    if (faultApplies(this.faults, 'delayMs', routeKey)) await this.sleep(this.faults.delayMs);
    if (this.consume('fail5xx', routeKey)) throw new RappiError(500, 'simulated server failure');
    const losesAnswer = MUTATING.has(method) && this.consume('loseAnswer', routeKey);
    let status = 200;
    let json: unknown;
    try {
      json = this.route(request, method, path, body);
    } catch (error) {
      const failure = asRappiError(error);
      status = failure.status;
      json = { message: failure.message };
    }
    if (losesAnswer) {
      request.socket.destroy();
      return;
    }
    sendJson(response, status, json);
  }

  private route(request: IncomingMessage, method: string, path: string, body: unknown): unknown {
    if (method === 'POST' && path === '/restaurants/auth/v1/token/login/integrations')
      return this.login(body);
    const matches = ROUTES.filter((candidate) => candidate.pattern.test(path));
    if (matches.length === 0) throw new RappiError(404, `no route ${method} ${path}`);
    const route = matches.find((candidate) => candidate.method === method);
    if (route === undefined) throw new RappiError(405, `${method} is not allowed on ${path}`);
    const token = tokenOf(request.headers['x-authorization']);
    const expiresAt = token === undefined ? undefined : this.tokens.get(token);
    if (expiresAt === undefined || expiresAt <= this.now()) throw new RappiError(401, 'Invalid credentials');
    this.expireOverdue();
    return route.handle({
      orders: this.orders,
      store: this.store,
      webhooks: this.webhooks,
      now: () => this.now(),
      params: (route.pattern.exec(path)?.slice(1) ?? []).map(decodeURIComponent),
      body,
      recordRead: () => this.recordRead(),
      tell: (order, event) =>
        void this.webhooks.send('ORDER_OTHER_EVENT', order.storeId, order.id, {
          event,
          order_id: order.id,
          store_id: order.storeId,
        }),
    });
  }

  private login(body: unknown): unknown {
    if (!isObject(body) || typeof body.client_id !== 'string' || typeof body.client_secret !== 'string')
      throw new RappiError(400, 'client_id and client_secret are required');
    if (body.client_id !== this.clientId || body.client_secret !== this.clientSecret)
      throw new RappiError(401, 'Invalid credentials');
    const accessToken = randomBytes(24).toString('base64url');
    this.tokens.set(accessToken, this.now() + TOKEN_LIFETIME_SECONDS * 1000);
    return { access_token: accessToken, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS };
  }

  private consume(name: 'fail5xx' | 'loseAnswer', routeKey: string): boolean {
    if (!faultApplies(this.faults, name, routeKey)) return false;
    this.faults = { ...this.faults, [name]: this.faults[name] - 1 };
    return true;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }
}

function asRappiError(error: unknown): RappiError {
  if (error instanceof RappiError) return error;
  return new RappiError(500, error instanceof Error ? error.message : String(error));
}
