import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { baseUrlOf, closeServer, listenOn, readBody } from '../helpers/loopback-server';

/** ok: the providers' JSON; error: 500; garbage: a 200 that is not JSON. */
export type PriceSimMode = 'ok' | 'error' | 'garbage';

export type PriceSimOptions = {
  port?: number;
  host?: string;
  prices?: Record<string, unknown>;
  /**
   * CoinGecko's demo keys this stand-in of api.coingecko.com knows. A request that sends another key,
   * or a pro key (which CoinGecko reads only on pro-api.coingecko.com), is refused with 401; a request
   * without a key is served within `keylessPerMinute`, as CoinGecko's shared public limit.
   */
  demoKeys?: readonly string[];
  /** Keyless CoinGecko requests served per minute before 429 (unset: no limit). */
  keylessPerMinute?: number;
};

const COINGECKO_PATH = '/api/v3/simple/price';
const COINBASE_PATH = /^\/v2\/prices\/BTC-([A-Za-z]{3})\/spot$/;

/**
 * A stand-in for CoinGecko's simple price and Coinbase's spot price on a real HTTP port, in their
 * documented JSON, with controls (in code or under /_sim/) for the price of each currency (any JSON
 * value, so a test can serve a negative or a string), failures and a request count.
 */
export class PriceSimulator {
  /** The price of 1 BTC by upper-case currency code; a value that is not a number is served as it is. */
  readonly prices = new Map<string, unknown>();
  mode: PriceSimMode = 'ok';
  /** Requests to the providers' paths (controls not counted). */
  requests = 0;
  /** The demo key header of the last CoinGecko request, for tests that check what was sent. */
  lastDemoKey: string | undefined;
  private readonly demoKeys: ReadonlySet<string>;
  private readonly keylessPerMinute: number;
  private keyless: { minute: number; count: number } = { minute: 0, count: 0 };
  private readonly server: Server;

  private constructor(options: PriceSimOptions) {
    for (const [code, price] of Object.entries(options.prices ?? { MXN: 1_700_000.5, USD: 95_000.25 })) {
      this.prices.set(code.toUpperCase(), price);
    }
    this.demoKeys = new Set(options.demoKeys ?? []);
    this.keylessPerMinute = options.keylessPerMinute ?? Number.POSITIVE_INFINITY;
    this.server = createServer((request, response) => {
      this.onRequest(request, response).catch(() => send(response, 500, { message: 'simulator failure' }));
    });
  }

  static async start(options: PriceSimOptions = {}): Promise<PriceSimulator> {
    const simulator = new PriceSimulator(options);
    await listenOn(simulator.server, options);
    return simulator;
  }

  get url(): string {
    return baseUrlOf(this.server);
  }

  setPrice(currency: string, price: unknown): void {
    this.prices.set(currency.toUpperCase(), price);
  }

  removePrice(currency: string): void {
    this.prices.delete(currency.toUpperCase());
  }

  async stop(): Promise<void> {
    await closeServer(this.server);
  }

  private async onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://sim');
    if (url.pathname.startsWith('/_sim/')) return this.control(request, response, url.pathname);
    if (request.method !== 'GET') return send(response, 405, { error: 'method not allowed' });
    const coinbasePair = COINBASE_PATH.exec(url.pathname);
    if (url.pathname !== COINGECKO_PATH && !coinbasePair) return send(response, 404, { error: 'not found' });
    this.requests += 1;
    if (this.mode === 'error') return send(response, 500, { error: 'simulated failure' });
    if (this.mode === 'garbage') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('<html>not json');
      return;
    }
    if (coinbasePair) return this.coinbase(response, String(coinbasePair[1]).toUpperCase());
    if (!this.admitCoinGecko(request, response)) return;
    return this.coinGecko(response, url.searchParams);
  }

  /** CoinGecko's key check, in its error body (`status.error_code`); false when it answered already. */
  private admitCoinGecko(request: IncomingMessage, response: ServerResponse): boolean {
    const demoKey = request.headers['x-cg-demo-api-key'];
    this.lastDemoKey = typeof demoKey === 'string' ? demoKey : undefined;
    if (request.headers['x-cg-pro-api-key'] !== undefined) {
      send(response, 401, {
        status: {
          error_code: 10011,
          error_message:
            'If you are using Pro API key, please change your root URL from api.coingecko.com to pro-api.coingecko.com',
        },
      });
      return false;
    }
    if (this.lastDemoKey !== undefined) {
      if (this.demoKeys.has(this.lastDemoKey)) return true;
      send(response, 401, { status: { error_code: 10002, error_message: 'Invalid API Key' } });
      return false;
    }
    const minute = Math.floor(Date.now() / 60_000);
    if (this.keyless.minute !== minute) this.keyless = { minute, count: 0 };
    this.keyless.count += 1;
    if (this.keyless.count <= this.keylessPerMinute) return true;
    send(response, 429, { status: { error_code: 429, error_message: "You've exceeded the Rate Limit." } });
    return false;
  }

  /** CoinGecko leaves out a currency it does not quote, and a coin it does not know. */
  private coinGecko(response: ServerResponse, query: URLSearchParams): void {
    const ids = (query.get('ids') ?? '').split(',');
    const codes = (query.get('vs_currencies') ?? '').split(',').filter(Boolean);
    if (codes.length === 0) {
      send(response, 400, { error: 'Missing parameter vs_currencies' });
      return;
    }
    const quotes: Record<string, unknown> = {};
    for (const code of codes) {
      if (this.prices.has(code.toUpperCase()))
        quotes[code.toLowerCase()] = this.prices.get(code.toUpperCase());
    }
    send(response, 200, ids.includes('bitcoin') ? { bitcoin: quotes } : {});
  }

  /** Coinbase writes the amount as a decimal string; an unknown pair is a 404 with its error list. */
  private coinbase(response: ServerResponse, currency: string): void {
    if (!this.prices.has(currency)) {
      send(response, 404, { errors: [{ id: 'not_found', message: 'Invalid currency' }] });
      return;
    }
    const price = this.prices.get(currency);
    const amount = typeof price === 'number' ? String(price) : price;
    send(response, 200, { data: { amount, base: 'BTC', currency } });
  }

  /**
   * POST /_sim/price/{CODE} with a JSON value (DELETE removes it), POST /_sim/mode with
   * `{"mode":"ok"|"error"|"garbage"}`, GET /_sim/requests → `{"requests":n}`.
   */
  private async control(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    const price = /^\/_sim\/price\/([A-Za-z]{3})$/.exec(path);
    if (price && request.method === 'POST') {
      this.setPrice(String(price[1]), JSON.parse(await readBody(request)));
      return send(response, 200, { ok: true });
    }
    if (price && request.method === 'DELETE') {
      this.removePrice(String(price[1]));
      return send(response, 200, { ok: true });
    }
    if (path === '/_sim/mode' && request.method === 'POST') {
      const { mode } = JSON.parse(await readBody(request)) as { mode: unknown };
      if (mode !== 'ok' && mode !== 'error' && mode !== 'garbage')
        return send(response, 400, { error: 'bad mode' });
      this.mode = mode;
      return send(response, 200, { ok: true });
    }
    if (path === '/_sim/requests' && request.method === 'GET')
      return send(response, 200, { requests: this.requests });
    send(response, 404, { error: 'not found' });
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}
