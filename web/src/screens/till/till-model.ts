import type { Ok } from '../../api/client';
import { toCents } from '../../core/cents';
import { format } from '../../core/i18n';

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

/**
 * Each bill's name: a bill holding one seat's plates only, the only such bill of that seat (as bills
 * by seat are), is named by the seat ("Comensal 2"), as the guest page and the paper name the seat;
 * any other by its place in the list ("Cuenta 3").
 */
export function billNames(
  tickets: Ticket[],
  dishes: OrderDish[],
  words: { billNumber: string; billOfSeat: string },
): Map<string, string> {
  const seatOf = new Map(dishes.map((dish) => [dish.id, dish.seat]));
  const seats = tickets.map((ticket) => {
    const ticketSeats = new Set(ticket.order_dish_ids.map((id) => seatOf.get(id) ?? null));
    const [seat] = ticketSeats;
    return ticket.status !== TICKET_CANCELED && ticketSeats.size === 1 && seat != null ? seat : null;
  });
  return new Map(
    tickets.map((ticket, index) => {
      const seat = seats[index];
      const isOnlyOne = seat != null && seats.filter((other) => other === seat).length === 1;
      return [
        ticket.id,
        isOnlyOne ? format(words.billOfSeat, { n: seat }) : format(words.billNumber, { n: index + 1 }),
      ];
    }),
  );
}
