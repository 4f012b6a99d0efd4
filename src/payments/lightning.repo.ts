import { sql } from 'kysely';
import type { Db } from '../core/db/database';
import type { PaymentRow } from './payments.repo';

const LIGHTNING = 'lightning';

/** The staff's pending Lightning payment of the bill (guests' invoices are theirs). */
export function findPendingLightning(db: Db, ticketId: string): Promise<PaymentRow | undefined> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('ticket_id', '=', ticketId)
    .where('method', '=', LIGHTNING)
    .where('status', '=', sql.lit('pending'))
    .where('source', '=', 'staff')
    .executeTakeFirst();
}

/**
 * What the bill's Lightning invoices that may still be paid ask for (amounts, tips apart): pending
 * ones not yet expired, and reservations whose invoice is being made.
 */
export async function payableInvoicesCents(db: Db, ticketId: string, now: number): Promise<number> {
  const row = await db
    .selectFrom('payments')
    .select((eb) => eb.fn.sum<number>('amount_cents').as('cents'))
    .where('ticket_id', '=', ticketId)
    .where('method', '=', LIGHTNING)
    .where('status', '=', sql.lit('pending'))
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirst();
  return Number(row?.cents ?? 0);
}

/** The guests' Lightning invoices of the bill that may still be paid, oldest first. */
export function payableGuestInvoices(
  db: Db,
  ticketId: string,
  now: number,
): Promise<{ id: string; amount_cents: number }[]> {
  return db
    .selectFrom('payments')
    .select(['id', 'amount_cents'])
    .where('ticket_id', '=', ticketId)
    .where('method', '=', LIGHTNING)
    .where('status', '=', sql.lit('pending'))
    .where('source', '=', 'guest')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findPaymentByHash(db: Db, paymentHash: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('payment_hash', '=', paymentHash).executeTakeFirst();
}

/** The node's invoice fills the reserved row. */
export async function fillInvoice(
  db: Db,
  id: string,
  invoice: { paymentHash: string; serialized: string; expiresAt: number },
): Promise<void> {
  await db
    .updateTable('payments')
    .set({ payment_hash: invoice.paymentHash, invoice: invoice.serialized, expires_at: invoice.expiresAt })
    .where('id', '=', id)
    .execute();
}

/** Removes a reservation whose invoice was never made. */
export async function deleteReservation(db: Db, id: string): Promise<void> {
  await db.deleteFrom('payments').where('id', '=', id).where('payment_hash', 'is', null).execute();
}

/**
 * Settles a pending or expired Lightning payment; false when another settlement got there first.
 * The condition on the status is what makes settlement happen once.
 */
export async function markSettled(
  db: Db,
  id: string,
  arrived: { receivedSat: number; feesMsat: number | null },
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('payments')
    .set({
      status: 'settled',
      received_sat: arrived.receivedSat,
      fees_msat: arrived.feesMsat,
      settled_at: now,
    })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'expired'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** False when the payment is no longer pending. */
export async function markExpired(db: Db, id: string): Promise<boolean> {
  const result = await db
    .updateTable('payments')
    .set({ status: 'expired' })
    .where('id', '=', id)
    .where('status', '=', sql.lit('pending'))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Claims up to `limit` Lightning payments to ask the node about: pending ones with an invoice, and
 * ones that expired within `lateWindowMs` (a payment made just before expiry may be reported late).
 * A claim holds for `claimMs`, so other instances skip these rows meanwhile.
 */
export async function claimForSweep(
  db: Db,
  options: { now: number; lateWindowMs: number; claimMs: number; limit: number },
): Promise<PaymentRow[]> {
  const { now, lateWindowMs, claimMs, limit } = options;
  return db.transaction().execute(async (trx) => {
    const candidates = await trx
      .selectFrom('payments')
      .select('id')
      .where('method', '=', LIGHTNING)
      .where('payment_hash', 'is not', null)
      .where((eb) =>
        eb.or([
          eb('status', '=', sql.lit('pending')),
          eb.and([eb('status', '=', 'expired'), eb('expires_at', '>', now - lateWindowMs)]),
        ]),
      )
      .where((eb) => eb.or([eb('swept_until', 'is', null), eb('swept_until', '<=', now)]))
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    if (candidates.length === 0) return [];
    // The condition is repeated so that of two instances claiming the same row only one gets it.
    return trx
      .updateTable('payments')
      .set({ swept_until: now + claimMs })
      .where(
        'id',
        'in',
        candidates.map((row) => row.id),
      )
      .where((eb) => eb.or([eb('swept_until', 'is', null), eb('swept_until', '<=', now)]))
      .returningAll()
      .execute();
  });
}

/** Lets the next sweep, here or on another instance, ask about these rows again. */
export async function releaseSweepClaims(db: Db, ids: string[], claimedUntil: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('payments')
    .set({ swept_until: null })
    .where('id', 'in', ids)
    .where('swept_until', '=', claimedUntil)
    .execute();
}

/** Reservations whose invoice was never made (the instance stopped mid-request) block their bill. */
export async function deleteAbandonedReservations(db: Db, createdBefore: number): Promise<void> {
  await db
    .deleteFrom('payments')
    .where('method', '=', LIGHTNING)
    .where('status', '=', sql.lit('pending'))
    .where('payment_hash', 'is', null)
    .where('created_at', '<', createdBefore)
    .execute();
}

export async function tableNameOfOrder(db: Db, orderId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('orders')
    .innerJoin('dining_tables', 'dining_tables.id', 'orders.table_id')
    .select('dining_tables.name')
    .where('orders.id', '=', orderId)
    .executeTakeFirst();
  return row?.name;
}

const UNSETTLED = ['pending', 'expired'] as const;

/** When the oldest invoice that may still be paid (pending or expired) was made; undefined when none. */
export async function oldestUnsettledCreatedAt(db: Db): Promise<number | undefined> {
  const row = await db
    .selectFrom('payments')
    .select((eb) => eb.fn.min<number>('created_at').as('oldest'))
    .where('method', '=', LIGHTNING)
    .where('payment_hash', 'is not', null)
    .where('status', 'in', UNSETTLED)
    .executeTakeFirst();
  return row?.oldest === null || row?.oldest === undefined ? undefined : Number(row.oldest);
}

/** Which of these payment hashes are our Lightning payments still pending or expired. */
export async function unsettledHashesAmong(db: Db, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await db
    .selectFrom('payments')
    .select('payment_hash')
    .where('payment_hash', 'in', hashes)
    .where('method', '=', LIGHTNING)
    .where('status', 'in', UNSETTLED)
    .execute();
  return new Set(rows.map((row) => row.payment_hash as string));
}

/**
 * Claims the catch-up until `claimUntil` unless another instance holds it; answers how far the
 * node's paid payments were already read.
 */
export async function claimCatchUp(
  db: Db,
  now: number,
  claimUntil: number,
): Promise<{ seenUntil: number; claimedUntil: number } | undefined> {
  const row = await db
    .updateTable('lightning_catch_up')
    .set({ claimed_until: claimUntil })
    .where('id', '=', 1)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
    .returning('seen_until')
    .executeTakeFirst();
  return row && { seenUntil: Number(row.seen_until), claimedUntil: claimUntil };
}

/**
 * Records how far the node's paid payments were read and lets the next catch-up, here or elsewhere,
 * read. Nothing happens when the claim lapsed and another instance took it: its cursor stands.
 */
export async function releaseCatchUp(db: Db, claimedUntil: number, seenUntil: number): Promise<void> {
  await db
    .updateTable('lightning_catch_up')
    .set({ claimed_until: null, seen_until: seenUntil })
    .where('id', '=', 1)
    .where('claimed_until', '=', claimedUntil)
    .execute();
}
