import type { Db } from '../core/db/database';
import { TICKET_STATUS, type TicketStatus } from '../core/db/ticket-status';
import { NotFoundError } from '../core/errors';
import { fromCents } from '../core/money';
import { toIsoUtc, toIsoUtcOrNull } from '../core/time';
import type { TicketWithDishes } from './tickets.repo';
import * as tickets from './tickets.repo';
import type { TicketView } from './tickets.schemas';

export function toTicketView(row: TicketWithDishes): TicketView {
  const total = Number(row.total_cents);
  const paid = Number(row.paid_cents);
  // A cancelled bill owes nothing: money that still reached it (a Lightning invoice paid late) shows
  // as overpaid, for a refund.
  const owed = Number(row.status) === TICKET_STATUS.canceled ? 0 : total;
  return {
    id: row.id,
    order_id: row.order_id,
    status: Number(row.status) as TicketStatus,
    subtotal: fromCents(Number(row.subtotal_cents)),
    discount: fromCents(Number(row.discount_cents)),
    total: fromCents(total),
    paid: fromCents(paid),
    tips: fromCents(Number(row.tips_cents)),
    balance: fromCents(owed - paid),
    order_dish_ids: row.order_dish_ids,
    created_at: toIsoUtc(Number(row.created_at)),
    paid_at: toIsoUtcOrNull(row.paid_at),
  };
}

/** The bill as the API shows it, read afresh; 404 when there is no such bill. */
export async function viewOf(db: Db, id: string): Promise<TicketView> {
  const row = await tickets.findTicket(db, id);
  if (!row) throw new NotFoundError();
  return viewOfRow(db, row);
}

/** The bill as the API shows it, from a row the caller has just read or written. */
export async function viewOfRow(db: Db, row: tickets.TicketRow): Promise<TicketView> {
  const [withDishes] = await tickets.withDishes(db, [row]);
  return toTicketView(withDishes as tickets.TicketWithDishes);
}
