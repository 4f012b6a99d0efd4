import { Type } from 'typebox';

/**
 * Money crosses the HTTP edge as a JSON number with at most two decimals and lives everywhere else
 * as integer cents, so sums never drift (0.10 added thirty times is exactly 3.00).
 */
export const MAX_AMOUNT = 99_999_999.99;

/**
 * The keyword that makes "at most two decimals" exact: `multipleOf: 0.01` alone has to tolerate binary
 * floating point (19.99 is not a multiple of 0.01 in doubles), and that tolerance let 1.0000000001
 * through. An `x-` name, so the OpenAPI document stays valid; `multipleOf` stays for readers and
 * generated clients.
 */
export const CENTS_KEYWORD = 'x-whole-cents';

export const Money = (options: { description?: string } = {}) =>
  Type.Number({
    minimum: 0,
    maximum: MAX_AMOUNT,
    multipleOf: 0.01,
    [CENTS_KEYWORD]: true,
    example: 12.5,
    ...options,
  });

/** A positive amount of money (a bill, a payment, a refund): an amount of nothing is a mistake. */
export const PositiveMoney = (options: { description?: string } = {}) =>
  Type.Number({ minimum: 0.01, maximum: MAX_AMOUNT, multipleOf: 0.01, [CENTS_KEYWORD]: true, ...options });

/**
 * Whether a JSON number, as parsed, is a whole number of cents: the double nearest to a two-decimal
 * value (19.99, 0.1, 1e-2), which writing it back with two decimals reproduces exactly. Exact for every
 * amount up to MAX_AMOUNT; a text with more digits than a double holds (19.990000000000000001) is
 * already 19.99 once parsed and cannot be told apart.
 */
export function isWholeCents(amount: number): boolean {
  return Number.isFinite(amount) && Number(amount.toFixed(2)) === amount;
}

export function toCents(amount: number): number {
  return Math.round(amount * 100);
}

export function fromCents(cents: number): number {
  return cents / 100;
}

/**
 * The tax in a total, for a rate in hundredths of a percent: with prices that include tax, the part
 * of the total that is tax (16 % → 16/116 of it); otherwise the tax the rate adds on the total. The
 * receipt, the Z report and the sales reports all state tax through this one rule.
 */
export function taxShareCents(totalCents: number, rateBasisPoints: number, isIncluded: boolean): number {
  const share = isIncluded
    ? (totalCents * rateBasisPoints) / (10_000 + rateBasisPoints)
    : (totalCents * rateBasisPoints) / 10_000;
  return Math.round(share);
}
