import type { Principal } from '../core/auth-guard';
import { fromCents } from '../core/money';
import { toIsoUtc, toIsoUtcOrNull } from '../core/time';
import { holdsPermission, MONEY_READ } from '../permissions/permissions.api';
import { heldCartOf } from './held-cart';
import type { OrderDishDetail } from './order-dishes.repo';
import type { OrderRow } from './orders.repo';
import type { OrderDishView, OrderView } from './orders.schemas';

/**
 * What the order still owes, the one definition the order view, the till, the floor and the close
 * rule share: its total less the discounts of its live bills, what was paid, and what refunds gave
 * back on Paid bills (money returned after the sale is not a new debt).
 */
export function orderBalanceCents(
  row: Pick<OrderRow, 'total_cents' | 'discount_cents' | 'paid_cents' | 'refunded_after_sale_cents'>,
): number {
  return (
    Number(row.total_cents) -
    Number(row.discount_cents) -
    Number(row.paid_cents) -
    Number(row.refunded_after_sale_cents)
  );
}

export function toOrderView(row: OrderRow): OrderView {
  return {
    id: row.id,
    user_id: row.user_id,
    table_id: row.table_id,
    waiter: row.waiter,
    status: row.status,
    guests: row.guests,
    total: fromCents(Number(row.total_cents)),
    discount: fromCents(Number(row.discount_cents)),
    paid: fromCents(Number(row.paid_cents)),
    balance: fromCents(orderBalanceCents(row)),
    created_at: toIsoUtc(Number(row.created_at)),
    channel: row.channel as OrderView['channel'],
    ...(row.channel !== 'dine_in' && channelFieldsOf(row)),
  };
}

/** What a delivery app's order carries beside a dine-in one's (contract-channels.md). */
function channelFieldsOf(row: OrderRow) {
  return {
    channel_order_id: row.channel_order_id,
    channel_code: row.channel_code,
    customer_first_name: row.customer_first_name,
    pickup_at: toIsoUtcOrNull(row.pickup_at === null ? null : Number(row.pickup_at)),
    channel_state: row.channel_state,
    accept_by: toIsoUtcOrNull(row.accept_by === null ? null : Number(row.accept_by)),
    unmapped_items: heldCartOf(row)?.unmapped ?? [],
  };
}

/** The order as this caller may read it: what its bills say (discount, paid, balance) only for who may read bills. */
export function orderViewFor(principal: Principal, view: OrderView): OrderView {
  if (holdsPermission(principal, MONEY_READ)) return view;
  const { discount: _discount, paid: _paid, balance: _balance, ...withoutBills } = view;
  return withoutBills;
}

export function toOrderDishView(row: OrderDishDetail): OrderDishView {
  return {
    id: row.id,
    order_id: row.order_id,
    dish_id: row.dish_id,
    price_at_order: fromCents(Number(row.price_at_order_cents)),
    notes: row.notes,
    status: row.status,
    dish_name: row.dish_name,
    station: row.station,
    sent_at: toIsoUtcOrNull(row.sent_at),
    ready_at: toIsoUtcOrNull(row.ready_at),
    void_reason: row.void_reason,
    voided_by: row.voided_by_name,
    void_approved_by: row.void_approved_by_name,
    ticket_id: row.bill_id,
    modifiers: row.modifiers.map((modifier) => ({
      option_id: modifier.option_id,
      group_name: modifier.group_name,
      name: modifier.name,
      price_delta: fromCents(modifier.price_delta_cents),
    })),
    seat: row.seat,
    course: row.course,
  };
}
