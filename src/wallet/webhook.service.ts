import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../core/context';
import { BadRequestError, ServiceUnavailableError, UnauthorizedError } from '../core/errors';
import * as repo from './incoming-payments.repo';
import { nodePaymentToRow } from './incoming-payments.service';

const HEX_64 = /^[0-9a-f]{64}$/i;

export type WebhookOutcome = 'recorded' | 'already recorded' | 'ignored';

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
  if (typeof amountSat !== 'number' || !Number.isSafeInteger(amountSat) || amountSat < 0) {
    throw new BadRequestError('Invalid webhook payload: amountSat');
  }
  return {
    type: event.type,
    payment: {
      paymentHash: paymentHash.toLowerCase(),
      amountSat,
      externalId: typeof externalId === 'string' ? externalId : null,
      payerNote: typeof payerNote === 'string' ? payerNote : null,
      timestamp: Number.isSafeInteger(timestamp) ? (timestamp as number) : null,
    },
  };
}

/** The node's own record is richer (description, invoice creation time); the payload is the fallback. */
async function rowFor(ctx: AppContext, payment: PaymentReceived): Promise<repo.NewIncomingPayment> {
  const now = ctx.clock.now();
  const fromNode = await ctx.lightning?.getIncomingPayment(payment.paymentHash).catch(() => null);
  if (fromNode?.isPaid) return nodePaymentToRow(fromNode, now);
  const receivedAt = payment.timestamp ?? now;
  return {
    payment_hash: payment.paymentHash,
    amount_sat: payment.amountSat,
    received_sat: payment.amountSat,
    // The event does not tell the fees; the node's record, when reachable, does.
    fees_sat: 0,
    description: payment.payerNote ?? '',
    external_id: payment.externalId,
    status: 'RECEIVED',
    created_at: receivedAt,
    completed_at: receivedAt,
    recorded_at: now,
  };
}

/**
 * Records a payment phoenixd tells us it received. The signature is checked over the raw bytes
 * before anything is parsed; a payment delivered twice is stored once (payment hash primary key).
 */
export async function handlePhoenixdWebhook(
  ctx: AppContext,
  rawBody: string,
  signature: string | undefined,
): Promise<WebhookOutcome> {
  const secret = ctx.config.phoenixd.webhookSecret;
  if (secret === undefined) throw new ServiceUnavailableError('Webhook secret is not configured');
  if (!isValidSignature(secret, rawBody, signature)) throw new UnauthorizedError('Invalid webhook signature');

  const { payment } = readEvent(rawBody);
  if (!payment) return 'ignored';
  const inserted = await repo.insertIncomingPayments(ctx.db, [await rowFor(ctx, payment)]);
  return inserted === 1 ? 'recorded' : 'already recorded';
}
