import { BadRequestError } from '../core/errors';
import type { OrderStatus } from './orders.schemas';

/** The states in which an order still holds its table and its dishes may change. */
export const ACTIVE_STATUSES: readonly OrderStatus[] = ['pending', 'preparing', 'ready'];

const NEXT: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ['preparing', 'cancelled'],
  preparing: ['ready', 'cancelled'],
  ready: ['completed', 'cancelled'],
  completed: [],
  cancelled: [],
};

export function isActive(status: OrderStatus): boolean {
  return ACTIVE_STATUSES.includes(status);
}

/** Staying in the same state is a no-op, so a client re-sending the whole order body is never refused. */
export function assertTransition(from: OrderStatus, to: OrderStatus): void {
  if (from !== to && !NEXT[from].includes(to)) {
    throw new BadRequestError(`Invalid status transition from ${from} to ${to}`);
  }
}

export function assertDishesCanChange(status: OrderStatus): void {
  if (!isActive(status)) throw new BadRequestError(`Cannot change the dishes of a ${status} order`);
}
