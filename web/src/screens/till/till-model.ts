import type { Ok } from '../../api/client';
import { toCents } from '../../core/cents';

/**
 * The till's shared types and constants, in one module its panels import: no panel imports the
 * screen that shows it, so the imports of the till run one way.
 */
export type Order = Ok<'/orders/{id}', 'get'>;

/**
 * An order's bill money (discount, paid, balance) in cents. The server leaves those fields out only
 * for roles that may not read bills, and the till's role reads them: the fallback only satisfies the type.
 */
export function billMoneyCents(amount: number | undefined): number {
  return toCents(amount ?? 0);
}
export type OrderDish = Ok<'/orders/{id}/dishes', 'get'>[number];
export type Ticket = Ok<'/orders/{id}/tickets', 'get'>[number];
export type Payment = Ok<'/tickets/{id}/payments', 'get'>[number];

/** A bill's status, the spec's integer codes. */
export const TICKET_PENDING = 1;
export const TICKET_PAID = 2;
export const TICKET_CANCELED = 3;

/** Orders still at their table: the till lists them, and a paid one can be closed. */
export const ACTIVE_ORDER_STATUSES: ReadonlySet<string> = new Set(['pending', 'preparing', 'ready']);
