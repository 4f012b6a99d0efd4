import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { baseUrlOf, closeServer, listenOn, readBody } from '../helpers/loopback-server';
import { trackedSleep } from '../helpers/sim-process';
import { handleControl } from './control';
import { type ApiFaults, NO_API_FAULTS, takeFault } from './faults';
import { RappiError } from './model';
import { Platform } from './platform';
import { type Answer, ROUTES } from './routes';
import { WebhookHub } from './webhooks';

export type SimulatorOptions = {
  port?: number;
  host?: string;
  clientId?: string;
  clientSecret?: string;
  /** The store's id in the Rappi app (the paths' `{storeId}`). */
  storeId?: string;
  /** The integrator's id for the same store (`store.external_id`, `store_integration_id`). */
  storeIntegrationId?: string;
  storeName?: string;
  tokenTtlMs?: number;
  readIntervalMs?: number;
  takeDeadlineMs?: number;
  webhookAttempts?: number;
  webhookRetryDelayMs?: number;
  webhookTimeoutMs?: number;
};

export const DEFAULTS = {
  clientId: 'sim-rappi-client',
  clientSecret: 'sim-rappi-secret',
  storeId: '900100001',
  storeIntegrationId: 'taqueria-1',
  storeName: 'Taquería (simulada)',
  tokenTtlMs: 7 * 24 * 3_600_000,
  readIntervalMs: 45_000,
  takeDeadlineMs: 4 * 60_000,
  webhookAttempts: 3,
  webhookRetryDelayMs: 1_000,
  webhookTimeoutMs: 5_000,
} as const;

/**
 * A stand-in for Rappi's restaurant API on a real HTTP port: the token login, the orders family
 * (read once each, take, reject, ready for pickup), availability by SKU, store on/off and webhooks
 * registered through the API, plus `/sim/*` controls to place and cancel orders, read what the store
 * did and inject faults.
 */
export class RappiSimulator {
  readonly platform: Platform;
  readonly hub: WebhookHub;
  faults: ApiFaults = { ...NO_API_FAULTS, only: {} };
  /** `METHOD /path` of every API call that arrived, in order, answered or not. */
  readonly received: string[] = [];
  private offsetMs = 0;
  private readonly server: Server;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly sweeper: NodeJS.Timeout;

  private constructor(options: SimulatorOptions) {
    const settings = { ...DEFAULTS, ...withoutUndefined(options) };
    this.hub = new WebhookHub(
      {
        attempts: settings.webhookAttempts,
        retryDelayMs: settings.webhookRetryDelayMs,
        timeoutMs: settings.webhookTimeoutMs,
      },
      () => this.now(),
    );
    this.platform = new Platform(
      {
        clientId: settings.clientId,
        clientSecret: settings.clientSecret,
        stores: [
          { id: settings.storeId, integrationId: settings.storeIntegrationId, name: settings.storeName },
        ],
        tokenTtlMs: settings.tokenTtlMs,
        readIntervalMs: settings.readIntervalMs,
        takeDeadlineMs: settings.takeDeadlineMs,
      },
      this.hub,
      () => this.now(),
    );
    this.server = createServer((request, response) => void this.onRequest(request, response));
    // Orders time out even when nobody calls, as they do at Rappi.
    this.sweeper = setInterval(() => this.platform.sweep(), 1_000);
    this.sweeper.unref();
  }

  static async start(options: SimulatorOptions = {}): Promise<RappiSimulator> {
    const simulator = new RappiSimulator(options);
    await listenOn(simulator.server, options);
    return simulator;
  }

  get url(): string {
    return baseUrlOf(this.server);
  }

  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** Moves the platform's time forward: token expiry, the read interval and the take deadline follow it. */
  advance(ms: number): void {
    this.offsetMs += ms;
  }

  async stop(): Promise<void> {
    clearInterval(this.sweeper);
    for (const timer of this.timers) clearTimeout(timer);
    this.hub.stop();
    await this.hub.settled();
    await closeServer(this.server);
  }

  private async onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? 'GET';
    const path = new URL(request.url ?? '/', 'http://sim').pathname.replace(/\/$/, '') || '/';
    try {
      const body = parseJson(await readBody(request));
      if (path.startsWith('/sim/')) {
        send(response, await handleControl(this, method, path, body));
        return;
      }
      const route = `${method} ${path}`;
      this.received.push(route);
      if (takeFault(this.faults, 'fail5xx', route)) {
        send(response, { status: 500, json: { message: 'Internal Server Error' } });
        return;
      }
      if (takeFault(this.faults, 'slow', route)) await this.sleep(this.faults.delayMs);
      const answer = await this.answer(request, method, path, body);
      if (takeFault(this.faults, 'loseAnswer', route)) {
        request.socket.destroy();
        return;
      }
      send(response, answer);
    } catch (error) {
      if (error instanceof RappiError)
        send(response, { status: error.status, json: { message: error.message } });
      else
        send(response, {
          status: 500,
          json: { message: error instanceof Error ? error.message : String(error) },
        });
    }
  }

  private async answer(
    request: IncomingMessage,
    method: string,
    path: string,
    body: ReturnType<typeof parseJson>,
  ): Promise<Answer> {
    const matches = ROUTES.filter((candidate) => candidate.pattern.test(path));
    if (matches.length === 0) throw new RappiError(404, 'Not Found');
    const route = matches.find((candidate) => candidate.method === method);
    if (!route) throw new RappiError(405, 'Method Not Allowed');
    if (!route.open) {
      const header = request.headers['x-authorization'];
      this.platform.authorize(Array.isArray(header) ? header[0] : header);
    }
    const params = (route.pattern.exec(path)?.slice(1) ?? [])
      .filter((param): param is string => param !== undefined)
      .map(decodeURIComponent);
    return route.handle({ platform: this.platform, hub: this.hub, params, body });
  }

  private sleep(ms: number): Promise<void> {
    return trackedSleep(this.timers, ms);
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

function parseJson(text: string): Record<string, unknown> | unknown[] | undefined {
  if (text.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) throw new RappiError(400, 'Expected a JSON body');
    return value as Record<string, unknown> | unknown[];
  } catch (error) {
    if (error instanceof RappiError) throw error;
    throw new RappiError(400, 'Malformed JSON');
  }
}

function send(response: ServerResponse, answer: Answer): void {
  response.writeHead(answer.status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(answer.json));
}
