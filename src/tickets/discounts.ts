import type { Principal } from '../core/auth-guard';
import { BadRequestError } from '../core/errors';
import { toCents } from '../core/money';
import { authorize } from '../roles/permissions';
import type { Discount } from './tickets.schemas';

/** A discount is its own permission: a waiter may split a bill (`tickets.write`) but not discount it. */
export function assertMayDiscount(principal: Principal): void {
  authorize(principal, 'tickets.discount');
}

/** The discount in cents; a percentage rounds to the nearest cent. */
export function discountCents(subtotalCents: number, discount: Discount): number {
  if (discount.type === 'percent') {
    if (discount.value > 100) throw new BadRequestError('A percent discount is at most 100');
    return Math.round((subtotalCents * discount.value) / 100);
  }
  const cents = toCents(discount.value);
  if (cents > subtotalCents) throw new BadRequestError('Discount exceeds the subtotal');
  return cents;
}
