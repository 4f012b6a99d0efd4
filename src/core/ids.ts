import { randomUUID } from 'node:crypto';

/** Every identifier is a UUID v4 (the spec): random, so it says nothing of when a row was written. */
export const newId: () => string = randomUUID;

/**
 * The few characters staff say and read for an order or a bill: its id's first six hex digits,
 * upper-case ("675CCA"). The chits, the receipts and every screen write it by this one rule (the web's
 * copy is web/src/core/short-code.ts), so the kitchen calls an order what its chit says.
 */
export function shortCode(id: string): string {
  return id.slice(0, 6).toUpperCase();
}
