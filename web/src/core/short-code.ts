/**
 * The few characters staff say and read for an order or a bill: its id's first six hex digits,
 * upper-case ("675CCA"); the same rule as the chits and receipts the server prints (src/core/ids.ts).
 */
export function shortCode(id: string): string {
  return id.slice(0, 6).toUpperCase();
}
