import { fromCents } from '../core/money';
import { toIsoUtc } from '../core/time';
import type { TicketWithDishes } from './tickets.repo';
import type { TicketStatus, TicketView } from './tickets.schemas';

export function toTicketView(row: TicketWithDishes): TicketView {
  const total = Number(row.total_cents);
  const paid = Number(row.paid_cents);
  return {
    id: row.id,
    order_id: row.order_id,
    status: Number(row.status) as TicketStatus,
    subtotal: fromCents(Number(row.subtotal_cents)),
    discount: fromCents(Number(row.discount_cents)),
    total: fromCents(total),
    paid: fromCents(paid),
    tips: fromCents(Number(row.tips_cents)),
    balance: fromCents(total - paid),
    order_dish_ids: row.order_dish_ids,
    created_at: toIsoUtc(Number(row.created_at)),
    paid_at: row.paid_at === null ? null : toIsoUtc(Number(row.paid_at)),
  };
}
