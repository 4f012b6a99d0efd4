import { setTimeout as sleep } from 'node:timers/promises';
import type { Principal } from '../core/auth-guard';
import type { AppContext, ExchangeRate } from '../core/context';
import type { Db } from '../core/db/database';
import { isUniqueViolation } from '../core/db/locks';
import { TICKET_STATUS } from '../core/db/ticket-status';
import { BadRequestError, ConflictError, ServiceUnavailableError } from '../core/errors';
import { newId } from '../core/ids';
import { fromCents, toCents } from '../core/money';
import { recordEvent } from '../events/events.api';
import { authorize } from '../permissions/permissions.api';
import { loadSettings } from '../settings/settings.api';
import { shiftForRecording } from '../shifts/shifts.api';
import { lockTicketWithOrder } from '../tickets/tickets.api';
import { callNode, NOT_CONFIGURED } from '../wallet/wallet.api';
import * as lightning from './lightning.repo';
import { reconcile } from './lightning-settlement.service';
import { toPaymentView } from './payment-views';
import * as payments from './payments.repo';
import type { LightningBillBody, PaymentView } from './payments.schemas';

export const DEFAULT_EXPIRY_SECONDS = 900;
/** phoenixd refuses longer invoice descriptions. */
const MAX_DESCRIPTION = 128;
const SATS_PER_BTC = 100_000_000n;
const ATTEMPTS = 3;
const RESERVATION_POLL_MS = 50;

export type LightningBill = { isNew: boolean; payment: PaymentView };

/**
 * Satoshis for an amount in base-currency cents at `btcPrice` (1 BTC in the base currency, at most
 * two decimals used), rounded up so the restaurant never receives less than it asked. With BTC as
 * the base currency the price is 1 and a cent is 0.01 BTC = 1,000,000 sat.
 */
export function centsToSats(cents: number, btcPrice: number): number {
  const priceCents = BigInt(Math.round(btcPrice * 100));
  if (priceCents <= 0n) throw new Error('a BTC price must be positive');
  const numerator = BigInt(cents) * SATS_PER_BTC;
  return Number((numerator + priceCents - 1n) / priceCents);
}

/**
 * Asks the node for an invoice for (part of) a bill. A bill has at most one pending Lightning
 * payment (a partial unique index): asking again while it is unexpired answers the same payment.
 * The database transaction never spans the node call: the payment row is reserved first (which is
 * what the index arbitrates between two waiters), then the node makes the invoice, then the row is
 * filled; a node failure removes the reservation, so nothing is left behind.
 */
export async function requestLightningPayment(
  ctx: AppContext,
  principal: Principal,
  ticketId: string,
  input: LightningBillBody,
): Promise<LightningBill> {
  authorize(principal, 'payments.take');
  if (!ctx.lightning) throw new ServiceUnavailableError(NOT_CONFIGURED);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const existing = await currentPending(ctx, ticketId);
    if (existing) return { isNew: false, payment: existing };
    const rate = await ctx.rates.current((await loadSettings(ctx.db)).baseCurrency);
    const reserved = await reserve(ctx, { source: 'staff', principal }, ticketId, input, rate);
    if (reserved) return { isNew: true, payment: await makeInvoice(ctx, reserved, input) };
  }
  throw new ConflictError('Another Lightning payment of this bill is being created: try again');
}

/**
 * The bill's pending, unexpired Lightning payment, waiting for one being created by another
 * request. One past its expiry is first brought up to date with the node (settled or expired).
 */
async function currentPending(ctx: AppContext, ticketId: string): Promise<PaymentView | undefined> {
  const deadline = Date.now() + ctx.config.phoenixd.timeoutMs + 1000;
  for (;;) {
    const pending = await lightning.findPendingLightning(ctx.db, ticketId);
    if (!pending) return undefined;
    if (pending.invoice === null) {
      if (Date.now() > deadline) {
        throw new ConflictError('Another Lightning payment of this bill is being created: try again');
      }
      await sleep(RESERVATION_POLL_MS);
      continue;
    }
    if (Number(pending.expires_at) > ctx.clock.now()) return toPaymentView(pending);
    await reconcile(ctx, pending);
    const after = await payments.findPayment(ctx.db, pending.id);
    if (after?.status === 'pending') {
      throw new ConflictError('The Lightning payment of this bill is expiring: try again');
    }
  }
}

type Reservation = { id: string; ticketId: string; orderId: string; amountSat: number };

/**
 * Who asks for the invoice: a staff user (the till's rule, one pending invoice per bill, held by a
 * partial unique index), or a guest from the bill's guest page. Guests may each have an invoice of
 * their own, so for them the bill's row lock holds the rule instead: the pending invoices that may
 * still be paid and the payments never add up to more than the bill.
 */
export type LightningPayer =
  | { source: 'staff'; principal: Principal }
  | { source: 'guest'; maxTipPercent: number };

/** Inserts the pending row without an invoice; undefined when another request reserved first. */
async function reserve(
  ctx: AppContext,
  payer: LightningPayer,
  ticketId: string,
  input: LightningBillBody,
  rate: ExchangeRate,
): Promise<Reservation | undefined> {
  try {
    return await ctx.db.transaction().execute((trx) => reserveIn(trx, ctx, payer, ticketId, input, rate));
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

/** The reservation inside the caller's transaction, under the bill's row lock. */
export async function reserveIn(
  trx: Db,
  ctx: AppContext,
  payer: LightningPayer,
  ticketId: string,
  input: LightningBillBody,
  rate: ExchangeRate,
): Promise<Reservation> {
  const now = ctx.clock.now();
  const ticket = await lockTicketWithOrder(trx, ticketId);
  if (Number(ticket.status) === TICKET_STATUS.canceled) throw new BadRequestError('Ticket is canceled');
  if (Number(ticket.status) === TICKET_STATUS.paid) throw new BadRequestError('Ticket is already paid');
  const owedCents = Number(ticket.total_cents) - Number(ticket.paid_cents);
  const balanceCents =
    payer.source === 'guest'
      ? owedCents - (await lightning.payableInvoicesCents(trx, ticketId, now))
      : await uncoveredByGuests(trx, ticketId, owedCents, input, now);
  const amountCents = input.amount === undefined ? balanceCents : toCents(input.amount);
  if (amountCents <= 0) throw new BadRequestError('Nothing left to pay');
  if (amountCents > balanceCents) throw new BadRequestError('Amount exceeds the balance');
  const tipCents = toCents(input.tip ?? 0);
  if (payer.source === 'guest' && tipCents * 100 > amountCents * payer.maxTipPercent) {
    throw new BadRequestError(`The tip is at most ${payer.maxTipPercent}% of the amount`);
  }
  const btcPrice = Math.round(rate.btcPrice * 100) / 100;
  const amountSat = centsToSats(amountCents + tipCents, btcPrice);
  const id = newId();
  await payments.insertPayment(trx, {
    id,
    ticket_id: ticketId,
    method: 'lightning',
    amount_cents: amountCents,
    tip_cents: tipCents,
    tendered_cents: null,
    change_cents: null,
    status: 'pending',
    created_by: payer.source === 'staff' ? payer.principal.id : null,
    created_at: now,
    settled_at: null,
    amount_sat: amountSat,
    rate: btcPrice,
    payment_hash: null,
    invoice: null,
    expires_at: null,
    received_sat: null,
    shift_id: payer.source === 'staff' ? await shiftForRecording(trx, payer.principal.id, false) : null,
    source: payer.source,
  });
  return { id, ticketId, orderId: ticket.order_id, amountSat };
}

/**
 * What the till may still ask for: the balance less the guests' invoices that may still be paid, so
 * the till's invoice and theirs never together ask for more than the bill (the bill's row lock,
 * held by the caller, orders this against every guest's request). The till's amount defaults to
 * that; asking for more while a guest's invoice covers it is a conflict that names the invoice, so
 * the cashier can wait for it or cancel it (POST /payments/{id}/cancel).
 */
async function uncoveredByGuests(
  trx: Db,
  ticketId: string,
  owedCents: number,
  input: LightningBillBody,
  now: number,
): Promise<number> {
  const guests = await lightning.payableGuestInvoices(trx, ticketId, now);
  if (guests.length === 0) return owedCents;
  const uncoveredCents = owedCents - guests.reduce((sum, guest) => sum + Number(guest.amount_cents), 0);
  const askedCents = input.amount === undefined ? uncoveredCents : toCents(input.amount);
  if (askedCents <= uncoveredCents && askedCents > 0) return uncoveredCents;
  const [first] = guests;
  throw new ConflictError(
    `A guest's Lightning invoice is pending on this bill: payment ${first?.id} for ` +
      `${fromCents(Number(first?.amount_cents)).toFixed(2)}; ${fromCents(Math.max(uncoveredCents, 0)).toFixed(2)} ` +
      'is left to ask for',
  );
}

export async function makeInvoice(
  ctx: AppContext,
  reservation: Reservation,
  input: LightningBillBody,
): Promise<PaymentView> {
  const expirySeconds = input.expiry_seconds ?? DEFAULT_EXPIRY_SECONDS;
  let invoice: Awaited<ReturnType<NonNullable<AppContext['lightning']>['createInvoice']>>;
  try {
    const description = await describe(ctx, reservation.orderId);
    invoice = await callNode(ctx, (node) =>
      node.createInvoice({
        description,
        amountSat: reservation.amountSat,
        externalId: reservation.id,
        expirySeconds,
        webhookUrl: ctx.config.phoenixd.webhookUrl,
      }),
    );
  } catch (error) {
    await lightning.deleteReservation(ctx.db, reservation.id);
    throw error;
  }
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    await lightning.fillInvoice(trx, reservation.id, {
      paymentHash: invoice.paymentHash.toLowerCase(),
      serialized: invoice.serialized,
      expiresAt: now + expirySeconds * 1000,
    });
    const row = await payments.findPayment(trx, reservation.id);
    if (!row) throw new Error(`reserved payment ${reservation.id} vanished`);
    const view = toPaymentView(row);
    await recordEvent(trx, { type: 'payment.pending', data: view, at: now });
    return view;
  });
}

/** What the customer's wallet shows: the business and the table. */
async function describe(ctx: AppContext, orderId: string): Promise<string> {
  const table = await lightning.tableNameOfOrder(ctx.db, orderId);
  const text =
    table === undefined ? `${ctx.config.businessName} bill` : `${ctx.config.businessName}, table ${table}`;
  return text.slice(0, MAX_DESCRIPTION);
}
