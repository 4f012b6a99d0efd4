import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../core/context';
import { BadRequestError, NotFoundError, ServiceUnavailableError, UnauthorizedError } from '../core/errors';
import type { Arrived } from '../core/lightning-node';
import { MAX_UNIX_MS } from '../core/schemas';
import * as repo from './incoming-payments.repo';
import { nodePaymentToRow } from './incoming-payments.service';
import { callNode } from './node-call';

const HEX_64 = /^[0-9a-f]{64}$/i;

export type WebhookOutcome = 'recorded' | 'already recorded' | 'ignored';

/**
 * What else a payment that arrived sets off: settling the bill it paid. The payments feature does that,
 * a layer above the wallet, so buildApp hands its settlement in (a port) instead of the wallet importing it.
 */
export type SettleArrived = (ctx: AppContext, paymentHash: string, arrived: Arrived) => Promise<unknown>;

/** phoenixd signs the exact bytes it sends: hex HMAC-SHA256 keyed with the webhook secret. */
export function isValidSignature(secret: string, rawBody: string, signature: string | undefined): boolean {
  if (signature === undefined || !/^[0-9a-f]+$/i.test(signature)) return false;
  const expected = createHmac('sha256', secret).update(rawBody, 'utf8').digest();
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

type PaymentReceived = {
  paymentHash: string;
  amountSat: number;
  externalId: string | null;
  payerNote: string | null;
  timestamp: number | null;
};

/** No amount can exceed the 21 million bitcoin that will ever exist. */
const MAX_SAT = 2_100_000_000_000_000;

const isWholeInRange = (value: unknown, min: number, max: number): value is number =>
  Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;

function readEvent(rawBody: string): { type: unknown; payment: PaymentReceived | null } {
  let event: Record<string, unknown>;
  try {
    event = JSON.parse(rawBody);
  } catch {
    throw new BadRequestError('Invalid webhook payload');
  }
  if (typeof event !== 'object' || event === null) throw new BadRequestError('Invalid webhook payload');
  if (event.type !== 'payment_received') return { type: event.type, payment: null };
  const { paymentHash, amountSat, externalId, payerNote, timestamp } = event;
  if (typeof paymentHash !== 'string' || !HEX_64.test(paymentHash)) {
    throw new BadRequestError('Invalid webhook payload: paymentHash');
  }
  // Net of the liquidity fee phoenixd took from the payment: below zero when the fee was larger.
  if (!isWholeInRange(amountSat, -MAX_SAT, MAX_SAT)) {
    throw new BadRequestError('Invalid webhook payload: amountSat');
  }
  const hasTimestamp = timestamp !== undefined && timestamp !== null;
  if (hasTimestamp && !isWholeInRange(timestamp, 0, MAX_UNIX_MS)) {
    throw new BadRequestError('Invalid webhook payload: timestamp');
  }
  return {
    type: event.type,
    payment: {
      paymentHash: paymentHash.toLowerCase(),
      amountSat,
      externalId: typeof externalId === 'string' ? externalId : null,
      payerNote: typeof payerNote === 'string' ? payerNote : null,
      timestamp: hasTimestamp ? timestamp : null,
    },
  };
}

/**
 * The row to record, and what arrived. With a node configured, the node's own record is what counts
 * (it is richer: description, invoice creation time, fees): a payment it does not know as received
 * is not recorded (404), and while it cannot be asked nothing is recorded (503). phoenixd ignores
 * the answer and never sends the webhook again: the sweep and the catch-up read settle the bill, and
 * the next listing of incoming payments records the payment. Without a node, the signed payload is
 * all there is.
 */
async function rowFor(
  ctx: AppContext,
  payment: PaymentReceived,
): Promise<{ row: repo.NewIncomingPayment; arrived: Arrived }> {
  const now = ctx.clock.now();
  if (ctx.lightning) {
    const fromNode = await callNode(ctx, (node) => node.getIncomingPayment(payment.paymentHash));
    if (!fromNode?.isPaid) throw new NotFoundError();
    return { row: nodePaymentToRow(fromNode, now), arrived: fromNode };
  }
  const receivedAt = payment.timestamp ?? now;
  const row = {
    payment_hash: payment.paymentHash,
    amount_sat: payment.amountSat,
    received_sat: payment.amountSat,
    // The event does not tell the fees.
    fees_sat: 0,
    description: payment.payerNote ?? '',
    external_id: payment.externalId,
    status: 'RECEIVED',
    created_at: receivedAt,
    completed_at: receivedAt,
    recorded_at: now,
  };
  return { row, arrived: { receivedSat: payment.amountSat, feesMsat: null } };
}

/**
 * Records a payment phoenixd tells us it received, and settles the bill payment it paid, if any. The
 * signature is checked over the raw bytes before anything is parsed; a payment delivered twice is
 * stored once (payment hash primary key).
 */
export async function handlePhoenixdWebhook(
  ctx: AppContext,
  settleArrived: SettleArrived,
  rawBody: string,
  signature: string | undefined,
): Promise<WebhookOutcome> {
  const secret = ctx.config.phoenixd.webhookSecret;
  if (secret === undefined) throw new ServiceUnavailableError('Webhook secret is not configured');
  if (!isValidSignature(secret, rawBody, signature)) throw new UnauthorizedError('Invalid webhook signature');

  const { payment } = readEvent(rawBody);
  if (!payment) return 'ignored';
  const { row, arrived } = await rowFor(ctx, payment);
  const inserted = await repo.insertIncomingPayments(ctx.db, [row]);
  // A bill's invoice settles its payment in the same flow; a second copy (phoenix.conf's webhook and
  // the invoice's own both post it) settles nothing twice.
  await settleArrived(ctx, row.payment_hash, arrived);
  return inserted === 1 ? 'recorded' : 'already recorded';
}
