import type { Config } from '../config';
import {
  type CreateInvoiceInput,
  LightningLimitedAccessError,
  type LightningNode,
  LightningOutcomeUnknownError,
  LightningRequestError,
  LightningUnavailableError,
  type NodeIncomingPayment,
  type NodeOutgoingPayment,
  type OnChainOutcome,
  type PaymentListQuery,
} from '../core/lightning-node';
import * as parse from './phoenixd.parse';

export type PhoenixdClientOptions = {
  /** Base URL of phoenixd's HTTP API, without a trailing slash. */
  url: string;
  /** phoenixd's `http-password`; it is sent with an empty user name, as phoenixd expects. */
  password: string;
  /** How long a read or an invoice creation may take before the node counts as unavailable. */
  timeoutMs: number;
  /** Paying waits for the payment to settle (an offer alone may take 30 s to fetch its invoice). */
  paymentTimeoutMs: number;
};

type Form = Record<string, string | number | boolean | undefined>;
type Call = { method: 'GET' | 'POST'; path: string; query?: Form; form?: Form; timeoutMs?: number };

const TXID = /^[0-9a-f]{64}$/i;

/** phoenixd's text for a payment lookup that found nothing; any other 404 is a wrong address or version. */
export const UNKNOWN_PAYMENT_TEXT = 'Not found';

/** Connection failures that happen before a single byte of the request is written. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function isNeverDelivered(error: unknown): boolean {
  const cause = error instanceof Error ? error.cause : undefined;
  const fetchCause = cause instanceof Error ? (cause.cause ?? cause) : undefined;
  const code = (fetchCause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && NOT_CONNECTED.has(code);
}

/** sendtoaddress and bumpfee: a txid means the transaction was published; other text explains why not. */
function readOnChainOutcome(text: string): OnChainOutcome {
  const answer = text.trim();
  return TXID.test(answer) ? { isSent: true, txId: answer } : { isSent: false, reason: answer };
}

function toSearchParams(values: Form): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined) params.set(name, String(value));
  }
  return params;
}

/** phoenixd's HTTP API: form-encoded POST bodies, Basic auth, JSON or plain-text answers. */
export class PhoenixdClient implements LightningNode {
  private readonly authorization: string;

  constructor(private readonly options: PhoenixdClientOptions) {
    this.authorization = `Basic ${Buffer.from(`:${options.password}`).toString('base64')}`;
  }

  async getInfo() {
    return parse.parseNodeInfo(await this.json({ method: 'GET', path: '/getinfo' }));
  }

  async getBalance() {
    return parse.parseBalance(await this.json({ method: 'GET', path: '/getbalance' }));
  }

  async createInvoice(input: CreateInvoiceInput) {
    return parse.parseGeneratedInvoice(
      await this.json({ method: 'POST', path: '/createinvoice', form: input }),
    );
  }

  async payInvoice(input: { invoice: string; amountSat?: number | undefined }) {
    const call = { method: 'POST', path: '/payinvoice', form: input } as const;
    return this.pay(call, (text) => parse.parsePaymentOutcome(parse.parseJson(text)));
  }

  async payOffer(input: { offer: string; amountSat?: number | undefined; message?: string | undefined }) {
    const call = { method: 'POST', path: '/payoffer', form: input } as const;
    return this.pay(call, (text) => parse.parsePaymentOutcome(parse.parseJson(text)));
  }

  async sendToAddress(input: { address: string; amountSat: number; feerateSatByte: number }) {
    return this.pay({ method: 'POST', path: '/sendtoaddress', form: input }, readOnChainOutcome);
  }

  async bumpFee(feerateSatByte: number) {
    return this.pay({ method: 'POST', path: '/bumpfee', form: { feerateSatByte } }, readOnChainOutcome);
  }

  async listIncomingPayments(query: PaymentListQuery & { externalId?: string | undefined }) {
    const body = await this.json({ method: 'GET', path: '/payments/incoming', query });
    return parse.parseList(body, parse.parseIncomingPayment);
  }

  async getIncomingPayment(paymentHash: string): Promise<NodeIncomingPayment | null> {
    const path = `/payments/incoming/${encodeURIComponent(paymentHash)}`;
    const body = await this.jsonOrNull({ method: 'GET', path });
    return body === null ? null : parse.parseIncomingPayment(body);
  }

  async listOutgoingPayments(query: PaymentListQuery) {
    const body = await this.json({ method: 'GET', path: '/payments/outgoing', query });
    return parse.parseList(body, parse.parseOutgoingPayment);
  }

  async getOutgoingPayment(paymentId: string): Promise<NodeOutgoingPayment | null> {
    const body = await this.jsonOrNull({
      method: 'GET',
      path: `/payments/outgoing/${encodeURIComponent(paymentId)}`,
    });
    return body === null ? null : parse.parseOutgoingPayment(body);
  }

  async getOutgoingPaymentByHash(paymentHash: string): Promise<NodeOutgoingPayment | null> {
    const body = await this.jsonOrNull({
      method: 'GET',
      path: `/payments/outgoingbyhash/${encodeURIComponent(paymentHash)}`,
    });
    return body === null ? null : parse.parseOutgoingPayment(body);
  }

  /**
   * A call that moves money. Only a failure that proves phoenixd never got the request (the
   * connection was refused, the name does not resolve) or that it refused it (a 4xx) is definite;
   * past that point a missing, failed or unreadable answer leaves the outcome unknown.
   */
  private async pay<T>(call: Call, read: (text: string) => T): Promise<T> {
    const where = `${call.method} ${call.path}`;
    let answer: { status: number; text: string };
    try {
      answer = await this.send({ ...call, timeoutMs: this.options.paymentTimeoutMs });
    } catch (error) {
      if (isNeverDelivered(error)) throw error;
      throw new LightningOutcomeUnknownError(`phoenixd gave no answer (${where})`, { cause: error });
    }
    if (answer.status >= 500) {
      throw new LightningOutcomeUnknownError(`phoenixd answered ${answer.status} (${where})`);
    }
    if (answer.status === 401) {
      // Payments need the full password; getinfo and the lookups that worked took the limited one.
      throw new LightningLimitedAccessError(`phoenixd refused the password for ${where}`);
    }
    this.assertOk(answer.status, answer.text);
    try {
      return read(answer.text);
    } catch (error) {
      throw new LightningOutcomeUnknownError(`Unreadable answer from phoenixd (${where})`, { cause: error });
    }
  }

  private async json(call: Call): Promise<unknown> {
    const { status, text } = await this.send(call);
    this.assertOk(status, text);
    return parse.parseJson(text);
  }

  /**
   * Payment lookups: phoenixd answers 404 "Not found" for a payment it does not know. A 404 with
   * another text ("Unknown endpoint" from a wrong path prefix, a proxy, an older phoenixd) says
   * nothing about the payment, so it reads as an unavailable node, never as an unknown payment.
   */
  private async jsonOrNull(call: Call): Promise<unknown> {
    const { status, text } = await this.send(call);
    if (status === 404 && text.trim() === UNKNOWN_PAYMENT_TEXT) return null;
    this.assertOk(status, text);
    return parse.parseJson(text);
  }

  private assertOk(status: number, text: string): void {
    if (status >= 200 && status < 300) return;
    // 401 is our configuration (wrong password) and 404 an unknown route (another phoenixd version):
    // neither is the caller's fault, so both read as an unavailable node.
    if (status >= 400 && status < 500 && status !== 401 && status !== 404) {
      throw new LightningRequestError(status, text.trim() || `phoenixd answered ${status}`);
    }
    throw new LightningUnavailableError(`phoenixd answered ${status}: ${text.slice(0, 200)}`);
  }

  private async send(call: Call): Promise<{ status: number; text: string }> {
    const url = new URL(`${this.options.url}${call.path}`);
    if (call.query) url.search = toSearchParams(call.query).toString();
    const headers: Record<string, string> = { authorization: this.authorization };
    if (call.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    try {
      const response = await fetch(url, {
        method: call.method,
        headers,
        ...(call.form && { body: toSearchParams(call.form).toString() }),
        signal: AbortSignal.timeout(call.timeoutMs ?? this.options.timeoutMs),
      });
      return { status: response.status, text: await response.text() };
    } catch (error) {
      const reason = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'unreachable';
      throw new LightningUnavailableError(`phoenixd ${reason} (${call.method} ${call.path})`, {
        cause: error,
      });
    }
  }
}

/** The configured node, or undefined when no phoenixd password is set (the wallet then answers 503). */
export function lightningNodeFromConfig(phoenixd: Config['phoenixd']): LightningNode | undefined {
  if (phoenixd.password === undefined) return undefined;
  return new PhoenixdClient({
    url: phoenixd.url,
    password: phoenixd.password,
    timeoutMs: phoenixd.timeoutMs,
    paymentTimeoutMs: phoenixd.paymentTimeoutMs,
  });
}
