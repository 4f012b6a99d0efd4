import type { AppContext } from '../context';
import type { Db } from '../core/db/database';
import { recordEvent } from '../events/record-event';
import type { NodeIncomingPayment } from '../lightning/lightning.types';
import { refreshSalesFacts } from '../reports/sales-facts';
import { viewOf as ticketViewOf } from '../tickets/ticket-views';
import { TICKET_STATUS } from '../tickets/tickets.schemas';
import { lockTicketWithOrder } from '../tickets/tickets.service';
import { callNode } from '../wallet/node-call';
import * as lightning from './lightning.repo';
import { toPaymentView } from './payment-views';
import * as payments from './payments.repo';

/** Sweeps ask the node about payments that expired this recently: the webhook of a payment made just before expiry may be lost. */
const LATE_PAYMENT_WINDOW_MS = 10 * 60 * 1000;
/** Long enough for one sweep to ask the node about every row it claimed; released when it is done. */
const SWEEP_CLAIM_MS = 30 * 1000;
const SWEEP_BATCH = 100;
/** A reservation is filled within one node call; one this old was left by a stopped instance. */
const ABANDONED_RESERVATION_MS = 5 * 60 * 1000;

export type Settlement = 'settled' | 'already settled' | 'unknown';

/**
 * Settles the Lightning payment with this hash, once: the conditional update on its status lets
 * only one of a webhook, a lookup and a sweep through, and the bill's order lock is held for the
 * money it moves. A payment counts for its amount and tip only when the node received at least the
 * satoshis asked; less is recorded (`received_sat`) but not counted, and the bill stays open. A
 * payment settling late (the bill paid by other means, cancelled, or the invoice expired) still
 * counts, and the bill shows a negative balance.
 */
export async function settleByHash(
  ctx: AppContext,
  paymentHash: string,
  receivedSat: number,
): Promise<Settlement> {
  const found = await lightning.findPaymentByHash(ctx.db, paymentHash);
  if (found?.method !== 'lightning') return 'unknown';
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const ticket = await lockTicketWithOrder(trx, found.ticket_id);
    if (!(await lightning.markSettled(trx, found.id, receivedSat, now))) return 'already settled';
    const isCovered = receivedSat >= Number(found.amount_sat);
    if (isCovered) {
      await payments.addSettledToTicket(
        trx,
        { id: ticket.id, orderId: ticket.order_id },
        { amountCents: Number(found.amount_cents), tipCents: Number(found.tip_cents) },
        now,
      );
    }
    // Even a payment that does not cover its amount is settled, and a Paid bill's shares count it.
    await refreshSalesFacts(trx, ticket.order_id);
    await recordEvent(trx, { type: 'payment.settled', data: await paymentView(trx, found.id), at: now });
    const ticketView = await ticketViewOf(trx, ticket.id);
    if (Number(ticket.status) === TICKET_STATUS.pending && ticketView.status === TICKET_STATUS.paid) {
      await recordEvent(trx, { type: 'ticket.paid', data: ticketView, at: now });
    }
    return 'settled';
  });
}

/** A pending payment past its expiry that the node says is unpaid becomes `expired`. */
async function expire(ctx: AppContext, id: string): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await lightning.markExpired(trx, id))) return;
    await recordEvent(trx, { type: 'payment.expired', data: await paymentView(trx, id), at: now });
  });
}

/**
 * Brings one Lightning payment up to date with the node: settles it when paid, expires it when
 * past its expiry and unpaid. Node failures propagate; callers decide whether they matter.
 */
export async function reconcile(ctx: AppContext, payment: payments.PaymentRow): Promise<void> {
  const hash = payment.payment_hash;
  if (hash === null || (payment.status !== 'pending' && payment.status !== 'expired')) return;
  const fromNode: NodeIncomingPayment | null = await callNode(ctx, (node) => node.getIncomingPayment(hash));
  if (fromNode?.isPaid) {
    await settleByHash(ctx, hash, fromNode.receivedSat);
    return;
  }
  const isPastExpiry = payment.expires_at !== null && Number(payment.expires_at) <= ctx.clock.now();
  if (payment.status === 'pending' && (isPastExpiry || fromNode?.isExpired)) await expire(ctx, payment.id);
}

/**
 * The background sweep: asks the node about every pending Lightning payment (and recently expired
 * ones) this instance could claim. One payment's failure does not stop the others.
 */
export async function sweepLightningPayments(ctx: AppContext): Promise<void> {
  if (!ctx.lightning) return;
  const now = ctx.clock.now();
  await lightning.deleteAbandonedReservations(ctx.db, now - ABANDONED_RESERVATION_MS);
  const claimed = await lightning.claimForSweep(ctx.db, {
    now,
    lateWindowMs: LATE_PAYMENT_WINDOW_MS,
    claimMs: SWEEP_CLAIM_MS,
    limit: SWEEP_BATCH,
  });
  const failures: unknown[] = [];
  for (const payment of claimed) {
    try {
      await reconcile(ctx, payment);
    } catch (error) {
      failures.push(error);
    }
  }
  await lightning.releaseSweepClaims(
    ctx.db,
    claimed.map((payment) => payment.id),
    now + SWEEP_CLAIM_MS,
  );
  if (failures.length > 0)
    throw new AggregateError(failures, 'Lightning sweep: some payments could not be checked');
}

async function paymentView(db: Db, id: string) {
  const row = await payments.findPayment(db, id);
  if (!row) throw new Error(`payment ${id} vanished inside its own transaction`);
  return toPaymentView(row);
}
