import { shortCode } from '../core/ids';
import {
  centered,
  formatCount,
  formatPercent,
  indented,
  moneyFormatter,
  type PaperWords,
  pair,
  paperWords,
  rule,
  tableLabel,
  wrap,
} from '../printing/printing.api';
import type { PaperLocale } from '../settings/settings.api';

/** Everything a receipt shows, already worked out: amounts in cents, the date in the restaurant's zone. */
export type Receipt = {
  /** The restaurant's language: the words, and how amounts are written. */
  locale: PaperLocale;
  /** Printed before for the bill as it stands now: marked so it does not count twice. */
  reprint: boolean;
  business: { name: string; address: string; phone: string; taxId: string };
  billId: string;
  orderId: string;
  status: 'pending' | 'paid' | 'canceled';
  tableName: string | null;
  /** The seat whose plates are all the bill's (a bill by seat): the bill is named by it. */
  seat: number | null;
  waiter: string;
  /** e.g. `22/11/2026 12:00`, local to the restaurant and written in its language. */
  date: string;
  currency: string;
  /**
   * One per dish, price, options and seat. `amountCents` = quantity × the dish's part of the price;
   * each option's `amountCents` = quantity × its delta (null when it costs nothing), so the lines add
   * up to the subtotal.
   */
  lines: ReceiptLine[];
  subtotalCents: number;
  discountCents: number;
  totalCents: number;
  tax: { ratePercent: number; cents: number; isIncluded: boolean } | null;
  payments: {
    method: string;
    amountCents: number;
    refundedCents: number;
    lightning: { amountSat: number; rate: number } | null;
  }[];
  tipCents: number;
  /** The cash handed over for the cash payments, where the till recorded it; 0 otherwise. */
  cashReceivedCents: number;
  changeCents: number;
  /** What is still owed; 0 once paid. */
  balanceCents: number;
  footer: string;
  /** The bill's guest page (a QR on paper, with the address under it); null without POS_PUBLIC_URL. */
  guestUrl: string | null;
  /**
   * Where the guest invoices this paid bill on the PAC's self-invoice page, and until when (local,
   * written in the paper's language); null when e-invoicing is off or the receipt is not made yet.
   */
  selfInvoice: { url: string; until: string | null } | null;
};

export type ReceiptLine = {
  name: string;
  quantity: number;
  amountCents: number;
  seat?: number | null;
  modifiers?: { name: string; amountCents: number | null }[];
};

/** How one receipt writes its words and amounts. */
type Paper = { words: PaperWords; money: (cents: number) => string };

/** The receipt as lines, and before which of them paper prints the QR of the guest page, if any. */
export type ReceiptPaper = { lines: string[]; qr: { value: string; beforeLine: number } | null };

/** The receipt as lines of at most `width` characters. */
export function receiptLines(receipt: Receipt, width: number): string[] {
  return receiptPaper(receipt, width).lines;
}

export function receiptPaper(receipt: Receipt, width: number): ReceiptPaper {
  const paper: Paper = {
    words: paperWords(receipt.locale),
    money: moneyFormatter(receipt.locale, receipt.currency),
  };
  const body = [...bodyLines(receipt, paper, width), ...selfInvoiceLines(receipt, paper, width)];
  // The guest page offers the invoice too; without it, the QR is the self-invoice page's.
  const qrUrl = receipt.guestUrl ?? receipt.selfInvoice?.url ?? null;
  if (!qrUrl) return { lines: [...body, ...footer(receipt, width)], qr: null };
  const link = [
    rule(width),
    ...centered(receipt.guestUrl ? paper.words.scanToPay : paper.words.scanToInvoice, width),
  ];
  const beforeLine = body.length + link.length;
  return {
    lines: [...body, ...link, ...addressLines(qrUrl, width), ...footer(receipt, width)],
    qr: { value: qrUrl, beforeLine },
  };
}

/** An address longer than the paper is cut into pieces rather than at a word, so it reads whole. */
function addressLines(url: string, width: number): string[] {
  return url.match(new RegExp(`.{1,${width}}`, 'g')) ?? [];
}

/** "Invoice your meal at <address>, until <date>": Mexico's autofacturación, printed on the paid receipt. */
function selfInvoiceLines(receipt: Receipt, paper: Paper, width: number): string[] {
  const { selfInvoice } = receipt;
  if (!selfInvoice) return [];
  return [
    rule(width),
    ...centered(paper.words.selfInvoice, width),
    ...addressLines(selfInvoice.url, width),
    ...(selfInvoice.until ? centered(`${paper.words.invoiceUntil} ${selfInvoice.until}`, width) : []),
  ];
}

function bodyLines(receipt: Receipt, paper: Paper, width: number): string[] {
  const { words, money } = paper;
  return [
    ...header(receipt, paper, width),
    rule(width),
    ...receipt.lines.flatMap((line) => [
      ...pair(
        `${line.quantity} x ${line.name}${line.seat && !receipt.seat ? ` (${words.seat} ${line.seat})` : ''}`,
        money(line.amountCents),
        width,
      ),
      ...(line.modifiers ?? []).flatMap((modifier) =>
        modifier.amountCents === null
          ? indented(wrap(`+ ${modifier.name}`, width - 2))
          : indented(pair(`+ ${modifier.name}`, money(modifier.amountCents), width - 2)),
      ),
    ]),
    rule(width),
    ...totals(receipt, paper, width),
    ...payments(receipt, paper, width),
  ];
}

/** The receipt as text/plain: its lines, each ended by a newline. */
export function receiptText(receipt: Receipt, width: number): string {
  return receiptLines(receipt, width)
    .map((line) => `${line}\n`)
    .join('');
}

function header(receipt: Receipt, { words }: Paper, width: number): string[] {
  const { business } = receipt;
  return [
    ...(business.name ? centered(business.name, width) : []),
    ...(business.address ? centered(business.address, width) : []),
    ...(business.phone ? centered(`Tel. ${business.phone}`, width) : []),
    ...(business.taxId ? centered(`${words.taxId} ${business.taxId}`, width) : []),
    ...(receipt.reprint ? centered(words.reprint, width) : []),
    rule(width),
    ...wrap(`${words.bill} ${shortCode(receipt.billId)}`, width),
    ...wrap(`${words.order} ${shortCode(receipt.orderId)}`, width),
    ...wrap(`${words.date} ${receipt.date}`, width),
    ...(receipt.tableName === null ? [] : wrap(tableLabel(words.table, receipt.tableName), width)),
    ...(receipt.seat === null ? [] : wrap(`${words.seat} ${receipt.seat}`, width)),
    ...wrap(`${words.waiter} ${receipt.waiter}`, width),
    ...(receipt.status === 'canceled' ? centered(words.cancelled, width) : []),
    // A pending bill's receipt is the check a waiter brings to the table before payment: marked so
    // nobody takes it for proof of payment.
    ...(receipt.status === 'pending' ? centered(words.guestCheck, width) : []),
  ];
}

function totals(receipt: Receipt, { words, money }: Paper, width: number): string[] {
  const lines = pair('Subtotal', money(receipt.subtotalCents), width);
  if (receipt.discountCents > 0) lines.push(...pair(words.discount, money(-receipt.discountCents), width));
  lines.push(...pair(`TOTAL ${receipt.currency}`, money(receipt.totalCents), width));
  if (receipt.tax) {
    const rate = formatPercent(receipt.locale, receipt.tax.ratePercent);
    const label = `${receipt.tax.isIncluded ? words.taxIncluded : words.tax} ${rate}`;
    lines.push(...pair(label, money(receipt.tax.cents), width));
  }
  return lines;
}

function payments(receipt: Receipt, { words, money }: Paper, width: number): string[] {
  const lines: string[] = [];
  for (const payment of receipt.payments) {
    lines.push(...pair(payment.method, money(payment.amountCents), width));
    if (payment.lightning) {
      const { amountSat, rate } = payment.lightning;
      const sats = formatCount(receipt.locale, amountSat);
      const detail = `${sats} sat ${words.satAt} ${money(Math.round(rate * 100))}/BTC`;
      lines.push(...indented(wrap(detail, width - 2)));
    }
    if (payment.refundedCents > 0) {
      lines.push(...indented(pair(words.refunded, money(-payment.refundedCents), width - 2)));
    }
  }
  if (receipt.tipCents > 0) lines.push(...pair(words.tip, money(receipt.tipCents), width));
  // Change is given on the total with the tip: the cash handed over and both are printed, so the guest
  // can check the sum.
  const isCashCounted = receipt.cashReceivedCents > 0;
  if (receipt.tipCents > 0 || isCashCounted) {
    lines.push(...pair(words.totalWithTip, money(receipt.totalCents + receipt.tipCents), width));
  }
  if (isCashCounted) lines.push(...pair(words.cashReceived, money(receipt.cashReceivedCents), width));
  if (receipt.changeCents > 0 || isCashCounted) {
    lines.push(...pair(words.change, money(receipt.changeCents), width));
  }
  if (receipt.balanceCents > 0) lines.push(...pair(words.balanceDue, money(receipt.balanceCents), width));
  return lines.length === 0 ? [] : [rule(width), ...lines];
}

function footer(receipt: Receipt, width: number): string[] {
  if (!receipt.footer) return [];
  return [rule(width), ...receipt.footer.split('\n').flatMap((line) => centered(line, width))];
}
