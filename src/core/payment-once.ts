import type { Clock } from './clock';
import type { Db } from './db/database';
import { AppError, GatewayTimeoutError } from './errors';
import { claimKey, heldKey, type IdempotencyClaim } from './idempotency';
import * as keys from './idempotency.repo';

export const PAYMENT_OUTCOME_UNKNOWN = 'Payment outcome unknown: check outgoing payments';

/**
 * Sends a payment at most once per `Idempotency-Key`. Unlike a creating POST, the payment happens
 * outside our database, so the claim cannot share a transaction with it: the claim is committed
 * before the node is called and settled afterwards.
 * - success: the answer is stored and every retry gets it back;
 * - a definite failure (the node refused, or was never reached): the claim is released, so a retry
 *   may try again;
 * - anything else (a timeout, a crash between the call and the bookkeeping): the claim stays without
 *   an answer, and every retry answers 504 without calling the node, until someone checks the
 *   outgoing payments. A retry while the first request still waits for the node gets the same 504.
 * Without a key the payment is simply sent.
 */
export async function runPaymentOnce<T>(
  ctx: Readonly<{ db: Db; clock: Clock }>,
  claim: IdempotencyClaim | undefined,
  send: () => Promise<T>,
): Promise<T> {
  if (!claim) return send();
  const now = ctx.clock.now();
  const isClaimed = await ctx.db.transaction().execute((trx) => claimKey(trx, claim, now));
  if (!isClaimed) return replayPayment<T>(ctx, claim);
  let result: T;
  try {
    result = await send();
  } catch (error) {
    if (isDefinitelyNotSent(error)) await keys.releaseKey(ctx.db, claim);
    throw error;
  }
  await keys.storeResponse(ctx.db, claim, 200, JSON.stringify(result));
  return result;
}

async function replayPayment<T>(ctx: Readonly<{ db: Db }>, claim: IdempotencyClaim): Promise<T> {
  const stored = await heldKey(ctx.db, claim);
  if (!stored?.response_body) throw new GatewayTimeoutError(PAYMENT_OUTCOME_UNKNOWN);
  return JSON.parse(stored.response_body) as T;
}

/** A refusal (4xx) or an unavailable node (503) is only ever raised before money can have moved. */
function isDefinitelyNotSent(error: unknown): boolean {
  return error instanceof AppError && (error.statusCode < 500 || error.statusCode === 503);
}
