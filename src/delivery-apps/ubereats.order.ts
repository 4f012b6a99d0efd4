import type {
  PlatformItem,
  PlatformOption,
  PlatformOrder,
  PlatformOrderState,
} from '../core/delivery-platform';
import { instant, type Json, list, number, object, text } from '../core/platform-json';

/** Uber's `current_state` words (Get Order Details) in the port's vocabulary. */
const STATES: Record<string, PlatformOrderState> = {
  CREATED: 'new',
  ACCEPTED: 'accepted',
  DENIED: 'denied',
  CANCELED: 'cancelled',
  // The courier (or the eater, for a pick-up) has taken the order: the store's part is over.
  FINISHED: 'picked_up',
};

/** Uber's money is `{amount, currency_code}` with the amount already in the minor unit (centavos). */
function minorUnits(money: unknown): number {
  return Math.round(number(object(money).amount) ?? 0);
}

function readOption(option: Json): PlatformOption {
  return {
    externalId: text(option.external_data) || null,
    name: text(option.title),
    quantity: number(option.quantity) ?? 1,
    unitPriceCents: minorUnits(object(option.price).unit_price),
  };
}

function readItem(item: Json): PlatformItem {
  const options = list(item.selected_modifier_groups).flatMap((group) =>
    list(group.selected_items).map(readOption),
  );
  // An option's quantity is per unit of its item, so one unit costs its price plus its options'.
  const optionsPerUnit = options.reduce((sum, option) => sum + option.unitPriceCents * option.quantity, 0);
  return {
    externalId: text(item.external_data) || null,
    name: text(item.title),
    quantity: number(item.quantity) ?? 1,
    unitPriceCents: minorUnits(object(item.price).unit_price) + optionsPerUnit,
    options,
    notes: text(item.special_instructions),
  };
}

/** `GET /v2/eats/order/{order_id}` as a PlatformOrder. */
export function readUberOrder(body: unknown): PlatformOrder {
  const order = object(body);
  const cart = object(order.cart);
  const items = list(cart.items).map(readItem);
  const charges = object(object(order.payment).charges);
  const subtotal =
    charges.sub_total === undefined
      ? items.reduce((sum, item) => sum + item.unitPriceCents * item.quantity, 0)
      : minorUnits(charges.sub_total);
  return {
    id: text(order.id),
    code: text(order.display_id),
    customerFirstName: text(object(order.eater).first_name) || null,
    placedAt: instant(text(order.placed_at)) ?? 0,
    pickupAt: instant(text(order.estimated_ready_for_pickup_at)),
    state: STATES[text(order.current_state)] ?? 'unknown',
    items,
    notes: text(cart.special_instructions),
    subtotalCents: subtotal,
    // Get Order Details carries no commission; Uber reports it in its payout reports.
    commissionCents: null,
    cookingMinutes: null,
  };
}
