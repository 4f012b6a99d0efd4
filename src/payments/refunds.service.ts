import { recordAudit } from '../audit/audit.api';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { PlatformError } from '../core/delivery-platform';
import { BadRequestError, ConflictError, NotFoundError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import * as keys from '../core/idempotency.repo';
import { newId } from '../core/ids';
import { fromCents, toCents } from '../core/money';
import { runPaymentOnce } from '../core/payment-once';
import { recordEvent } from '../events/events.api';
import { refreshSalesFacts } from '../orders/orders.api';
import { authorize } from '../permissions/permissions.api';
import { drawerForCashRefund, shiftForRecording } from '../shifts/shifts.api';
import { lockTicketWithOrder } from '../tickets/tickets.api';
import { callNode } from '../wallet/wallet.api';
import * as charges from './card-terminal.repo';
import { CARD_TERMINAL } from './card-terminal.repo';
import { asHttpError, terminalOf } from './card-terminal.service';
import { CHECK_AFTER_MS, sendRefund } from './card-terminal-settlement.service';
import { centsToSats } from './lightning-bills.service';
import { toPaymentView } from './payment-views';
import * as payments from './payments.repo';
import type { PaymentView, RefundBody } from './payments.schemas';

const REFUNDABLE = new Set(['settled', 'partially_refunded']);

type RefundAnswer = {
  id: string;
  payment_status: PaymentView['status'];
  status: 'pending' | 'processed' | 'failed';
};

/**
 * Records money given back on a payment: at most what is left of the payment's amount (tips are the
 * staff's and are not refunded here). The bill's and the order's `paid` fall in the same
 * transaction; refunds of one payment queue on its order's lock, so two refunds cannot together give
 * back more than was paid. Lightning payments are refunded through the node (below).
 */
export async function refundPayment(
  ctx: AppContext,
  principal: Principal,
  paymentId: string,
  input: RefundBody,
  claim: IdempotencyClaim | undefined,
): Promise<RefundAnswer> {
  authorize(principal, 'payments.refund');
  const found = await payments.findPayment(ctx.db, paymentId);
  if (!found) throw new NotFoundError();
  if (found.method === 'lightning') return refundLightning(ctx, principal, paymentId, input, claim);
  if (found.method === CARD_TERMINAL) return refundThroughTerminal(ctx, principal, found, input, claim);
  if (input.invoice !== undefined) throw new BadRequestError('Only Lightning refunds take an invoice');
  if (input.shift_id !== undefined && found.method !== 'cash') {
    throw new BadRequestError('Only cash refunds come out of a drawer');
  }
  const now = ctx.clock.now();
  return inIdempotentTransaction(ctx.db, { claim, statusCode: 201, now }, async (trx) => {
    const refund = await takeRefund(trx, principal, paymentId, input, now);
    await announce(trx, refund.paymentId, now);
    return { id: refund.id, payment_status: refund.status, status: 'processed' };
  });
}

/**
 * Gives back a whole payment inside the caller's transaction, with the reason the books show: a
 * delivery app's cancellation returns its payment in our books as the platform returns the customer's money.
 */
export async function refundWholeIn(
  trx: Db,
  principal: Principal,
  paymentId: string,
  reason: string,
  now: number,
): Promise<void> {
  const refund = await takeRefund(trx, principal, paymentId, { reason }, now);
  await announce(trx, refund.paymentId, now);
}

type TakenRefund = {
  id: string;
  paymentId: string;
  ticketId: string;
  orderId: string;
  cents: number;
  status: 'refunded' | 'partially_refunded';
};

/**
 * The payment to refund under its order's lock, and how much: at most what is left of its amount. A
 * card-terminal refund still pending at the provider holds its part: only one is under way at a time.
 */
async function lockRefundable(trx: Db, paymentId: string, input: RefundBody) {
  const found = await payments.findPayment(trx, paymentId);
  if (!found) throw new NotFoundError();
  const ticket = await lockTicketWithOrder(trx, found.ticket_id);
  const payment = await payments.findPayment(trx, paymentId);
  if (!payment) throw new NotFoundError();
  if (!REFUNDABLE.has(payment.status)) {
    throw new BadRequestError(`A ${toPaymentView(payment).status} payment cannot be refunded`);
  }
  const leftCents = Number(payment.amount_cents) - Number(payment.refunded_cents);
  const cents = input.amount === undefined ? leftCents : toCents(input.amount);
  if (cents > leftCents) throw new BadRequestError('Amount exceeds what is left of the payment');
  return { ticket, payment, cents, leftCents };
}

/** Checks and records a refund under the order's lock; the bill's and the order's `paid` fall. */
async function takeRefund(
  trx: Db,
  principal: Principal,
  paymentId: string,
  input: RefundBody,
  now: number,
  lightning?: { invoice: string },
): Promise<TakenRefund & { amountSat: number | null }> {
  const { ticket, payment, cents, leftCents } = await lockRefundable(trx, paymentId, input);
  const amountSat = lightning ? centsToSats(cents, Number(payment.rate)) : null;
  const shiftId =
    payment.method === 'cash'
      ? await drawerForCashRefund(trx, principal, input.shift_id)
      : await shiftForRecording(trx, principal.id, false);
  const id = newId();
  await payments.insertRefund(trx, {
    id,
    payment_id: paymentId,
    amount_cents: cents,
    reason: input.reason,
    created_by: principal.id,
    created_at: now,
    amount_sat: amountSat,
    invoice: lightning?.invoice ?? null,
    payment_hash: null,
    node_payment_id: null,
    fees_sat: null,
    shift_id: shiftId,
  });
  const status = cents === leftCents ? 'refunded' : 'partially_refunded';
  const taken = { id, paymentId, ticketId: ticket.id, orderId: ticket.order_id, cents, status } as const;
  await payments.subtractRefund(
    trx,
    { id: paymentId, ticketId: taken.ticketId, orderId: taken.orderId },
    { cents, status },
    now,
  );
  await refreshSalesFacts(trx, taken.orderId);
  await recordAudit(trx, {
    at: now,
    actor: principal,
    action: 'payment.refunded',
    target: { type: 'payment', id: paymentId },
    before: toPaymentView(payment),
    after: { refund_id: id, amount: fromCents(cents), reason: input.reason, payment_status: status },
  });
  return { ...taken, amountSat };
}

async function announce(trx: Db, paymentId: string, now: number): Promise<void> {
  const payment = await payments.findPayment(trx, paymentId);
  if (!payment) throw new NotFoundError();
  await recordEvent(trx, { type: 'payment.refunded', data: toPaymentView(payment), at: now });
}

/**
 * Pays the customer's invoice through the node, at the original payment's rate, at most once per
 * `Idempotency-Key` (the wallet's rules: a retry gets the first answer, a node that gave no answer
 * leaves every retry with 504 and no second payment). The refund is taken off the payment before the
 * node is called, so two refunds racing cannot together pay back more than was paid; a payment the
 * node refused or never got gives it back. One whose outcome is unknown stays taken: the money has
 * probably left, and the outgoing payments show whether it did.
 */
async function refundLightning(
  ctx: AppContext,
  principal: Principal,
  paymentId: string,
  input: RefundBody,
  claim: IdempotencyClaim | undefined,
): Promise<RefundAnswer> {
  const { invoice } = input;
  if (invoice === undefined) throw new BadRequestError("A Lightning refund needs the customer's invoice");
  return runPaymentOnce(ctx, claim, async () => {
    const now = ctx.clock.now();
    const taken = await ctx.db
      .transaction()
      .execute((trx) => takeRefund(trx, principal, paymentId, input, now, { invoice }));
    let sent: { paymentId: string; paymentHash: string; routingFeeSat: number };
    try {
      const outcome = await callNode(ctx, (node) =>
        node.payInvoice({ invoice, amountSat: taken.amountSat ?? undefined }),
      );
      if (!outcome.isSent) throw new BadRequestError(await explainFailure(ctx, outcome.reason));
      sent = outcome;
    } catch (error) {
      if (isDefinitelyNotPaid(error)) await giveBack(ctx, principal, taken);
      throw error;
    }
    await ctx.db.transaction().execute(async (trx) => {
      await payments.completeLightningRefund(trx, taken.id, {
        nodePaymentId: sent.paymentId,
        paymentHash: sent.paymentHash,
        feesSat: sent.routingFeeSat,
      });
      await announce(trx, paymentId, now);
    });
    return { id: taken.id, payment_status: taken.status, status: 'processed' };
  });
}

/** lightning-kmp's reason when the channels cannot afford a payment (FinalFailure.InsufficientBalance). */
const INSUFFICIENT_BALANCE = /not enough funds/i;

/**
 * Sats that arrived while the node had no channel, or too few to pay for one, are paid but kept as
 * fee credit for the next liquidity purchase: the bill counts them, the node cannot send them. A
 * refund refused for want of funds says so when that is where the money is.
 */
async function explainFailure(ctx: AppContext, reason: string): Promise<string> {
  const failed = `Payment failed: ${reason}`;
  if (!INSUFFICIENT_BALANCE.test(reason)) return failed;
  const balance = await callNode(ctx, (node) => node.getBalance()).catch(() => undefined);
  if (!balance || balance.feeCreditSat === 0) return failed;
  return (
    `${failed}. The node can send ${balance.balanceSat} sat; ${balance.feeCreditSat} sat it received ` +
    'went to its fee credit, which pays future liquidity fees and cannot be sent'
  );
}

/** A refusal (4xx) or an unavailable node (503) means no money moved; see runPaymentOnce. */
function isDefinitelyNotPaid(error: unknown): boolean {
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && (status < 500 || status === 503);
}

async function giveBack(ctx: AppContext, principal: Principal, taken: TakenRefund): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    await lockTicketWithOrder(trx, taken.ticketId);
    await payments.undoRefund(trx, taken, now);
    await refreshSalesFacts(trx, taken.orderId);
    // The refund was audited when taken; the log must show that no money went after all.
    await recordAudit(trx, {
      at: now,
      actor: principal,
      action: 'payment.refund_undone',
      target: { type: 'payment', id: taken.paymentId },
      after: { refund_id: taken.id, amount: fromCents(taken.cents) },
    });
  });
}

/**
 * A card-terminal payment is refunded by Mercado Pago. The refund is reserved `pending` (what is left
 * to refund counts it, so two refunds cannot together give back more than was paid) in one
 * transaction with the `Idempotency-Key`'s answer, then asked of the provider under its own key: a
 * retry, or the watch job after an answer that never came, refunds once. The money leaves the bill
 * when the provider says the refund is processed. A refusal removes the reservation and frees the key.
 */
async function refundThroughTerminal(
  ctx: AppContext,
  principal: Principal,
  found: payments.PaymentRow,
  input: RefundBody,
  claim: IdempotencyClaim | undefined,
): Promise<RefundAnswer> {
  if (input.invoice !== undefined || input.shift_id !== undefined) {
    throw new BadRequestError('A card-terminal refund goes back to the card: no invoice, no drawer');
  }
  terminalOf(ctx);
  const now = ctx.clock.now();
  let reserved: charges.RefundRow | undefined;
  const answer = await inIdempotentTransaction(ctx.db, { claim, statusCode: 201, now }, async (trx) => {
    reserved = await reserveTerminalRefund(trx, principal, found.id, input, now);
    return { id: reserved.id, payment_status: toPaymentView(found).status, status: 'pending' as const };
  });
  if (reserved === undefined) return answer;
  const refund = reserved;
  try {
    const atProvider = await sendRefund(ctx, refund);
    const after = await payments.findPayment(ctx.db, found.id);
    const status =
      atProvider?.status === 'processed'
        ? 'processed'
        : atProvider?.status === 'failed'
          ? 'failed'
          : 'pending';
    return { ...answer, payment_status: after ? toPaymentView(after).status : answer.payment_status, status };
  } catch (error) {
    if (!(error instanceof PlatformError) || error.isRetryable) return answer;
    await ctx.db.transaction().execute(async (trx) => {
      await charges.deleteRefund(trx, refund.id);
      if (claim) await keys.releaseKey(trx, claim);
    });
    throw asHttpError(error);
  }
}

async function reserveTerminalRefund(
  trx: Db,
  principal: Principal,
  paymentId: string,
  input: RefundBody,
  now: number,
): Promise<charges.RefundRow> {
  const { payment, cents } = await lockRefundable(trx, paymentId, input);
  if ((await charges.pendingRefundsOf(trx, paymentId)).length > 0) {
    throw new ConflictError('A refund of this payment is still being processed by Mercado Pago: wait for it');
  }
  const id = newId();
  await payments.insertRefund(trx, {
    id,
    payment_id: paymentId,
    amount_cents: cents,
    reason: input.reason,
    created_by: principal.id,
    created_at: now,
    amount_sat: null,
    invoice: null,
    payment_hash: null,
    node_payment_id: null,
    fees_sat: null,
    shift_id: await shiftForRecording(trx, principal.id, false),
    status: 'pending',
    provider_key: id,
  });
  await charges.setNextCheck(trx, paymentId, now + CHECK_AFTER_MS);
  await recordAudit(trx, {
    at: now,
    actor: principal,
    action: 'payment.refund_requested',
    target: { type: 'payment', id: paymentId },
    before: toPaymentView(payment),
    after: { refund_id: id, amount: fromCents(cents), reason: input.reason },
  });
  const refund = await charges.findRefund(trx, id);
  if (!refund) throw new Error(`refund ${id} vanished inside its own transaction`);
  return refund;
}
