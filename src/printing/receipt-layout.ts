import { centered, formatInteger, formatMoney, indented, pair, rule, wrap } from './text-layout';

/** Everything a receipt shows, already worked out: amounts in cents, the date in the restaurant's zone. */
export type Receipt = {
  business: { name: string; address: string; phone: string; taxId: string };
  billId: string;
  status: 'pending' | 'paid' | 'canceled';
  tableName: string | null;
  waiter: string;
  /** e.g. `2026-11-22 12:00`, local to the restaurant. */
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
  changeCents: number;
  /** What is still owed; 0 once paid. */
  balanceCents: number;
  footer: string;
};

export type ReceiptLine = {
  name: string;
  quantity: number;
  amountCents: number;
  seat?: number | null;
  modifiers?: { name: string; amountCents: number | null }[];
};

/** The receipt as lines of at most `width` characters. */
export function receiptLines(receipt: Receipt, width: number): string[] {
  return [
    ...header(receipt, width),
    rule(width),
    ...receipt.lines.flatMap((line) => [
      ...pair(
        `${line.quantity} x ${line.name}${line.seat ? ` (seat ${line.seat})` : ''}`,
        formatMoney(line.amountCents),
        width,
      ),
      ...(line.modifiers ?? []).flatMap((modifier) =>
        modifier.amountCents === null
          ? indented(wrap(`+ ${modifier.name}`, width - 2))
          : indented(pair(`+ ${modifier.name}`, formatMoney(modifier.amountCents), width - 2)),
      ),
    ]),
    rule(width),
    ...totals(receipt, width),
    ...payments(receipt, width),
    ...footer(receipt, width),
  ];
}

/** The receipt as text/plain: its lines, each ended by a newline. */
export function receiptText(receipt: Receipt, width: number): string {
  return receiptLines(receipt, width)
    .map((line) => `${line}\n`)
    .join('');
}

function header(receipt: Receipt, width: number): string[] {
  const { business } = receipt;
  return [
    ...(business.name ? centered(business.name, width) : []),
    ...(business.address ? centered(business.address, width) : []),
    ...(business.phone ? centered(`Tel. ${business.phone}`, width) : []),
    ...(business.taxId ? centered(`Tax ID ${business.taxId}`, width) : []),
    rule(width),
    ...wrap(`Bill ${receipt.billId.slice(0, 8)}`, width),
    ...wrap(`Date ${receipt.date}`, width),
    ...(receipt.tableName === null ? [] : wrap(`Table ${receipt.tableName}`, width)),
    ...wrap(`Waiter ${receipt.waiter}`, width),
    ...(receipt.status === 'canceled' ? centered('*** CANCELLED ***', width) : []),
    // A pending bill's receipt is the check a waiter brings to the table before payment: marked so
    // nobody takes it for proof of payment.
    ...(receipt.status === 'pending' ? centered('*** GUEST CHECK ***', width) : []),
  ];
}

function totals(receipt: Receipt, width: number): string[] {
  const lines = pair('Subtotal', formatMoney(receipt.subtotalCents), width);
  if (receipt.discountCents > 0) lines.push(...pair('Discount', formatMoney(-receipt.discountCents), width));
  lines.push(...pair(`TOTAL ${receipt.currency}`, formatMoney(receipt.totalCents), width));
  if (receipt.tax) {
    const label = `${receipt.tax.isIncluded ? 'Tax included' : 'Tax'} ${receipt.tax.ratePercent}%`;
    lines.push(...pair(label, formatMoney(receipt.tax.cents), width));
  }
  return lines;
}

function payments(receipt: Receipt, width: number): string[] {
  const lines: string[] = [];
  for (const payment of receipt.payments) {
    lines.push(...pair(payment.method, formatMoney(payment.amountCents), width));
    if (payment.lightning) {
      const { amountSat, rate } = payment.lightning;
      const detail = `${formatInteger(amountSat)} sat at ${formatMoney(Math.round(rate * 100))}/BTC`;
      lines.push(...indented(wrap(detail, width - 2)));
    }
    if (payment.refundedCents > 0) {
      lines.push(...indented(pair('Refunded', formatMoney(-payment.refundedCents), width - 2)));
    }
  }
  if (receipt.tipCents > 0) lines.push(...pair('Tip', formatMoney(receipt.tipCents), width));
  if (receipt.changeCents > 0) lines.push(...pair('Change', formatMoney(receipt.changeCents), width));
  if (receipt.balanceCents > 0) lines.push(...pair('Balance due', formatMoney(receipt.balanceCents), width));
  return lines.length === 0 ? [] : [rule(width), ...lines];
}

function footer(receipt: Receipt, width: number): string[] {
  if (!receipt.footer) return [];
  return [rule(width), ...receipt.footer.split('\n').flatMap((line) => centered(line, width))];
}
