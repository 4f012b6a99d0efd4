import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import type { Arrived, NodeIncomingPayment } from '../core/lightning-node';
import { recordEvent } from '../events/events.api';
import { callNode } from '../wallet/wallet.api';
import * as lightning from './lightning.repo';
import { toPaymentView } from './payment-views';
import * as payments from './payments.repo';
import { type Settlement, settlePendingIn } from './settle-pending';

/**
 * Sweeps ask the node about payments that expired this recently: the webhook of a payment made just
 * before expiry may be lost. Later ones are the catch-up's (below), which finds them however late.
 */
const LATE_PAYMENT_WINDOW_MS = 10 * 60 * 1000;
/** Long enough for one sweep to ask the node about every row it claimed; released when it is done. */
const SWEEP_CLAIM_MS = 30 * 1000;
const SWEEP_BATCH = 100;
/** A reservation is filled within one node call; one this old was left by a stopped instance. */
const ABANDONED_RESERVATION_MS = 5 * 60 * 1000;

/**
 * Settles the Lightning payment with this hash, once (settlePendingIn). Callers come here only when
 * the node says the invoice is paid, and phoenixd refuses less than an invoice asks before it accepts
 * a payment, so a paid invoice was paid in full: it counts for its amount and tip whatever
 * `receivedSat` says, which is net of the liquidity fee the node took (less than asked, even
 * negative). What arrived and the fee are kept for the accounts.
 */
export async function settleByHash(
  ctx: AppContext,
  paymentHash: string,
  arrived: Arrived,
): Promise<Settlement> {
  const found = await lightning.findPaymentByHash(ctx.db, paymentHash);
  if (found?.method !== 'lightning') return 'unknown';
  const now = ctx.clock.now();
  return ctx.db
    .transaction()
    .execute((trx) =>
      settlePendingIn(trx, found, now, (db) => lightning.markSettled(db, found.id, arrived, now)),
    );
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
    await settleByHash(ctx, hash, fromNode);
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

/** Long enough for one catch-up to read its pages; released when it is done. */
const CATCH_UP_CLAIM_MS = 60 * 1000;
const CATCH_UP_PAGE = 100;
/**
 * Each read starts this far before the newest completion already seen: payments complete on the
 * node in parallel and are stored a moment after their completion time, and its clock and ours may
 * differ a little. Re-reading a settled payment changes nothing.
 */
const CATCH_UP_OVERLAP_MS = 10 * 60 * 1000;

/**
 * The catch-up: phoenixd posts each webhook once and forgets it, so a payment whose webhook was lost
 * (the POS restarting, a network cut, an invoice paid long after it expired while the node bought
 * liquidity) would otherwise rest on sweeps that only look at recent invoices. This reads the node's
 * paid incoming payments completed since the newest one already seen (phoenixd's default list:
 * paid only, filtered by completion time) and settles every one of ours still pending or expired.
 * One instance reads at a time (a claim on the cursor's row); the cursor moves only when every page
 * was read, and never past now. Pages are read until an empty one: phoenixd drops some kinds of
 * payment from a page after counting it, so a short page is not the last, and nothing here relies on
 * the order of a page.
 */
export async function catchUpLightningPayments(ctx: AppContext): Promise<void> {
  if (!ctx.lightning) return;
  const now = ctx.clock.now();
  const claim = await lightning.claimCatchUp(ctx.db, now, now + CATCH_UP_CLAIM_MS);
  if (claim === undefined) return;
  let seenUntil = claim.seenUntil;
  let isComplete = false;
  try {
    const oldest = await lightning.oldestUnsettledCreatedAt(ctx.db);
    if (oldest === undefined) {
      isComplete = true;
      return;
    }
    // No payment of ours can have completed before its invoice was made.
    const from = Math.max(0, Math.max(claim.seenUntil, oldest) - CATCH_UP_OVERLAP_MS);
    for (let offset = 0; ; offset += CATCH_UP_PAGE) {
      const page = await callNode(ctx, (node) =>
        node.listIncomingPayments({ from, limit: CATCH_UP_PAGE, offset }),
      );
      if (page.length === 0) break;
      const paid = page.filter((payment) => payment.isPaid);
      const ours = await lightning.unsettledHashesAmong(
        ctx.db,
        paid.map((payment) => payment.paymentHash.toLowerCase()),
      );
      for (const payment of paid) {
        if (ours.has(payment.paymentHash.toLowerCase())) {
          await settleByHash(ctx, payment.paymentHash.toLowerCase(), payment);
        }
        // A completion time past our now (a node's clock running ahead, a garbled answer) would put
        // the cursor where every later read starts after every payment: it moves at most to now.
        seenUntil = Math.max(seenUntil, Math.min(payment.completedAt ?? 0, now));
      }
    }
    isComplete = true;
  } finally {
    // A read cut short (the node stopped answering) starts again from where this one started.
    await lightning.releaseCatchUp(ctx.db, claim.claimedUntil, isComplete ? seenUntil : claim.seenUntil);
  }
}
