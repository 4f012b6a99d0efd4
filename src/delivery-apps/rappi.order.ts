import type { PlatformItem, PlatformOrder } from '../core/delivery-platform';
import { instant, type Json, list, number, object, text } from '../core/platform-json';

/** Rappi's amounts are pesos with decimals; the POS counts centavos. */
export function pesosToCents(value: unknown): number {
  return Math.round((number(value) ?? 0) * 100);
}

/** `created_at` is `YYYY-MM-DD HH:mm:ss` without a zone; the portal's examples read as UTC. */
function createdAt(value: string): number | null {
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value)
    ? instant(`${value.replace(' ', 'T')}Z`)
    : instant(value);
}

function readItem(item: Json): PlatformItem {
  // Rappi's toppings (`subitems`) are per unit of their item, as Uber's options are.
  const options = list(item.subitems).map((topping) => ({
    externalId: text(topping.sku) || null,
    name: text(topping.name),
    quantity: number(topping.quantity) ?? 1,
    unitPriceCents: pesosToCents(topping.price),
  }));
  const optionsPerUnit = options.reduce((sum, option) => sum + option.unitPriceCents * option.quantity, 0);
  return {
    externalId: text(item.sku) || null,
    name: text(item.name),
    quantity: number(item.quantity) ?? 1,
    unitPriceCents: pesosToCents(item.price) + optionsPerUnit,
    options,
    notes: text(item.comments),
  };
}

/**
 * An order as Rappi's orders read (and its NEW_ORDER webhook) carries it. Orders read this way wait to
 * be taken or rejected, so their state is `new`; the read holds no other state.
 */
export function readRappiOrder(body: unknown): PlatformOrder {
  const order = object(body);
  const detail = object(order.order_detail);
  const placedAt = createdAt(text(detail.created_at)) ?? 0;
  const suggested = number(detail.cooking_time);
  const items = list(detail.items).map(readItem);
  return {
    id: text(detail.order_id),
    // The courier shows the order id itself at the counter.
    code: text(detail.order_id),
    customerFirstName: text(object(order.customer).first_name) || null,
    placedAt,
    // Rappi gives no pickup time, only the cooking time it suggests from the order's creation.
    pickupAt: suggested === undefined ? null : placedAt + suggested * 60_000,
    state: 'new',
    items,
    notes: '',
    subtotalCents: pesosToCents(object(detail.totals).total_products),
    commissionCents: null,
    cookingMinutes:
      suggested === undefined
        ? null
        : {
            min: number(detail.min_cooking_time) ?? 0,
            max: number(detail.max_cooking_time) ?? 0,
            suggested,
          },
  };
}

/** The cooking time Rappi will take: within the order's bounds when it states them (a 0 maximum states none). */
export function clampCookingMinutes(minutes: number, bounds: PlatformOrder['cookingMinutes']): number {
  const whole = Math.max(1, Math.round(minutes));
  if (bounds === null || bounds.max <= 0 || bounds.max < bounds.min) return whole;
  return Math.min(bounds.max, Math.max(bounds.min, whole));
}
