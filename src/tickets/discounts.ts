import { BadRequestError } from '../core/errors';
import { toCents } from '../core/money';
import type { Discount } from './tickets.schemas';

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
