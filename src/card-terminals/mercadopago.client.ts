import { createHmac, timingSafeEqual } from 'node:crypto';
import type {
  CardPaymentDetails,
  CardTerminal,
  NewTerminalCharge,
  TerminalCancel,
  TerminalDevice,
  TerminalOrder,
  TerminalOrderStatus,
  TerminalRefund,
} from '../core/card-terminal';
import { PlatformError } from '../core/delivery-platform';
import { type PlatformAnswer, type PlatformCall, PlatformHttp } from '../core/platform-http';
import { type Json, list, number, object, text } from '../core/platform-json';

export type MercadoPagoOptions = {
  accessToken: string;
  /** The application's notification secret; without it every notification is refused and charges are read back. */
  webhookSecret: string | undefined;
  apiUrl: string;
  timeoutMs: number;
};

const STATUSES: ReadonlySet<string> = new Set<TerminalOrderStatus>([
  'created',
  'at_terminal',
  'action_required',
  'processed',
  'failed',
  'canceled',
  'expired',
  'refunded',
]);
/** The terminals list's largest page. */
const TERMINALS_PAGE = 50;
/** `x-signature: ts=<seconds>,v1=<hex>`. */
const SIGNATURE = /^ts=(\d+),v1=([0-9a-f]{64})$/;

/**
 * Mercado Pago's Orders API for Point terminals (test/mp-sim/README.md names the pages it follows):
 * one order per charge, made and refunded under `X-Idempotency-Key`, read back by id.
 */
export class MercadoPagoClient implements CardTerminal {
  private readonly http: PlatformHttp;

  constructor(private readonly options: MercadoPagoOptions) {
    this.http = new PlatformHttp('Mercado Pago', options.apiUrl, options.timeoutMs);
  }

  async listTerminals(): Promise<TerminalDevice[]> {
    const terminals: TerminalDevice[] = [];
    for (let offset = 0; ; offset += TERMINALS_PAGE) {
      const body = object(
        await this.ok({ method: 'GET', path: `/terminals/v1/list?limit=${TERMINALS_PAGE}&offset=${offset}` }),
      );
      const page = list(object(body.data).terminals);
      for (const terminal of page) {
        terminals.push({
          id: text(terminal.id),
          storeId: text(terminal.store_id) || null,
          posId: text(terminal.pos_id) || null,
          operatingMode: text(terminal.operating_mode),
        });
      }
      if (page.length < TERMINALS_PAGE) return terminals;
    }
  }

  async createCharge(charge: NewTerminalCharge): Promise<TerminalOrder> {
    const body = await this.ok({
      method: 'POST',
      path: '/v1/orders',
      headers: { 'x-idempotency-key': charge.idempotencyKey },
      json: {
        type: 'point',
        external_reference: charge.externalReference,
        expiration_time: `PT${charge.expiresInSeconds}S`,
        description: charge.description,
        transactions: { payments: [{ amount: pesos(charge.amountCents) }] },
        config: { point: { terminal_id: charge.terminalId, print_on_terminal: 'no_ticket' } },
      },
    });
    return readOrder(body);
  }

  async getOrder(orderId: string): Promise<TerminalOrder> {
    return readOrder(await this.ok({ method: 'GET', path: `/v1/orders/${encodeURIComponent(orderId)}` }));
  }

  async cancel(orderId: string, options: { idempotencyKey: string }): Promise<TerminalCancel> {
    const answer = await this.http.send(
      this.authorized({
        method: 'POST',
        path: `/v1/orders/${encodeURIComponent(orderId)}/cancel`,
        headers: {
          'x-idempotency-key': options.idempotencyKey,
          // What the terminal shows may have changed since we last read it; the header only widens.
          'x-allow-cancelable-status': 'at_terminal',
        },
      }),
    );
    this.http.expectOk(answer, 'the cancel');
    return answer.status === 202 ? 'requested' : 'canceled';
  }

  async refund(
    order: { id: string; transactionId: string },
    options: { idempotencyKey: string; amountCents: number | undefined },
  ): Promise<TerminalRefund> {
    const body = object(
      await this.ok({
        method: 'POST',
        path: `/v1/orders/${encodeURIComponent(order.id)}/refund`,
        headers: { 'x-idempotency-key': options.idempotencyKey },
        ...(options.amountCents !== undefined && {
          json: { transactions: [{ id: order.transactionId, amount: pesos(options.amountCents) }] },
        }),
      }),
    );
    const [refund] = list(object(body.transactions).refunds).map(readRefund);
    if (!refund) throw new PlatformError('Mercado Pago answered a refund without its refund', null, true);
    return refund;
  }

  async getPaymentDetails(paymentReference: string): Promise<CardPaymentDetails> {
    const body = object(
      await this.ok({ method: 'GET', path: `/v1/payments/${encodeURIComponent(paymentReference)}` }),
    );
    const fees = list(body.fee_details);
    return {
      brand: text(body.payment_method_id) || null,
      cardType: cardTypeOf(text(body.payment_type_id)),
      lastFour: text(object(body.card).last_four_digits) || null,
      authorizationCode: text(body.authorization_code) || null,
      feeCents:
        fees.length === 0
          ? null
          : fees.reduce((sum, fee) => sum + Math.round((number(fee.amount) ?? 0) * 100), 0),
    };
  }

  verifyNotification(notification: {
    dataId: string;
    requestId: string | undefined;
    signature: string | undefined;
  }): boolean {
    const secret = this.options.webhookSecret;
    const match = SIGNATURE.exec(notification.signature?.replace(/\s+/g, '') ?? '');
    if (secret === undefined || match === null || notification.requestId === undefined) return false;
    const [, ts, v1 = ''] = match;
    const manifest = `id:${notification.dataId.toLowerCase()};request-id:${notification.requestId};ts:${ts};`;
    const expected = createHmac('sha256', secret).update(manifest).digest();
    return timingSafeEqual(Buffer.from(v1, 'hex'), expected);
  }

  private async ok(call: PlatformCall): Promise<unknown> {
    const answer: PlatformAnswer = await this.http.send(this.authorized(call));
    return this.http.expectOk(answer, `${call.method} ${call.path.split('?')[0]}`);
  }

  private authorized(call: PlatformCall): PlatformCall {
    return { ...call, headers: { ...call.headers, authorization: `Bearer ${this.options.accessToken}` } };
  }
}

function pesos(cents: number): string {
  return (cents / 100).toFixed(2);
}

function centsOf(value: unknown): number {
  const amount = Number(text(value));
  return Number.isFinite(amount) ? Math.round(amount * 100) : 0;
}

function cardTypeOf(type: string): 'credit' | 'debit' | null {
  if (type === 'credit_card') return 'credit';
  if (type === 'debit_card') return 'debit';
  return null;
}

function readRefund(refund: Json): TerminalRefund {
  const status = text(refund.status);
  return {
    id: text(refund.id),
    amountCents: centsOf(refund.amount),
    status: status === 'processed' || status === 'failed' ? status : 'processing',
  };
}

/**
 * The most telling reason: the order's detail often only repeats its status (`failed`, `canceled`)
 * where its payment's says why (`insufficient_amount`, `canceled_by_terminal`).
 */
function detailOf(status: string, orderDetail: string, paymentDetail: string): string {
  if (orderDetail !== '' && orderDetail !== status) return orderDetail;
  return paymentDetail || orderDetail;
}

function readOrder(value: unknown): TerminalOrder {
  const order = object(value);
  const transactions = object(order.transactions);
  const [payment = {}] = list(transactions.payments);
  const method = object(payment.payment_method);
  const status = text(order.status);
  return {
    id: text(order.id),
    externalReference: text(order.external_reference),
    terminalId: text(object(object(order.config).point).terminal_id),
    status: STATUSES.has(status) ? (status as TerminalOrderStatus) : 'unknown',
    statusDetail: detailOf(status, text(order.status_detail), text(payment.status_detail)),
    amountCents: centsOf(order.total_amount),
    transactionId: text(payment.id) || null,
    paymentReference: text(payment.reference_id) || null,
    brand: text(method.id) || null,
    cardType: cardTypeOf(text(method.type)),
    refunds: list(transactions.refunds).map(readRefund),
  };
}
