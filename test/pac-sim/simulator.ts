import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { baseUrlOf, closeServer, listenOn } from '../helpers/loopback-server';
import { trackedSleep } from '../helpers/sim-process';
import { resolveCancellation } from './cancellation';
import { handleControl } from './control';
import { PacError } from './errors';
import { faultApplies, mergeFaults, NO_FAULTS, type PacFaults } from './faults';
import { apiKeyOf, parseJson, readBody, sendError, sendFile, sendJson } from './http';
import { settleRecoveries } from './invoices';
import type { Receiver, SimInvoice, SimReceipt } from './model';
import { ROUTES } from './routes';
import { PacState, type ReceiptSettings } from './state';

export type { PacFaults } from './faults';
export type { SimInvoice, SimReceipt } from './model';

export type PacSimulatorOptions = {
  /** The secret key the API accepts (`Authorization: Bearer <key>`). */
  key?: string;
  /** The organization's self-invoice domain (`https://factura.space/<domain>/<key>`); null: none. */
  selfInvoiceDomain?: string | null;
  now?: () => Date;
};

export type RecordedRequest = { method: string; path: string; body: unknown };

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A stand-in for Facturapi's REST API v2 (test mode) on a real HTTP port: e-receipts, invoicing a
 * receipt, global invoices, credit notes, cancellation and the CFDI files, with the receiver checks
 * the SAT makes, plus faults and controls for tests (see control.ts for their HTTP form).
 */
export class PacSimulator {
  readonly key: string;
  private readonly state: PacState;
  private readonly server: Server;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly recorded: RecordedRequest[] = [];
  private faults: PacFaults = NO_FAULTS;
  private fixedNow: Date | null = null;

  constructor(options: PacSimulatorOptions = {}) {
    this.key = options.key ?? 'sk_test_pac_sim';
    const clock = options.now ?? (() => new Date());
    this.state = new PacState(
      options.selfInvoiceDomain === undefined ? 'demo' : options.selfInvoiceDomain,
      () => this.fixedNow ?? clock(),
    );
    this.server = createServer((request, response) => void this.onRequest(request, response));
  }

  /** Listens on 127.0.0.1 (a free port unless given); answers the API's base URL, ending in /v2. */
  async start(port?: number): Promise<string> {
    await listenOn(this.server, port === undefined ? {} : { port });
    return this.url;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    await closeServer(this.server);
  }

  /** The API's base URL (…/v2); the controls live beside it, under /sim. */
  get url(): string {
    return `${this.origin}/v2`;
  }

  get origin(): string {
    return baseUrlOf(this.server);
  }

  setFaults(faults: Partial<PacFaults>): void {
    this.faults = mergeFaults(this.faults, faults);
  }

  /** Back to a fresh organization: no documents, receivers, faults or fixed clock; requests forgotten. */
  reset(): void {
    this.state.reset();
    this.faults = NO_FAULTS;
    this.fixedNow = null;
    this.recorded.length = 0;
  }

  /** Fixes the simulator's clock (receipt dates, stamping, the 72-hour and cancellation rules); null frees it. */
  setNow(now: Date | null): void {
    this.fixedNow = now;
  }

  setSelfInvoiceDomain(domain: string | null): void {
    this.state.selfInvoiceDomain = domain;
  }

  setReceiptSettings(settings: Partial<ReceiptSettings>): void {
    this.state.receiptSettings = { ...this.state.receiptSettings, ...settings };
  }

  /** The SAT's record of an RFC: the name, fiscal zip and regimes an invoice to it must carry. */
  addReceiver(receiver: Receiver): void {
    const rfc = receiver.rfc.toUpperCase();
    this.state.registry.receivers.set(rfc, { ...receiver, rfc });
  }

  /** An RFC absent from the SAT's list of registered taxpayers: invoices to it are refused. */
  addUnregistered(rfc: string): void {
    this.state.registry.unregistered.add(rfc.toUpperCase());
  }

  /** The receiver accepts or rejects a pending cancellation. */
  resolveCancellation(invoiceId: string, accept: boolean): void {
    resolveCancellation(this.state, invoiceId, accept);
  }

  /**
   * Opens a receipt again, as its invoice never was: what Facturapi does to a receipt whose invoice is
   * canceled is not documented, and a client must not trust a receipt's state over its own record.
   */
  reopenReceipt(receiptId: string): void {
    const receipt = this.state.receipts.get(receiptId);
    if (receipt === undefined) throw new Error(`No receipt ${receiptId}`);
    receipt.status = 'open';
    receipt.invoice = null;
  }

  /**
   * The next `count` invoices of POST /invoices meet an intermittent stamping error: 202 `pending`
   * with no UUID, then `valid` ten minutes later or `failed` after fifty (the simulator's clock).
   */
  setStampingOutage(count: number, outcome: 'valid' | 'failed'): void {
    this.state.stampingOutage = { count, outcome };
  }

  receipts(): SimReceipt[] {
    return structuredClone([...this.state.receipts.values()]);
  }

  invoices(): SimInvoice[] {
    return structuredClone([...this.state.invoices.values()].map((record) => record.invoice));
  }

  /** Every API request received (not the /sim controls), in arrival order, answered or not. */
  requests(): RecordedRequest[] {
    return structuredClone(this.recorded);
  }

  snapshot() {
    return {
      counts: {
        receipts: this.state.receipts.size,
        invoices: this.state.invoices.size,
        requests: this.recorded.length,
      },
      now: this.state.now().toISOString(),
      faults: this.faults,
      selfInvoiceDomain: this.state.selfInvoiceDomain,
      receiptSettings: this.state.receiptSettings,
      receipts: this.receipts(),
      invoices: this.invoices(),
      requests: this.requests(),
    };
  }

  private async onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://sim');
    const path = url.pathname.replace(/\/$/, '') || '/';
    try {
      const text = await readBody(request);
      if (path.startsWith('/sim/')) {
        this.authorize(request);
        return sendJson(response, 200, handleControl(this, request.method ?? 'GET', path, parseJson(text)));
      }
      await this.answerApi(request, response, url, path, text);
    } catch (error) {
      sendError(response, asPacError(error));
    }
  }

  private async answerApi(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    path: string,
    text: string,
  ): Promise<void> {
    const method = request.method ?? 'GET';
    // A body that is not JSON is recorded as text and refused only once the key has been checked.
    let body: unknown = text;
    let bodyError: PacError | undefined;
    try {
      body = parseJson(text);
    } catch (error) {
      bodyError = asPacError(error);
    }
    this.recorded.push({ method, path: `${path}${url.search}`, body });
    const routeKey = `${method} ${path}`;
    if (faultApplies(this.faults, 'delayMs', routeKey)) await this.sleep(this.faults.delayMs);
    if (this.consume('rateLimit', routeKey))
      throw new PacError(429, 'rate_limit_exceeded', 'Se excedió el límite de solicitudes.', [], {
        'retry-after': '1',
      });
    if (this.consume('fail5xx', routeKey))
      throw new PacError(500, 'internal_error', 'Ocurrió un error inesperado. Intenta de nuevo más tarde.');
    if (!path.startsWith('/v2/') && path !== '/v2') throw routeNotFound(method, path);
    this.authorize(request);
    settleRecoveries(this.state);
    const route = ROUTES.find((candidate) => candidate.method === method && candidate.pattern.test(path));
    if (route === undefined) throw routeNotFound(method, path);
    if (bodyError !== undefined) throw bodyError;
    const losesAnswer = MUTATING.has(method) && this.consume('loseAnswer', routeKey);
    let answer: ReturnType<typeof route.handle> | PacError;
    try {
      answer = route.handle(this.state, {
        params: route.pattern.exec(path)?.slice(1) ?? [],
        query: url.searchParams,
        body,
      });
    } catch (error) {
      answer = asPacError(error);
    }
    // The work is done; the client never learns it (a timeout, a cut connection, a crashed proxy).
    if (losesAnswer) {
      request.socket.destroy();
      return;
    }
    if (answer instanceof PacError) return sendError(response, answer);
    if ('json' in answer) return sendJson(response, answer.status ?? 200, answer.json);
    sendFile(response, answer.contentType, answer.file, answer.fileName);
  }

  private authorize(request: IncomingMessage): void {
    const key = apiKeyOf(request.headers.authorization);
    if (key === undefined || key === '')
      throw new PacError(
        401,
        'missing_credentials',
        'No se encontró una llave de API en la solicitud. Usa el encabezado Authorization: Bearer <llave>.',
      );
    if (key !== this.key) throw new PacError(401, 'api_key_invalid', 'La llave de API no es válida.');
  }

  private consume(name: 'fail5xx' | 'rateLimit' | 'loseAnswer', routeKey: string): boolean {
    if (!faultApplies(this.faults, name, routeKey)) return false;
    this.faults = { ...this.faults, [name]: this.faults[name] - 1 };
    return true;
  }

  private sleep(ms: number): Promise<void> {
    return trackedSleep(this.timers, ms);
  }
}

function routeNotFound(method: string, path: string): PacError {
  return new PacError(404, 'not_found', `No se encontró la ruta ${method} ${path}.`);
}

function asPacError(error: unknown): PacError {
  if (error instanceof PacError) return error;
  return new PacError(500, 'internal_error', error instanceof Error ? error.message : String(error));
}
