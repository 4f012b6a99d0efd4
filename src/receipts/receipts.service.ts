import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { TICKET_STATUS } from '../core/db/ticket-status';
import { BadRequestError, NotFoundError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import { taxShareCents } from '../core/money';
import { findDocument, includedTaxCents, receiptBeforePaper } from '../fiscal/fiscal.api';
import { authorize } from '../permissions/permissions.api';
import type { ReceiptWidth } from '../printing/printing.api';
import * as printers from '../printing/printing.api';
import {
  enqueuePrintJob,
  escposOf,
  formatPaperDate,
  formatPaperDateTime,
  hasReceiptJobInStatus,
  NO_RECEIPT_PRINTER,
  paperWords,
  paymentMethodName,
} from '../printing/printing.api';
import { loadSettings, type Settings } from '../settings/settings.api';
import * as receipts from '../tickets/tickets.api';
import { mintGuestLink } from '../tickets/tickets.api';
import { type Receipt, type ReceiptLine, receiptPaper, receiptText } from './receipt-layout';

const STATUS_NAMES = { 1: 'pending', 2: 'paid', 3: 'canceled' } as const;

export async function getReceiptText(
  ctx: AppContext,
  ticketId: string,
  width: ReceiptWidth,
): Promise<string> {
  await receiptBeforePaper(ctx, ticketId);
  const settings = await loadSettings(ctx.db);
  const receipt = await buildReceipt(ctx.db, settings, ticketId, false);
  return receiptText({ ...receipt, guestUrl: await guestUrlOf(ctx.db, ctx, receipt) }, width);
}

export async function getReceiptEscpos(
  ctx: AppContext,
  ticketId: string,
  width: ReceiptWidth,
): Promise<Uint8Array> {
  await receiptBeforePaper(ctx, ticketId);
  const built = await buildReceipt(ctx.db, await loadSettings(ctx.db), ticketId, false);
  const paper = receiptPaper({ ...built, guestUrl: await guestUrlOf(ctx.db, ctx, built) }, width);
  return escposOf(paper.lines, width, paper.qr);
}

/**
 * Queues the bill's receipt for the receipt printer at that printer's paper width. The answer comes
 * at once; the job is sent (and retried while the printer is off) in the background.
 */
export async function printReceipt(
  ctx: AppContext,
  principal: Principal,
  ticketId: string,
  claim: IdempotencyClaim | undefined,
): Promise<{ jobId: string }> {
  authorize(principal, 'receipts.print');
  await receiptBeforePaper(ctx, ticketId);
  const settings = await loadSettings(ctx.db);
  const now = ctx.clock.now();
  return inIdempotentTransaction(ctx.db, { claim, statusCode: 202, now }, async (trx) => {
    const built = await buildReceipt(trx, settings, ticketId, true);
    const printer = await printers.lockReceiptPrinter(trx);
    if (!printer) throw new BadRequestError(NO_RECEIPT_PRINTER);
    const receipt = { ...built, guestUrl: await guestUrlOf(trx, ctx, built) };
    const width = Number(printer.width);
    const paper = receiptPaper(receipt, width);
    const bytes = escposOf(paper.lines, width, paper.qr);
    const jobId = await enqueuePrintJob(
      trx,
      {
        printerId: printer.id,
        kind: 'receipt',
        bytes,
        ticket: { id: ticketId, status: TICKET_STATUS[receipt.status] },
      },
      now,
    );
    return { jobId };
  });
}

/**
 * The guest check and the paid receipt carry a link of their own to the bill's guest page (only the
 * hash of a token is kept, so an earlier link cannot be printed again); a canceled bill none, and
 * none without POS_PUBLIC_URL.
 */
async function guestUrlOf(db: Db, ctx: AppContext, receipt: Receipt): Promise<string | null> {
  if (ctx.config.publicUrl === undefined || receipt.status === 'canceled') return null;
  return (await mintGuestLink(db, ctx, receipt.billId)).url;
}

/**
 * `printing`: the receipt goes to paper, so it is marked as a reprint when this bill's receipt was
 * already queued in the bill's present state (a guest check before payment does not make the paid
 * receipt a reprint). The preview is never marked.
 */
export async function buildReceipt(
  db: Db,
  settings: Settings,
  ticketId: string,
  printing: boolean,
): Promise<Receipt> {
  const bill = await receipts.findBillHeader(db, ticketId);
  if (!bill) throw new NotFoundError();
  const status = Number(bill.status) as keyof typeof STATUS_NAMES;
  const subtotalCents = Number(bill.subtotal_cents);
  const totalCents = Number(bill.total_cents);
  const payments = await receipts.findBillPayments(db, ticketId);
  const dishLines = billLines(
    await receipts.findBillPlates(db, ticketId),
    await receipts.findBillModifiers(db, ticketId),
  );
  return {
    locale: settings.locale,
    reprint: printing && (await hasReceiptJobInStatus(db, ticketId, status)),
    business: {
      name: settings.businessName,
      address: settings.address,
      phone: settings.phone,
      taxId: settings.taxId,
    },
    billId: bill.id,
    orderId: bill.order_id,
    status: STATUS_NAMES[status],
    tableName: bill.table_name,
    seat: onlySeat(dishLines),
    waiter: bill.waiter,
    date: formatPaperDateTime(settings.locale, Number(bill.paid_at ?? bill.created_at), settings.timeZone),
    currency: settings.baseCurrency,
    // A bill split by amount covers money, not dishes.
    lines:
      dishLines.length > 0
        ? dishLines
        : [{ name: paperWords(settings.locale).shareOfOrder, quantity: 1, amountCents: subtotalCents }],
    subtotalCents,
    discountCents: Number(bill.discount_cents),
    totalCents,
    tax:
      settings.taxRateBasisPoints > 0
        ? {
            ratePercent: settings.taxRateBasisPoints / 100,
            cents: settings.pricesIncludeTax
              ? await includedTaxCents(db, ticketId, totalCents, settings.taxRateBasisPoints)
              : taxShareCents(totalCents, settings.taxRateBasisPoints, false),
            isIncluded: settings.pricesIncludeTax,
          }
        : null,
    payments: payments.map((payment) => ({
      method: paymentMethodName(paperWords(settings.locale), payment.method, payment.method_name),
      amountCents: Number(payment.amount_cents),
      refundedCents: Number(payment.refunded_cents),
      lightning:
        payment.rate === null
          ? null
          : // What the guest's wallet paid: the node's liquidity fee comes out of the restaurant's
            // side afterwards and is shown only in the Z report.
            { amountSat: Number(payment.amount_sat), rate: Number(payment.rate) },
    })),
    tipCents: payments.reduce((sum, payment) => sum + Number(payment.tip_cents), 0),
    cashReceivedCents: payments
      .filter((payment) => payment.method === 'cash')
      .reduce((sum, payment) => sum + Number(payment.tendered_cents ?? 0), 0),
    changeCents: payments.reduce((sum, payment) => sum + Number(payment.change_cents ?? 0), 0),
    balanceCents: status === TICKET_STATUS.pending ? Math.max(totalCents - Number(bill.paid_cents), 0) : 0,
    footer: settings.receiptFooter,
    guestUrl: null,
    selfInvoice: status === TICKET_STATUS.paid ? await selfInvoiceOf(db, settings, ticketId) : null,
  };
}

/** The PAC's self-invoice page of a paid bill whose receipt is made, with its last day on paper. */
async function selfInvoiceOf(
  db: Db,
  settings: Settings,
  ticketId: string,
): Promise<{ url: string; until: string | null } | null> {
  const doc = await findDocument(db, ticketId);
  if (doc?.state !== 'receipt' || doc.self_invoice_url === null) return null;
  return {
    url: doc.self_invoice_url,
    until:
      doc.expires_at === null
        ? null
        : formatPaperDate(settings.locale, Number(doc.expires_at), settings.timeZone),
  };
}

/** The one seat all the lines are for, if they are all for one. */
function onlySeat(lines: ReceiptLine[]): number | null {
  const seats = new Set(lines.map((line) => line.seat ?? null));
  const [seat] = seats;
  return seats.size === 1 && seat !== undefined ? seat : null;
}

/**
 * Plates of the same dish, price, options and seat become one line with how many, first ordered first.
 * The line shows the dish's part of the price and each option its delta, so a guest sees what the
 * extras cost and the lines still add up to the bill.
 */
function billLines(
  plates: { id: string; dish_id: string; name: string; price_cents: number; seat: number | null }[],
  choices: { order_dish_id: string; name: string; price_delta_cents: number }[],
): ReceiptLine[] {
  const optionsOf = new Map<string, { name: string; cents: number }[]>();
  for (const choice of choices) {
    const option = { name: choice.name, cents: Number(choice.price_delta_cents) };
    optionsOf.set(choice.order_dish_id, [...(optionsOf.get(choice.order_dish_id) ?? []), option]);
  }
  const lines = new Map<
    string,
    ReceiptLine & { dishCents: number; options: { name: string; cents: number }[] }
  >();
  for (const plate of plates) {
    const options = optionsOf.get(plate.id) ?? [];
    const seat = plate.seat === null ? null : Number(plate.seat);
    const key = JSON.stringify([plate.dish_id, Number(plate.price_cents), options, seat]);
    const dishCents = Number(plate.price_cents) - options.reduce((sum, option) => sum + option.cents, 0);
    const found = lines.get(key);
    if (found) found.quantity += 1;
    else lines.set(key, { name: plate.name, quantity: 1, amountCents: 0, seat, dishCents, options });
  }
  return [...lines.values()].map(({ dishCents, options, ...line }) => ({
    ...line,
    amountCents: line.quantity * dishCents,
    modifiers: options.map((option) => ({
      name: option.name,
      amountCents: option.cents === 0 ? null : line.quantity * option.cents,
    })),
  }));
}
