import { Type } from 'typebox';

/**
 * Money crosses the HTTP edge as a JSON number with at most two decimals and lives everywhere else
 * as integer cents, so sums never drift (0.10 added thirty times is exactly 3.00).
 */
export const MAX_AMOUNT = 99_999_999.99;

export const Money = (options: { description?: string } = {}) =>
  Type.Number({ minimum: 0, maximum: MAX_AMOUNT, multipleOf: 0.01, example: 12.5, ...options });

export function toCents(amount: number): number {
  return Math.round(amount * 100);
}

export function fromCents(cents: number): number {
  return cents / 100;
}
