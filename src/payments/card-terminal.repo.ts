import type { Selectable } from 'kysely';
import type { Db } from '../core/db/database';
import type { Database } from '../core/db/schema';
import type { PaymentRow } from './payments.repo';

export type RefundRow = Selectable<Database['refunds']>;

export const CARD_TERMINAL = 'card_terminal';

/** The till's card details once the card paid. */
export type CardSettled = {
  brand: string | null;
  cardType: 'credit' | 'debit' | null;
  lastFour: string | null;
  authorizationCode: string | null;
  feeCents: number | null;
  paymentReference: string | null;
  transactionId: string | null;
};

/** What of the bill's balance pending terminal charges already ask for. */
export async function pendingChargesCents(db: Db, ticketId: string): Promise<number> {
  const row = await db
    .selectFrom('payments')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_cents'), eb.lit(0)).as('cents'))
    .where('ticket_id', '=', ticketId)
    .where('method', '=', CARD_TERMINAL)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.cents);
}

export async function findPendingOnTerminal(db: Db, terminalId: string): Promise<PaymentRow | undefined> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('terminal_id', '=', terminalId)
    .where('method', '=', CARD_TERMINAL)
    .where('status', '=', 'pending')
    .executeTakeFirst();
}

export async function findByProviderOrder(db: Db, providerOrderId: string): Promise<PaymentRow | undefined> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('provider_order_id', '=', providerOrderId)
    .executeTakeFirst();
}

/** The provider's order for the charge, once it answered its creation. */
export async function fillProviderOrder(
  db: Db,
  id: string,
  order: { orderId: string; transactionId: string | null },
): Promise<void> {
  await db
    .updateTable('payments')
    .set({ provider_order_id: order.orderId, provider_transaction_id: order.transactionId })
    .where('id', '=', id)
    .execute();
}

/** What the terminal is doing while the charge is pending; false once the charge is no longer pending. */
export async function updatePendingState(
  db: Db,
  id: string,
  change: { state: string; nextCheckAt: number | null; cancelRequestedAt?: number },
): Promise<boolean> {
  const result = await db
    .updateTable('payments')
    .set({
      terminal_state: change.state,
      next_check_at: change.nextCheckAt,
      ...(change.cancelRequestedAt !== undefined && { cancel_requested_at: change.cancelRequestedAt }),
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The card paid: the conditional update that only one settler gets through. */
export async function markCardSettled(db: Db, id: string, card: CardSettled, now: number): Promise<boolean> {
  const result = await db
    .updateTable('payments')
    .set({
      status: 'settled',
      settled_at: now,
      terminal_state: 'processed',
      card_brand: card.brand,
      card_type: card.cardType,
      card_last_four: card.lastFour,
      authorization_code: card.authorizationCode,
      provider_fee_cents: card.feeCents,
      provider_payment_id: card.paymentReference,
      provider_transaction_id: card.transactionId,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The charge ended unpaid (declined, expired, canceled): its money state is `expired`, as an unpaid
 * Lightning invoice's, and `terminal_state` says how. False when it was no longer pending.
 */
export async function markChargeEnded(
  db: Db,
  id: string,
  end: { state: 'failed' | 'canceled' | 'expired'; reason: string },
): Promise<boolean> {
  const result = await db
    .updateTable('payments')
    .set({ status: 'expired', terminal_state: end.state, failure_reason: end.reason, next_check_at: null })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A verified notification names the provider's order: the watch job reads it back at its next run. */
export async function checkSoon(db: Db, providerOrderId: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('payments')
    .set({ next_check_at: now })
    .where('provider_order_id', '=', providerOrderId)
    .where('next_check_at', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Claims the charges due to be read back, each by a conditional update on the instant seen, so that
 * two instances never read the same charge at once; a claim left by a stopped instance runs out.
 */
export async function claimDueChecks(
  db: Db,
  options: { now: number; claimUntil: number; limit: number },
): Promise<PaymentRow[]> {
  const due = await db
    .selectFrom('payments')
    .select(['id', 'next_check_at'])
    .where('next_check_at', '<=', options.now)
    .orderBy('next_check_at')
    .limit(options.limit)
    .execute();
  const claimed: PaymentRow[] = [];
  for (const candidate of due) {
    const row = await db
      .updateTable('payments')
      .set({ next_check_at: options.claimUntil })
      .where('id', '=', candidate.id)
      .where('next_check_at', '=', Number(candidate.next_check_at))
      .returningAll()
      .executeTakeFirst();
    if (row) claimed.push(row);
  }
  return claimed;
}

export async function setNextCheck(db: Db, id: string, nextCheckAt: number | null): Promise<void> {
  await db.updateTable('payments').set({ next_check_at: nextCheckAt }).where('id', '=', id).execute();
}

export async function deleteCharge(db: Db, id: string): Promise<void> {
  await db.deleteFrom('payments').where('id', '=', id).where('status', '=', 'pending').execute();
}

export async function pendingRefundsOf(db: Db, paymentId: string): Promise<RefundRow[]> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .where('status', '=', 'pending')
    .orderBy('created_at')
    .execute();
}

export async function pendingRefundCents(db: Db, paymentId: string): Promise<number> {
  const row = await db
    .selectFrom('refunds')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_cents'), eb.lit(0)).as('cents'))
    .where('payment_id', '=', paymentId)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.cents);
}

export async function findRefund(db: Db, id: string): Promise<RefundRow | undefined> {
  return db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function fillProviderRefund(db: Db, id: string, providerRefundId: string): Promise<void> {
  await db
    .updateTable('refunds')
    .set({ provider_refund_id: providerRefundId })
    .where('id', '=', id)
    .execute();
}

/** The provider settled the refund; false when another settler got there first. */
export async function markRefundEnded(
  db: Db,
  id: string,
  end: { status: 'processed' | 'failed'; reason: string | null },
): Promise<boolean> {
  const result = await db
    .updateTable('refunds')
    .set({ status: end.status, failure_reason: end.reason })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteRefund(db: Db, id: string): Promise<void> {
  await db.deleteFrom('refunds').where('id', '=', id).where('status', '=', 'pending').execute();
}

/** The table of the charge's bill, which the terminal's screen names. */
export async function tableNameOfTicket(db: Db, ticketId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('tickets')
    .innerJoin('orders', 'orders.id', 'tickets.order_id')
    .innerJoin('dining_tables', 'dining_tables.id', 'orders.table_id')
    .select('dining_tables.name')
    .where('tickets.id', '=', ticketId)
    .executeTakeFirst();
  return row?.name;
}
