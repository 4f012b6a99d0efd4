import type { Db } from '../core/db/database';
import { BadRequestError } from '../core/errors';
import { newId } from '../core/ids';
import { toCents } from '../core/money';
import { findLiveUserById } from '../users/users.repo';
import { findLiveDishPrices } from './order-dishes.repo';
import type { DishEntry } from './orders.schemas';
import type { PriceOverride } from './price-overrides';

/** Checks on the records an order names in its body; a wrong reference is the client's mistake: 400. */

export const userNotFound = (id: string) => new BadRequestError(`User with ID: ${id} not found`);
export const tableNotFound = (id: string) => new BadRequestError(`Table with ID: ${id} not found`);
export const tableTaken = (id: string) =>
  new BadRequestError(`Table with ID: ${id} already has an active order`);

export async function findOrderUser(db: Db, id: string): Promise<{ id: string; name: string }> {
  const user = await findLiveUserById(db, id);
  if (!user) throw userNotFound(id);
  return user;
}

export type PricedDish = { id: string; dish_id: string; price_at_order_cents: number; notes: string };

/**
 * Gives each entry an id and its price in cents, the dish's current price when none was sent; the
 * entries sent with another price are the overrides.
 */
export async function priceDishEntries(
  db: Db,
  entries: DishEntry[],
): Promise<{ dishes: PricedDish[]; overrides: PriceOverride[] }> {
  if (entries.length === 0) return { dishes: [], overrides: [] };
  const dishIds = [...new Set(entries.map((entry) => entry.dish_id))];
  const prices = new Map((await findLiveDishPrices(db, dishIds)).map((dish) => [dish.id, dish.price_cents]));
  const overrides: PriceOverride[] = [];
  const dishes = entries.map((entry) => {
    const currentPrice = prices.get(entry.dish_id);
    if (currentPrice === undefined) throw new BadRequestError(`Dish with ID: ${entry.dish_id} not found`);
    const menuPriceCents = Number(currentPrice);
    const priced = {
      id: newId(),
      dish_id: entry.dish_id,
      price_at_order_cents:
        entry.price_at_order === undefined ? menuPriceCents : toCents(entry.price_at_order),
      notes: entry.notes ?? '',
    };
    if (priced.price_at_order_cents !== menuPriceCents) {
      overrides.push({
        orderDishId: priced.id,
        dishId: priced.dish_id,
        menuPriceCents,
        previousCents: null,
        priceCents: priced.price_at_order_cents,
      });
    }
    return priced;
  });
  return { dishes, overrides };
}

export function sumCents(dishes: PricedDish[]): number {
  return dishes.reduce((sum, dish) => sum + dish.price_at_order_cents, 0);
}
