/**
 * Money on the screens: the API speaks numbers with at most two decimals, the screens count integer
 * cents, and what a person types is read here, once, the same way on every screen.
 */
export function toCents(amount: number): number {
  return Math.round(amount * 100);
}

/** Cents as the API takes them: 1250 → 12.5 (a division by 100 prints exactly). */
export function fromCents(cents: number): number {
  return cents / 100;
}

/** Thousands grouped as the screens print them in Mexico and in English: 1,234.50 and 12,345,678. */
const GROUPED_AMOUNT = /^\s*\d{1,3}(?:,\d{3})+(?:\.\d{0,2})?\s*$/;

/**
 * What a person types: "20", "20.5", "20,50" (a decimal comma), "1,234.50" (thousands as the screens
 * print them) → cents, read from the digits (no float arithmetic), up to ten whole digits (the API's
 * largest amount has eight). undefined when it is not such an amount.
 */
export function parseCents(text: string): number | undefined {
  const ungrouped = GROUPED_AMOUNT.test(text) ? text.replaceAll(',', '') : text;
  const match = /^\s*(\d{1,10})(?:[.,](\d{0,2}))?\s*$/.exec(ungrouped);
  if (!match) return undefined;
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(2, '0'));
  return whole * 100 + fraction;
}

/** "-5.50" → −550 cents: for a change that may lower a price. */
export function parseSignedCents(text: string): number | undefined {
  const trimmed = text.trim();
  const negative = trimmed.startsWith('-');
  const cents = parseCents(negative ? trimmed.slice(1) : trimmed);
  return cents === undefined ? undefined : negative ? -cents : cents;
}

/** Splits an amount in `parts` shares that differ by at most a cent and add up to it exactly. */
export function splitEvenly(totalCents: number, parts: number): number[] {
  const base = Math.floor(totalCents / parts);
  const remainder = totalCents - base * parts;
  return Array.from({ length: parts }, (_, index) => base + (index < remainder ? 1 : 0));
}
