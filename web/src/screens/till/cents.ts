/** The API speaks 2-decimal numbers; the screens count integer cents. */
export function toCents(amount: number): number {
  return Math.round(amount * 100);
}

export function fromCents(cents: number): number {
  return cents / 100;
}

/** What a cashier types: "20", "20.5", "20,50". undefined when it is not an amount. */
export function parseCents(text: string): number | undefined {
  const cleaned = text.trim().replace(',', '.');
  if (!/^\d+(\.\d{0,2})?$/.test(cleaned)) return undefined;
  return Math.round(Number(cleaned) * 100);
}

/** Splits an amount in `parts` shares that differ by at most a cent and add up to it exactly. */
export function splitEvenly(totalCents: number, parts: number): number[] {
  const base = Math.floor(totalCents / parts);
  const remainder = totalCents - base * parts;
  return Array.from({ length: parts }, (_, index) => base + (index < remainder ? 1 : 0));
}
