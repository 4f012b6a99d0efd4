import type { AuditEntry } from '../audit/audit.api';
import type { Principal } from '../core/auth-guard';
import { fromCents } from '../core/money';
import { authorizeAction } from '../permissions/permissions.api';

/**
 * A dish charged at another price than the menu's: the caller's role must allow overriding prices
 * (issue 27: a waiter could charge a friend 0.01), and the log keeps who did it.
 */
export type PriceOverride = {
  orderDishId: string;
  dishId: string;
  /** The menu price; null when the dish has since left the menu. */
  menuPriceCents: number | null;
  /** What the dish was charged before; null for a dish just added. */
  previousCents: number | null;
  priceCents: number;
};

/** What the OpenAPI description of each route that takes `price_at_order` says. */
export const PRICE_OVERRIDE_NOTE =
  "A `price_at_order` other than the dish's menu price needs `orders.price_override` (else 403) and is audited.";

/** Throws 403 unless the caller may override prices, when anything is overridden. */
export function authorizeOverrides(principal: Principal, overrides: readonly PriceOverride[]): void {
  if (overrides.length > 0) authorizeAction(principal, 'overridePrice');
}

/** The audit entry of the overrides of one request on one order; none when nothing is overridden. */
export function overrideAudit(
  principal: Principal,
  orderId: string,
  overrides: readonly PriceOverride[],
  now: number,
): AuditEntry | undefined {
  if (overrides.length === 0) return undefined;
  const dish = (override: PriceOverride, cents: number | null) => ({
    id: override.orderDishId,
    dish_id: override.dishId,
    menu_price: override.menuPriceCents === null ? null : fromCents(override.menuPriceCents),
    price_at_order: cents === null ? null : fromCents(cents),
  });
  const isUpdate = overrides.some((override) => override.previousCents !== null);
  return {
    at: now,
    actor: principal,
    action: 'dish.price_overridden',
    target: { type: 'order', id: orderId },
    before: isUpdate ? { dishes: overrides.map((override) => dish(override, override.previousCents)) } : null,
    after: { dishes: overrides.map((override) => dish(override, override.priceCents)) },
  };
}
