import { randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { baseUrlOf, closeServer, listenOn, readBody } from '../helpers/loopback-server';
import { trackedSleep } from '../helpers/sim-process';
import { type DeliveryFaults, NO_DELIVERY_FAULTS } from '../helpers/webhook-delivery';
import { handleControl } from './control';
import { badRequest, MpError, parseJsonBody } from './errors';
import { type ApiFaults, mergeFaults, NO_FAULTS, takeFault } from './faults';
import { Notifier } from './notifications';
import { type OrderEvent, PointAccount, type Terminal, toCentavos } from './point';

export type MercadoPagoSimulatorOptions = {
  port?: number;
  host?: string;
  /** What `Authorization: Bearer …` must carry (`POS_MP_ACCESS_TOKEN`). */
  accessToken?: string;
  /** The key of every notification's `x-signature` (`POS_MP_WEBHOOK_SECRET`). */
  webhookSecret?: string;
  /** Where notifications are posted (Mercado Pago's panel setting). None: they are recorded as unanswered. */
  notificationUrl?: string;
  userId?: string;
  terminals?: Terminal[];
  /** The least amount of an order, in pesos as the API writes it (a setting; see the README). */
  minAmount?: string;
  /** Mercado Pago's fee, percent of the charge. */
  feePercent?: number;
  /** A created order reaches the terminal's screen by itself after this long; null: only by control. */
  atTerminalAfterMs?: number | null;
  /** A cancel at the terminal accepted with 202 lands after this long. */
  cancelAtTerminalAfterMs?: number;
  /** A refund settles as processed after this long; null: only by control. */
  refundSettleAfterMs?: number | null;
  notificationAttempts?: number;
  notificationRetryMs?: number;
  notificationTimeoutMs?: number;
};

export const DEFAULT_TERMINALS: Terminal[] = [
  {
    id: 'NEWLAND_N950__N950NCB000000001',
    pos_id: 50000001,
    store_id: '60000001',
    external_pos_id: 'CAJA1',
    operating_mode: 'PDV',
  },
  {
    id: 'PAX_A910__SMARTPOS0000000002',
    pos_id: 50000002,
    store_id: '60000001',
    external_pos_id: 'CAJA2',
    operating_mode: 'PDV',
  },
  {
    id: 'NEWLAND_N950__N950NCB000000003',
    pos_id: 50000003,
    store_id: '60000001',
    external_pos_id: 'BARRA',
    operating_mode: 'STANDALONE',
  },
];

export const DEFAULTS = {
  accessToken: 'APP_USR-sim-mercadopago-access-token',
  webhookSecret: 'sim-mercadopago-webhook-secret',
  userId: '1234567890',
  minAmount: '5.00',
  feePercent: 3.5,
  atTerminalAfterMs: 1_000,
  cancelAtTerminalAfterMs: 1_000,
  refundSettleAfterMs: 1_000,
  notificationAttempts: 5,
  notificationRetryMs: 1_000,
  notificationTimeoutMs: 22_000,
} as const;

type Answer = { status: number; json: unknown };
type ApiContext = {
  request: IncomingMessage;
  params: string[];
  query: URLSearchParams;
  text: string;
  body: Record<string, unknown> | undefined;
};

export type RecordedRequest = { method: string; path: string; idempotencyKey: string | null };

/**
 * A stand-in for Mercado Pago's Orders API for Point on a real HTTP port: the account's terminals and
 * their operating mode, orders sent to a terminal (idempotent create, one at a time per terminal, the
 * documented states, expiry, cancel, whole and partial refunds), the Payments API read of a charged
 * card, and signed notifications; plus `/sim/*` controls (control.ts) for what happens at the terminal
 * and for faults.
 */
export class MercadoPagoSimulator {
  readonly accessToken: string;
  readonly webhookSecret: string;
  readonly point: PointAccount;
  readonly notifier: Notifier;
  private faults: ApiFaults = { ...NO_FAULTS, only: {} };
  private readonly recorded: RecordedRequest[] = [];
  private offsetMs = 0;
  private readonly server: Server;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly settings: Required<Omit<MercadoPagoSimulatorOptions, 'port' | 'host' | 'notificationUrl'>>;

  private constructor(options: MercadoPagoSimulatorOptions) {
    this.settings = {
      ...DEFAULTS,
      terminals: DEFAULT_TERMINALS,
      ...(Object.fromEntries(
        Object.entries(options).filter(([, value]) => value !== undefined),
      ) as MercadoPagoSimulatorOptions),
    } as typeof this.settings;
    this.accessToken = this.settings.accessToken;
    this.webhookSecret = this.settings.webhookSecret;
    const now = () => this.now();
    this.notifier = new Notifier({
      secret: this.webhookSecret,
      url: options.notificationUrl,
      attempts: this.settings.notificationAttempts,
      retryDelayMs: this.settings.notificationRetryMs,
      timeoutMs: this.settings.notificationTimeoutMs,
      now,
    });
    this.point = new PointAccount(
      {
        userId: this.settings.userId,
        terminals: this.settings.terminals,
        minAmount: toCentavos(this.settings.minAmount),
        feePercent: this.settings.feePercent,
      },
      now,
      (event) => this.announce(event),
    );
    this.server = createServer((request, response) => void this.onRequest(request, response));
    // Orders expire, and at-terminal cancels land, even when nobody calls.
    this.sweeper = setInterval(() => this.sweep(), 1_000);
    this.sweeper.unref();
  }

  static async start(options: MercadoPagoSimulatorOptions = {}): Promise<MercadoPagoSimulator> {
    const simulator = new MercadoPagoSimulator(options);
    await listenOn(simulator.server, options);
    return simulator;
  }

  /** `POS_MP_API_URL`. */
  get url(): string {
    return baseUrlOf(this.server);
  }

  now(): number {
    return Date.now() + this.offsetMs;
  }

  advanceClock(ms: number): void {
    this.offsetMs += ms;
    this.sweep();
  }

  sweep(): void {
    this.point.sweep(this.settings.cancelAtTerminalAfterMs);
  }

  setFaults(update: Partial<ApiFaults>): void {
    try {
      this.faults = mergeFaults(this.faults, update);
    } catch (error) {
      throw badRequest('invalid_fault', error instanceof Error ? error.message : String(error));
    }
  }

  setNotificationFaults(update: Partial<DeliveryFaults>): void {
    const next = { ...this.notifier.faults };
    for (const name of Object.keys(NO_DELIVERY_FAULTS) as (keyof DeliveryFaults)[]) {
      const value = update[name];
      if (value === undefined) continue;
      if (!Number.isInteger(value) || value < 0)
        throw badRequest('invalid_fault', `${name} must be a whole number ≥ 0`);
      next[name] = value;
    }
    this.notifier.faults = next;
  }

  reset(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.point.reset();
    this.notifier.reset();
    this.faults = { ...NO_FAULTS, only: {} };
    this.recorded.length = 0;
    this.offsetMs = 0;
  }

  /** Every API request received (not the /sim controls), in arrival order, answered or not. */
  requests(): RecordedRequest[] {
    return structuredClone(this.recorded);
  }

  snapshot() {
    this.sweep();
    return structuredClone({
      now: new Date(this.now()).toISOString(),
      terminals: this.point.terminals.map((terminal) => ({
        ...terminal,
        busy_with: this.point.openOrderOn(terminal.id)?.id ?? null,
      })),
      orders: [...this.point.orders.values()].map((order) => ({
        ...this.point.orderJson(order),
        history: order.history.map((step) => ({
          status: step.status,
          status_detail: step.detail,
          at: new Date(step.at).toISOString(),
        })),
      })),
      payments: [...this.point.payments.values()].map((payment) => this.point.paymentJson(payment)),
      notifications: this.notifier.snapshot((notification) => notification.id),
      faults: this.faults,
      requests: this.recorded,
    });
  }

  notificationsSettled(): Promise<void> {
    return this.notifier.settled();
  }

  async stop(): Promise<void> {
    clearInterval(this.sweeper);
    for (const timer of this.timers) clearTimeout(timer);
    await this.notifier.stop();
    await closeServer(this.server);
  }

  /** Runs `work` after `ms` unless the simulator stops or resets first. */
  later(ms: number, work: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      try {
        work();
      } catch {
        // The order moved on meanwhile (canceled, expired …): nothing left to do.
      }
    }, ms);
    this.timers.add(timer);
  }

  private announce({ action, order }: OrderEvent): void {
    const json = this.point.orderJson(order);
    const notificationId = String(randomInt(100_000_000_000, 999_999_999_999));
    this.notifier.send({
      id: notificationId,
      dataId: order.id,
      body: JSON.stringify({
        action,
        api_version: 'v1',
        application_id: '1000000000000001',
        date_created: new Date(this.now()).toISOString(),
        id: notificationId,
        live_mode: false,
        type: 'order',
        user_id: order.userId,
        data: {
          id: json.id,
          type: json.type,
          external_reference: json.external_reference,
          status: json.status,
          status_detail: json.status_detail,
          total_amount: json.total_amount,
          ...(json.total_paid_amount !== undefined && { total_paid_amount: json.total_paid_amount }),
          transactions: json.transactions,
          version: order.version,
        },
      }),
    });
  }

  private async onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://sim');
    const path = url.pathname.replace(/\/$/, '') || '/';
    const method = request.method ?? 'GET';
    try {
      const text = await readBody(request);
      if (path.startsWith('/sim/')) {
        const answer = await handleControl(this, method, path, parseJsonBody(text) ?? {});
        return send(response, 200, answer);
      }
      const idempotencyKey = header(request, 'x-idempotency-key');
      this.recorded.push({ method, path: `${path}${url.search}`, idempotencyKey: idempotencyKey ?? null });
      const routeKey = `${method} ${path}`;
      if (takeFault(this.faults, 'slow', routeKey)) await trackedSleep(this.timers, this.faults.delayMs);
      if (takeFault(this.faults, 'fail5xx', routeKey))
        throw new MpError(500, 'internal_error', 'Simulated server failure.');
      const losesAnswer = takeFault(this.faults, 'loseAnswer', routeKey);
      let answer: Answer;
      try {
        answer = this.route(request, method, path, url.searchParams, text);
      } catch (error) {
        const failure = asMpError(error);
        answer = { status: failure.status, json: failure.body };
      }
      // The work is done; the caller never learns it (a timeout, a cut connection).
      if (losesAnswer) {
        request.socket.destroy();
        return;
      }
      send(response, answer.status, answer.json);
    } catch (error) {
      const failure = asMpError(error);
      send(response, failure.status, failure.body);
    }
  }

  private route(
    request: IncomingMessage,
    method: string,
    path: string,
    query: URLSearchParams,
    text: string,
  ) {
    const matches = ROUTES.filter((candidate) => candidate.pattern.test(path));
    if (matches.length === 0) throw new MpError(404, 'not_found', `No route ${method} ${path}.`);
    const route = matches.find((candidate) => candidate.method === method);
    if (!route) throw new MpError(405, 'method_not_allowed', `${method} is not allowed on ${path}.`);
    const authorization = header(request, 'authorization');
    if (authorization !== `Bearer ${this.accessToken}`)
      throw new MpError(401, 'unauthorized', 'The value sent as Access Token is incorrect.');
    this.sweep();
    const params = (route.pattern.exec(path)?.slice(1) ?? []).map(decodeURIComponent);
    const body = method === 'GET' ? undefined : parseJsonBody(text);
    return route.handle.call(this, { request, params, query, text, body });
  }

  get cancelAtTerminalAfterMs(): number {
    return this.settings.cancelAtTerminalAfterMs;
  }

  /** The terminal shows a new order by itself, as a real one picks it up. */
  scheduleAtTerminal(orderId: string): void {
    const after = this.settings.atTerminalAfterMs;
    if (after === null) return;
    this.later(after, () => this.point.showOnTerminal(this.point.order(orderId)));
  }

  scheduleRefundSettle(orderId: string, refundId: string): void {
    const after = this.settings.refundSettleAfterMs;
    if (after === null) return;
    this.later(after, () => this.point.settleRefund(orderId, refundId, 'processed'));
  }
}

const ORDER = '/v1/orders/([^/]+)';

const ROUTES: {
  method: string;
  pattern: RegExp;
  handle: (this: MercadoPagoSimulator, context: ApiContext) => Answer;
}[] = [
  {
    method: 'GET',
    pattern: /^\/terminals\/v1\/list$/,
    handle(this: MercadoPagoSimulator, { query }) {
      return { status: 200, json: this.point.listTerminals(query) };
    },
  },
  {
    method: 'PATCH',
    pattern: /^\/terminals\/v1\/setup$/,
    handle(this: MercadoPagoSimulator, { body }) {
      return { status: 200, json: this.point.setOperatingModes(body) };
    },
  },
  {
    method: 'POST',
    pattern: /^\/v1\/orders$/,
    handle(this: MercadoPagoSimulator, { request, text, body }) {
      const answer = this.point.createOrder(header(request, 'x-idempotency-key'), text, body);
      const id = (answer.json as { id: string; status: string }).id;
      if (this.point.order(id).status === 'created') this.scheduleAtTerminal(id);
      return answer;
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${ORDER}$`),
    handle(this: MercadoPagoSimulator, { params: [id = ''] }) {
      return this.point.getOrder(id);
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`^${ORDER}/cancel$`),
    handle(this: MercadoPagoSimulator, { request, params: [id = ''], text }) {
      const answer = this.point.cancelOrder(
        id,
        header(request, 'x-idempotency-key'),
        text,
        header(request, 'x-allow-cancelable-status'),
      );
      if (answer.status === 202) this.later(this.cancelAtTerminalAfterMs, () => this.sweep());
      return answer;
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`^${ORDER}/refund$`),
    handle(this: MercadoPagoSimulator, { request, params: [id = ''], text, body }) {
      const answer = this.point.refundOrder(id, header(request, 'x-idempotency-key'), text, body);
      const refunds = (answer.json as { transactions?: { refunds?: { id: string; status: string }[] } })
        .transactions?.refunds;
      const refund = refunds?.[0];
      if (answer.status === 201 && refund?.status === 'processing') this.scheduleRefundSettle(id, refund.id);
      return answer;
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/payments\/([^/]+)$/,
    handle(this: MercadoPagoSimulator, { params: [id = ''] }) {
      return this.point.getPayment(id);
    },
  },
];

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function send(response: ServerResponse, status: number, json: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(json));
}

function asMpError(error: unknown): MpError {
  if (error instanceof MpError) return error;
  return new MpError(500, 'internal_error', error instanceof Error ? error.message : String(error));
}
