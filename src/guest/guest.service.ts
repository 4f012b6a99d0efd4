import type { AppContext } from '../core/context';
import { TICKET_STATUS } from '../core/db/ticket-status';
import { ConflictError, NotFoundError, ServiceUnavailableError } from '../core/errors';
import { claimKey, heldKey, type IdempotencyClaim } from '../core/idempotency';
import { releaseKey, storeResponse } from '../core/idempotency.repo';
import { fromCents, taxShareCents } from '../core/money';
import {
  guestDownloadKey,
  guestInvoiceOffer,
  includedTaxCents,
  invoiceTicket,
  ticketInvoiceFile,
} from '../fiscal/fiscal.api';
import type { InvoiceBody } from '../fiscal/fiscal.schemas';
import { findPayment, makeInvoice, payableInvoicesCents, reserveIn } from '../payments/payments.api';
import { buildReceipt, receiptText } from '../receipts/receipts.api';
import { loadSettings } from '../settings/settings.api';
import * as receipts from '../tickets/tickets.api';
import { ticketOfToken } from '../tickets/tickets.api';
import { NOT_CONFIGURED } from '../wallet/wallet.api';
import type {
  GuestBillView,
  GuestInvoiceView,
  GuestLightningBody,
  GuestPaymentView,
  GuestTaxInvoiceView,
} from './guest.schemas';
import { seatShares } from './seat-shares';

const RECEIPT_WIDTH = 48;
const BEING_CREATED = 'This payment is being created: try again';

/** The bill as its guest page shows it: what a paper check shows, nothing of the staff's. */
export async function getGuestBill(ctx: AppContext, token: string): Promise<GuestBillView> {
  const now = ctx.clock.now();
  const ticketId = await ticketOfToken(ctx.db, token, now);
  const settings = await loadSettings(ctx.db);
  const bill = await receipts.findBillHeader(ctx.db, ticketId);
  if (!bill) throw new Error(`the bill ${ticketId} of a live guest link vanished`);
  const plates = await receipts.findBillPlates(ctx.db, ticketId);
  const options = await receipts.findBillModifiers(ctx.db, ticketId);
  const totalCents = Number(bill.total_cents);
  const paidCents = Number(bill.paid_cents);
  const status = Number(bill.status) as 1 | 2 | 3;
  const balanceCents = status === TICKET_STATUS.pending ? Math.max(totalCents - paidCents, 0) : 0;
  const pendingCents = balanceCents > 0 ? await payableInvoicesCents(ctx.db, ticketId, now) : 0;
  return {
    restaurant: settings.businessName || ctx.config.businessName,
    table: bill.table_name,
    waiter_first_name: firstName(bill.waiter),
    currency: settings.baseCurrency,
    timezone: settings.timeZone,
    plates: plates.map((plate) => ({
      name: plate.name,
      options: options.filter((option) => option.order_dish_id === plate.id).map((option) => option.name),
      seat: plate.seat === null ? null : Number(plate.seat),
      price: fromCents(Number(plate.price_cents)),
    })),
    seats: seatShares(
      plates.map((plate) => ({
        seat: plate.seat === null ? null : Number(plate.seat),
        priceCents: Number(plate.price_cents),
      })),
      totalCents,
    ).map((share) => ({ seat: share.seat, total: fromCents(share.cents) })),
    subtotal: fromCents(Number(bill.subtotal_cents)),
    discounts: fromCents(Number(bill.discount_cents)),
    tax_included: fromCents(
      settings.pricesIncludeTax
        ? await includedTaxCents(ctx.db, ticketId, totalCents, settings.taxRateBasisPoints)
        : taxShareCents(totalCents, settings.taxRateBasisPoints, false),
    ),
    total: fromCents(totalCents),
    paid: fromCents(paidCents),
    balance: fromCents(balanceCents),
    payable: fromCents(Math.max(balanceCents - pendingCents, 0)),
    status,
    tip_suggestions: [...settings.tipSuggestions],
    max_tip_percent: settings.maxTipPercent,
    lightning: ctx.lightning !== undefined,
    invoice: await guestInvoiceOffer(ctx, ticketId),
  };
}

/**
 * A guest's Lightning invoice for (part of) the bill: the till's Lightning bill payment (rate lock,
 * settlement by webhook, lookup or sweep, late money recorded), made by nobody on the staff. The
 * `Idempotency-Key` is claimed with the reservation and answered once the node made the invoice, so
 * a phone that lost the answer gets the same invoice back; a node failure frees the key again.
 */
export async function requestGuestLightning(
  ctx: AppContext,
  token: string,
  input: GuestLightningBody,
  claim: IdempotencyClaim | undefined,
): Promise<GuestInvoiceView> {
  const ticketId = await ticketOfToken(ctx.db, token, ctx.clock.now());
  if (!ctx.lightning) throw new ServiceUnavailableError(NOT_CONFIGURED);
  const settings = await loadSettings(ctx.db);
  const rate = await ctx.rates.current(settings.baseCurrency);
  const payer = { source: 'guest', maxTipPercent: settings.maxTipPercent } as const;
  type Outcome = { replay: GuestInvoiceView } | { reservation: Awaited<ReturnType<typeof reserveIn>> };
  const outcome = await ctx.db.transaction().execute(async (trx): Promise<Outcome> => {
    if (claim && !(await claimKey(trx, claim, ctx.clock.now()))) {
      const stored = await heldKey(trx, claim);
      if (!stored?.response_body) throw new ConflictError(BEING_CREATED);
      return { replay: JSON.parse(stored.response_body) as GuestInvoiceView };
    }
    return { reservation: await reserveIn(trx, ctx, payer, ticketId, input, rate) };
  });
  if ('replay' in outcome) return outcome.replay;
  let answer: GuestInvoiceView;
  try {
    const payment = await makeInvoice(ctx, outcome.reservation, {});
    const lightning = payment.lightning;
    if (!lightning?.expires_at) throw new Error(`the invoice of ${payment.id} was not stored`);
    answer = {
      payment_id: payment.id,
      bolt11: lightning.invoice,
      amount_sat: lightning.amount_sat,
      amount: payment.amount,
      tip: payment.tip,
      expires_at: lightning.expires_at,
    };
  } catch (error) {
    if (claim) await releaseKey(ctx.db, claim);
    throw error;
  }
  if (claim) await storeResponse(ctx.db, claim, 201, JSON.stringify(answer));
  return answer;
}

/**
 * The digital receipt: the lines of the paper one, the waiter by first name as the guest page says it.
 * Every phone of the table reads it, so it leaves out the tips, and what would tell them (the cash
 * handed over, the sats a wallet paid with its tip): each phone shows the tip it paid itself.
 */
export async function getGuestReceipt(ctx: AppContext, token: string): Promise<string> {
  const ticketId = await ticketOfToken(ctx.db, token, ctx.clock.now());
  const receipt = await buildReceipt(ctx.db, await loadSettings(ctx.db), ticketId, false);
  return receiptText(
    {
      ...receipt,
      waiter: firstName(receipt.waiter),
      payments: receipt.payments.map((payment) => ({ ...payment, lightning: null })),
      tipCents: 0,
      cashReceivedCents: 0,
      changeCents: 0,
    },
    RECEIPT_WIDTH,
  );
}

/** The guest's own e-invoice request: the till's, made by nobody on the staff. */
export async function invoiceGuestBill(
  ctx: AppContext,
  token: string,
  body: InvoiceBody,
): Promise<GuestTaxInvoiceView> {
  const invoice = await invoiceTicket(ctx, null, await ticketOfToken(ctx.db, token, ctx.clock.now()), body);
  return { uuid: invoice.uuid, total: invoice.total, download_key: guestDownloadKey(ctx, invoice.id) };
}

export async function guestInvoiceFile(
  ctx: AppContext,
  token: string,
  format: 'pdf' | 'xml',
  key: string | undefined,
): Promise<{ bytes: Buffer; filename: string }> {
  return ticketInvoiceFile(ctx, await ticketOfToken(ctx.db, token, ctx.clock.now()), format, key);
}

/** Guests see no more of the staff than a first name. */
function firstName(fullName: string): string {
  return fullName.trim().split(/\s+/)[0] ?? '';
}

/**
 * Whether a guest's own invoice was paid: the bill's paid amount cannot say it when several guests pay
 * at once. Only the stored state (the webhook, a staff lookup or the sweep settles it), so a page
 * polling every second never reaches the node. Only the guest payments of the link's bill.
 */
export async function getGuestPayment(
  ctx: AppContext,
  token: string,
  paymentId: string,
): Promise<GuestPaymentView> {
  const now = ctx.clock.now();
  const ticketId = await ticketOfToken(ctx.db, token, now);
  const payment = await findPayment(ctx.db, paymentId);
  if (!payment || payment.ticket_id !== ticketId || payment.source !== 'guest') {
    throw new NotFoundError('Resource not found');
  }
  if (payment.status === 'pending') {
    const isPastExpiry = payment.expires_at !== null && Number(payment.expires_at) <= now;
    return { status: isPastExpiry ? 'expired' : 'pending' };
  }
  return { status: payment.status === 'expired' ? 'expired' : 'settled' };
}
