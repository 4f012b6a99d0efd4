import { createHash, randomBytes, randomInt } from 'node:crypto';
import { badRequest, conflict, isObject, MpError, notFound } from './errors';

export type OperatingMode = 'PDV' | 'STANDALONE';
export type Terminal = {
  id: string;
  pos_id: number;
  store_id: string;
  external_pos_id: string;
  operating_mode: OperatingMode;
};

/** The order's states on "Status of an order and a transaction" (Point). */
export type OrderStatus =
  | 'created'
  | 'at_terminal'
  | 'processed'
  | 'failed'
  | 'canceled'
  | 'expired'
  | 'action_required'
  | 'refunded';

/** States from which nothing happens any more except a refund of a processed order. */
const FINAL: readonly OrderStatus[] = ['processed', 'failed', 'canceled', 'expired', 'refunded'];
/** States that keep the terminal busy: one order at a time per terminal. */
const OPEN: readonly OrderStatus[] = ['created', 'at_terminal', 'action_required'];

export type Card = {
  brand: string;
  type: 'credit' | 'debit';
  lastFour: string;
  firstSix: string;
  installments: number;
};

export type Refund = {
  id: string;
  transactionId: string;
  referenceId: string;
  /** Centavos. */
  amount: number;
  status: 'processing' | 'processed' | 'failed';
  createdAt: number;
};

export type PointOrder = {
  id: string;
  userId: string;
  externalReference: string;
  description: string | undefined;
  /** ISO 8601 duration as sent (default PT15M). */
  expirationTime: string;
  expiresAt: number;
  terminalId: string;
  printOnTerminal: string | undefined;
  ticketNumber: string | undefined;
  paymentId: string;
  /** Centavos. */
  amount: number;
  status: OrderStatus;
  statusDetail: string;
  paymentStatus: string;
  paymentStatusDetail: string;
  card: Card | undefined;
  /** The Payments API's id of the charge, once processed. */
  referenceId: number | undefined;
  refunds: Refund[];
  createdAt: number;
  updatedAt: number;
  /** Set when a cancel at the terminal was accepted (202) and is under way. */
  cancelRequestedAt: number | undefined;
  version: number;
  history: { status: OrderStatus; detail: string; at: number }[];
};

export type Payment = {
  id: number;
  orderId: string;
  externalReference: string;
  amount: number;
  card: Card;
  authorizationCode: string;
  /** Centavos, Mercado Pago's fee including its tax (one `mercadopago_fee` line). */
  fee: number;
  createdAt: number;
  refunded: number;
};

export type OrderEvent = { action: string; order: PointOrder };

export type PointOptions = {
  userId: string;
  terminals: Terminal[];
  /** Centavos; a smaller amount is refused with 400 (a setting: the pages read name no minimum). */
  minAmount: number;
  /** Mercado Pago's fee on a card charge, percent (a setting). */
  feePercent: number;
};

const AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;
const EXTERNAL_REFERENCE = /^[A-Za-z0-9_-]{1,64}$/;
const DURATION = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?$/;
const DEFAULT_EXPIRATION = 'PT15M';

/** The order's and its payment's ids look like Mercado Pago's: a prefix and 26 upper-case base-32 characters. */
function newId(prefix: string): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const bytes = randomBytes(26);
  let id = prefix;
  for (const byte of bytes) id += alphabet[byte % 32];
  return id;
}

export function toCentavos(value: string): number {
  const [whole = '0', fraction = ''] = value.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

export function money(centavos: number): string {
  return (centavos / 100).toFixed(2);
}

function durationMs(value: string): number | undefined {
  const match = DURATION.exec(value);
  if (!match || value === 'PT') return undefined;
  const [, hours = '0', minutes = '0', seconds = '0'] = match;
  return ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000;
}

type Remembered = { fingerprint: string; orderId: string; status: number; answer: () => unknown };

/**
 * Mercado Pago's side of Point: the account's terminals and their operating mode, the orders sent to
 * them, the payments the Payments API shows once a card was charged, refunds, and the idempotency keys
 * that make every create, cancel and refund safe to repeat. Every change of an order's state is handed
 * to `notify`.
 */
export class PointAccount {
  terminals: Terminal[];
  readonly orders = new Map<string, PointOrder>();
  readonly payments = new Map<number, Payment>();
  private readonly keys = new Map<string, Remembered>();
  private nextPaymentId = 1_300_000_001;

  constructor(
    readonly options: PointOptions,
    private readonly now: () => number,
    private readonly notify: (event: OrderEvent) => void,
  ) {
    this.terminals = structuredClone(options.terminals);
  }

  reset(): void {
    this.terminals = structuredClone(this.options.terminals);
    this.orders.clear();
    this.payments.clear();
    this.keys.clear();
  }

  // ---- Terminals ----

  listTerminals(query: URLSearchParams) {
    const limit = wholeQuery(query, 'limit', 50, 1, 50);
    const offset = wholeQuery(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    const storeId = query.get('store_id');
    const posId = query.get('pos_id');
    const matching = this.terminals.filter(
      (terminal) =>
        (storeId === null || terminal.store_id === storeId) &&
        (posId === null || String(terminal.pos_id) === posId),
    );
    return {
      data: { terminals: matching.slice(offset, offset + limit) },
      paging: { total: matching.length, offset, limit },
    };
  }

  setOperatingModes(body: Record<string, unknown> | undefined) {
    const terminals = body?.terminals;
    if (!Array.isArray(terminals) || terminals.length === 0)
      throw badRequest('invalid_payload', 'terminals must list at least one terminal.');
    const changes = terminals.map((entry) => {
      if (!isObject(entry) || typeof entry.id !== 'string')
        throw badRequest('invalid_payload', 'Each terminal needs its id.');
      if (entry.operating_mode !== 'PDV' && entry.operating_mode !== 'STANDALONE')
        throw badRequest('invalid_payload', 'operating_mode must be PDV or STANDALONE.');
      const terminal = this.terminals.find((candidate) => candidate.id === entry.id);
      if (!terminal) throw notFound('terminal_not_found', `Terminal ${entry.id} not found.`);
      return { terminal, mode: entry.operating_mode as OperatingMode };
    });
    for (const { terminal, mode } of changes) terminal.operating_mode = mode;
    return {
      terminals: changes.map(({ terminal }) => ({
        id: terminal.id,
        operating_mode: terminal.operating_mode,
      })),
    };
  }

  terminal(id: string): Terminal {
    const terminal = this.terminals.find((candidate) => candidate.id === id);
    if (!terminal) throw notFound('terminal_not_found', `Terminal ${id} not found.`);
    return terminal;
  }

  /** The order the terminal is busy with, if any. */
  openOrderOn(terminalId: string): PointOrder | undefined {
    this.sweep();
    return [...this.orders.values()].find(
      (order) => order.terminalId === terminalId && OPEN.includes(order.status),
    );
  }

  // ---- Orders ----

  /** `POST /v1/orders`: 201 with the order; the same key and body again answers the same order. */
  createOrder(key: string | undefined, text: string, body: Record<string, unknown> | undefined) {
    const idempotencyKey = requireKey(key);
    const remembered = this.replay(`create:${idempotencyKey}`, text);
    if (remembered) return remembered;
    const input = this.readNewOrder(body);
    const busy = this.openOrderOn(input.terminalId);
    if (busy)
      throw conflict(
        'already_queued_order_on_terminal',
        `Terminal ${input.terminalId} already has order ${busy.id} queued; cancel it or wait for it to finish.`,
      );
    const at = this.now();
    const order: PointOrder = {
      id: newId('ORD'),
      userId: this.options.userId,
      externalReference: input.externalReference,
      description: input.description,
      expirationTime: input.expirationTime,
      expiresAt: at + (durationMs(input.expirationTime) ?? 0),
      terminalId: input.terminalId,
      printOnTerminal: input.printOnTerminal,
      ticketNumber: input.ticketNumber,
      paymentId: newId('PAY'),
      amount: input.amount,
      status: 'created',
      statusDetail: 'created',
      paymentStatus: 'created',
      paymentStatusDetail: 'ready_to_process',
      card: undefined,
      referenceId: undefined,
      refunds: [],
      createdAt: at,
      updatedAt: at,
      cancelRequestedAt: undefined,
      version: 1,
      history: [{ status: 'created', detail: 'created', at }],
    };
    this.orders.set(order.id, order);
    this.remember(`create:${idempotencyKey}`, text, order.id, 201, () => this.orderJson(order));
    return { status: 201, json: this.orderJson(order) };
  }

  getOrder(id: string) {
    return { status: 200, json: this.orderJson(this.order(id)) };
  }

  /**
   * `POST /v1/orders/{id}/cancel`: an order still `created` is canceled at once (200). One at the
   * terminal is canceled only when asked with `x-allow-cancelable-status: at_terminal` (202; it stays
   * at the terminal until the terminal confirms, and the notification says so); otherwise 409.
   */
  cancelOrder(id: string, key: string | undefined, text: string, allow: string | undefined) {
    const idempotencyKey = requireKey(key);
    const remembered = this.replay(`cancel:${id}:${idempotencyKey}`, text);
    if (remembered) return remembered;
    const order = this.order(id);
    let status = 200;
    if (order.status === 'created') {
      this.transition(order, 'canceled', 'canceled', 'canceled', 'canceled_by_api', 'order.canceled');
    } else if (order.status === 'at_terminal' && allowsAtTerminal(allow)) {
      order.cancelRequestedAt = this.now();
      status = 202;
    } else if (order.status === 'at_terminal') {
      throw conflict(
        'cannot_cancel_order',
        'The order is at the terminal: cancel it on the terminal, or send x-allow-cancelable-status: at_terminal.',
      );
    } else {
      throw conflict('cannot_cancel_order', `An order in status ${order.status} cannot be canceled.`);
    }
    this.remember(`cancel:${id}:${idempotencyKey}`, text, order.id, status, () => this.orderJson(order));
    return { status, json: this.orderJson(order) };
  }

  /**
   * `POST /v1/orders/{id}/refund`: no body refunds the whole payment; `{transactions: [{id, amount}]}`
   * refunds part of it. Each refund is `processing` until it settles (`settleRefund`).
   */
  refundOrder(id: string, key: string | undefined, text: string, body: Record<string, unknown> | undefined) {
    const idempotencyKey = requireKey(key);
    const remembered = this.replay(`refund:${id}:${idempotencyKey}`, text);
    if (remembered) return remembered;
    const order = this.order(id);
    if (order.status !== 'processed')
      throw conflict('cannot_refund_order', `An order in status ${order.status} cannot be refunded.`);
    if (order.refunds.some((refund) => refund.status === 'processing'))
      throw conflict('refund_in_progress', 'A refund is already being processed for this order.');
    const available = order.amount - refundedOf(order);
    let amount = available;
    if (body !== undefined) {
      const transactions = body.transactions;
      if (!Array.isArray(transactions) || transactions.length !== 1 || !isObject(transactions[0]))
        throw badRequest('property_value', 'transactions must hold the one payment transaction to refund.');
      const [transaction] = transactions as Record<string, unknown>[];
      if (transaction?.id !== order.paymentId)
        throw notFound('transaction_not_found', 'Transaction not found in the order.');
      if (transaction.amount !== undefined) {
        if (typeof transaction.amount !== 'string' || !AMOUNT.test(transaction.amount))
          throw badRequest('property_type', 'transactions[0].amount must be a string such as "25.00".');
        amount = toCentavos(transaction.amount);
        if (amount <= 0) throw badRequest('property_value', 'The amount to refund must be above zero.');
        if (amount > available)
          throw badRequest('refund_amount_exceeds', 'The refund amount exceeds the available balance.');
      }
    }
    const refund: Refund = {
      id: newId('REF'),
      transactionId: order.paymentId,
      referenceId: String(this.nextPaymentId++),
      amount,
      status: 'processing',
      createdAt: this.now(),
    };
    order.refunds.push(refund);
    order.updatedAt = this.now();
    order.version += 1;
    this.remember(`refund:${id}:${idempotencyKey}`, text, order.id, 201, () =>
      this.refundJson(order, refund),
    );
    return { status: 201, json: this.refundJson(order, refund) };
  }

  settleRefund(orderId: string, refundId: string, outcome: 'processed' | 'failed'): PointOrder {
    const order = this.order(orderId);
    const refund = order.refunds.find((candidate) => candidate.id === refundId);
    if (!refund) throw notFound('refund_not_found', `Refund ${refundId} not found.`);
    if (refund.status !== 'processing') return order;
    refund.status = outcome;
    if (outcome === 'processed') {
      const payment = order.referenceId === undefined ? undefined : this.payments.get(order.referenceId);
      if (payment) payment.refunded += refund.amount;
      if (refundedOf(order) >= order.amount) {
        this.transition(order, 'refunded', 'refunded', 'refunded', 'refunded', 'order.refunded');
        return order;
      }
      order.statusDetail = 'partially_refunded';
      order.paymentStatusDetail = 'partially_refunded';
    }
    this.touch(order, order.status, order.statusDetail);
    this.notify({ action: 'order.refunded', order });
    return order;
  }

  // ---- What happens at the terminal (the simulator's controls) ----

  /** The terminal picked the order up (`created` → `at_terminal`). */
  showOnTerminal(order: PointOrder): void {
    if (order.status !== 'created') return;
    this.transition(order, 'at_terminal', 'at_terminal', 'at_terminal', 'at_terminal', 'order.at_terminal');
  }

  /** A card was tapped or inserted and approved: `processed`, and a payment in the Payments API. */
  approve(order: PointOrder, card: Card): Payment {
    this.requireOnTerminal(order, ['created', 'at_terminal', 'action_required']);
    if (order.status === 'created') this.showOnTerminal(order);
    const payment: Payment = {
      id: this.nextPaymentId++,
      orderId: order.id,
      externalReference: order.externalReference,
      amount: order.amount,
      card,
      authorizationCode: String(randomInt(100_000, 1_000_000)),
      fee: Math.round((order.amount * this.options.feePercent) / 100),
      createdAt: this.now(),
      refunded: 0,
    };
    this.payments.set(payment.id, payment);
    order.card = card;
    order.referenceId = payment.id;
    this.transition(order, 'processed', 'processed', 'processed', 'accredited', 'order.processed');
    return payment;
  }

  /** The card was declined (or the payment component failed): `failed` with the reason. */
  decline(order: PointOrder, reason: string): void {
    this.requireOnTerminal(order, ['created', 'at_terminal', 'action_required']);
    if (order.status === 'created') this.showOnTerminal(order);
    this.transition(order, 'failed', 'failed', 'failed', reason, 'order.failed');
  }

  /** The terminal is still working 40 s after the card: `action_required` (check on the terminal). */
  requireAction(order: PointOrder): void {
    this.requireOnTerminal(order, ['created', 'at_terminal']);
    if (order.status === 'created') this.showOnTerminal(order);
    this.transition(
      order,
      'action_required',
      'check_on_terminal',
      'action_required',
      'check_on_terminal',
      'order.action_required',
    );
  }

  /** The cashier canceled on the terminal itself (or the at-terminal cancel asked through the API landed). */
  cancelOnTerminal(order: PointOrder): void {
    this.requireOnTerminal(order, ['at_terminal', 'created']);
    this.transition(order, 'canceled', 'canceled', 'canceled', 'canceled_by_terminal', 'order.canceled');
  }

  expire(order: PointOrder): void {
    this.requireOnTerminal(order, ['created', 'at_terminal']);
    this.transition(order, 'expired', 'expired', 'expired', 'expired', 'order.expired');
  }

  /** Orders past their expiration time expire, and at-terminal cancels asked through the API land. */
  sweep(cancelAfterMs = 0): void {
    const at = this.now();
    for (const order of this.orders.values()) {
      if (order.status === 'at_terminal' && order.cancelRequestedAt !== undefined) {
        if (at - order.cancelRequestedAt >= cancelAfterMs) this.cancelOnTerminal(order);
        continue;
      }
      if ((order.status === 'created' || order.status === 'at_terminal') && at >= order.expiresAt)
        this.expire(order);
    }
  }

  order(id: string): PointOrder {
    const order = this.orders.get(id);
    if (!order) throw notFound('order_not_found', `Order ${id} not found.`);
    return order;
  }

  // ---- Payments API ----

  getPayment(id: string) {
    const payment = /^\d+$/.test(id) ? this.payments.get(Number(id)) : undefined;
    if (!payment) throw notFound('not_found', `Payment ${id} not found.`);
    return { status: 200, json: this.paymentJson(payment) };
  }

  // ---- JSON ----

  orderJson(order: PointOrder) {
    const at = (ms: number) => new Date(ms).toISOString();
    return {
      id: order.id,
      type: 'point',
      processing_mode: 'automatic',
      external_reference: order.externalReference,
      ...(order.description !== undefined && { description: order.description }),
      expiration_time: order.expirationTime,
      country_code: 'MEX',
      user_id: order.userId,
      status: order.status,
      status_detail: order.statusDetail,
      currency: 'MXN',
      total_amount: money(order.amount),
      ...(order.status === 'processed' || order.status === 'refunded'
        ? { total_paid_amount: money(order.amount) }
        : {}),
      created_date: at(order.createdAt),
      last_updated_date: at(order.updatedAt),
      transactions: {
        payments: [
          {
            id: order.paymentId,
            amount: money(order.amount),
            status: order.paymentStatus,
            status_detail: order.paymentStatusDetail,
            ...(order.referenceId !== undefined && { reference_id: String(order.referenceId) }),
            ...(order.card && {
              paid_amount: money(order.amount),
              payment_method: {
                id: order.card.brand,
                type: order.card.type === 'debit' ? 'debit_card' : 'credit_card',
                installments: order.card.installments,
              },
            }),
          },
        ],
        ...(order.refunds.length > 0 && {
          refunds: order.refunds.map((refund) => ({
            id: refund.id,
            transaction_id: refund.transactionId,
            reference_id: refund.referenceId,
            amount: money(refund.amount),
            status: refund.status,
          })),
        }),
      },
      config: {
        point: {
          terminal_id: order.terminalId,
          ...(order.printOnTerminal !== undefined && { print_on_terminal: order.printOnTerminal }),
          ...(order.ticketNumber !== undefined && { ticket_number: order.ticketNumber }),
        },
      },
    };
  }

  private refundJson(order: PointOrder, refund: Refund) {
    return {
      id: order.id,
      status: order.status,
      status_detail: order.statusDetail,
      transactions: {
        refunds: [
          {
            id: refund.id,
            transaction_id: refund.transactionId,
            reference_id: refund.referenceId,
            amount: money(refund.amount),
            status: refund.status,
          },
        ],
      },
    };
  }

  paymentJson(payment: Payment) {
    const at = (ms: number) => new Date(ms).toISOString();
    const refunded = payment.refunded;
    const status = refunded >= payment.amount ? 'refunded' : 'approved';
    return {
      id: payment.id,
      status,
      status_detail: refunded > 0 && status === 'approved' ? 'partially_refunded' : 'accredited',
      date_created: at(payment.createdAt),
      date_approved: at(payment.createdAt),
      date_last_updated: at(this.now()),
      operation_type: 'regular_payment',
      payment_method_id: payment.card.brand,
      payment_type_id: payment.card.type === 'debit' ? 'debit_card' : 'credit_card',
      currency_id: 'MXN',
      transaction_amount: payment.amount / 100,
      transaction_amount_refunded: refunded / 100,
      installments: payment.card.installments,
      authorization_code: payment.authorizationCode,
      external_reference: payment.externalReference,
      card: { first_six_digits: payment.card.firstSix, last_four_digits: payment.card.lastFour },
      fee_details: [{ type: 'mercadopago_fee', amount: payment.fee / 100, fee_payer: 'collector' }],
      transaction_details: {
        net_received_amount: (payment.amount - payment.fee) / 100,
        total_paid_amount: payment.amount / 100,
        installment_amount: payment.amount / 100 / payment.card.installments,
      },
      point_of_interaction: { type: 'POINT' },
      order: { id: payment.orderId, type: 'mercadopago' },
      collector_id: Number(this.options.userId),
    };
  }

  // ---- Inner workings ----

  private readNewOrder(body: Record<string, unknown> | undefined) {
    if (body === undefined) throw badRequest('required_properties', 'The request body is required.');
    const allowed = [
      'type',
      'external_reference',
      'description',
      'expiration_time',
      'transactions',
      'config',
    ];
    const extra = Object.keys(body).filter((name) => !allowed.includes(name));
    if (extra.length > 0)
      throw badRequest('unsupported_properties', 'Unsupported properties were sent.', extra);
    const missing = ['type', 'external_reference', 'transactions', 'config'].filter(
      (name) => body[name] === undefined,
    );
    if (missing.length > 0)
      throw badRequest('required_properties', 'Required properties are missing.', missing);
    if (body.type !== 'point') throw badRequest('property_value', 'type must be "point".');
    const externalReference = body.external_reference;
    if (typeof externalReference !== 'string' || !EXTERNAL_REFERENCE.test(externalReference))
      throw badRequest(
        'property_value',
        'external_reference must have 1 to 64 letters, digits, hyphens or underscores.',
      );
    const description = body.description;
    if (description !== undefined && (typeof description !== 'string' || description.length > 150))
      throw badRequest('property_value', 'description must be a string of at most 150 characters.');
    const expirationTime = body.expiration_time ?? DEFAULT_EXPIRATION;
    const expirationMs = typeof expirationTime === 'string' ? durationMs(expirationTime) : undefined;
    if (expirationMs === undefined || expirationMs < 30_000 || expirationMs > 3 * 3_600_000)
      throw badRequest('property_value', 'expiration_time must be an ISO 8601 duration from PT30S to PT3H.');
    const transactions = body.transactions;
    const payments = isObject(transactions) ? transactions.payments : undefined;
    if (!Array.isArray(payments) || payments.length === 0)
      throw badRequest('minimum_items', 'transactions.payments must hold one payment.');
    if (payments.length > 1) throw badRequest('maximum_items', 'A point order holds exactly 1 payment.');
    const [payment] = payments as unknown[];
    if (!isObject(payment) || typeof payment.amount !== 'string')
      throw badRequest('property_type', 'transactions.payments[0].amount must be a string such as "150.00".');
    if (!AMOUNT.test(payment.amount))
      throw badRequest(
        'property_value',
        'transactions.payments[0].amount must have two decimal places or none.',
      );
    const amount = toCentavos(payment.amount);
    if (amount < this.options.minAmount)
      throw badRequest(
        'property_value',
        `transactions.payments[0].amount must be at least ${money(this.options.minAmount)}.`,
      );
    const point = isObject(body.config) ? body.config.point : undefined;
    if (!isObject(point) || typeof point.terminal_id !== 'string')
      throw badRequest('required_properties', 'config.point.terminal_id is required.');
    const terminal = this.terminals.find((candidate) => candidate.id === point.terminal_id);
    if (!terminal)
      throw new MpError(
        403,
        'forbidden_checking_terminal_owner',
        'The Point terminal does not belong to the user who sent the request.',
      );
    if (terminal.operating_mode !== 'PDV')
      throw badRequest('terminal_not_in_pdv_mode', `Terminal ${terminal.id} is not in PDV mode.`);
    const printOnTerminal = point.print_on_terminal;
    if (printOnTerminal !== undefined && typeof printOnTerminal !== 'string')
      throw badRequest('property_type', 'config.point.print_on_terminal must be a string.');
    const ticketNumber = point.ticket_number;
    if (ticketNumber !== undefined && typeof ticketNumber !== 'string')
      throw badRequest('property_type', 'config.point.ticket_number must be a string.');
    return {
      externalReference,
      description: description as string | undefined,
      expirationTime: expirationTime as string,
      amount,
      terminalId: terminal.id,
      printOnTerminal: printOnTerminal as string | undefined,
      ticketNumber: ticketNumber as string | undefined,
    };
  }

  private requireOnTerminal(order: PointOrder, allowed: readonly OrderStatus[]): void {
    if (!allowed.includes(order.status))
      throw conflict(
        'invalid_order_status',
        `Order ${order.id} is ${order.status}, not ${allowed.join(' or ')}.`,
      );
  }

  private transition(
    order: PointOrder,
    status: OrderStatus,
    detail: string,
    paymentStatus: string,
    paymentDetail: string,
    action: string,
  ): void {
    if (FINAL.includes(order.status) && status !== 'refunded') return;
    order.paymentStatus = paymentStatus;
    order.paymentStatusDetail = paymentDetail;
    if (status !== 'at_terminal') order.cancelRequestedAt = undefined;
    this.touch(order, status, detail);
    // `at_terminal` is a step, not a result: no notification (a choice, see the README).
    if (status !== 'at_terminal') this.notify({ action, order });
  }

  private touch(order: PointOrder, status: OrderStatus, detail: string): void {
    order.status = status;
    order.statusDetail = detail;
    order.updatedAt = this.now();
    order.version += 1;
    order.history.push({ status, detail, at: order.updatedAt });
  }

  /** A repeated key with the same body answers as the first time did; with another body, 409. */
  private replay(slot: string, text: string): { status: number; json: unknown } | undefined {
    const remembered = this.keys.get(slot);
    if (!remembered) return undefined;
    if (remembered.fingerprint !== fingerprint(text))
      throw conflict(
        'idempotency_key_already_used',
        'The value sent as the idempotency header was already used with another request.',
      );
    return { status: remembered.status, json: remembered.answer() };
  }

  private remember(slot: string, text: string, orderId: string, status: number, answer: () => unknown): void {
    this.keys.set(slot, { fingerprint: fingerprint(text), orderId, status, answer });
  }
}

export function refundedOf(order: PointOrder): number {
  return order.refunds
    .filter((refund) => refund.status !== 'failed')
    .reduce((sum, refund) => sum + refund.amount, 0);
}

function fingerprint(text: string): string {
  let canonical = text.trim();
  try {
    canonical = JSON.stringify(sortKeys(JSON.parse(canonical)));
  } catch {
    // Not JSON: compared as sent.
  }
  return createHash('sha256').update(canonical).digest('hex');
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys(value[key])]),
  );
}

function requireKey(key: string | undefined): string {
  if (key === undefined || key.trim() === '')
    throw badRequest('empty_required_header', "The 'X-Idempotency-Key' header is required and was not sent.");
  if (key.length > 64)
    throw badRequest('invalid_idempotency_key_length', 'X-Idempotency-Key is longer than 64 characters.');
  return key;
}

function allowsAtTerminal(header: string | undefined): boolean {
  return (header ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .includes('at_terminal');
}

function wholeQuery(
  query: URLSearchParams,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw badRequest('invalid_query_param', `${name} must be a whole number from ${min} to ${max}.`);
  return value;
}
