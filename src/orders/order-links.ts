import type { Db } from '../core/db/database';
import { BadRequestError } from '../core/errors';
import { newId } from '../core/ids';
import { toCents } from '../core/money';
import { findLiveUserById } from '../users/users.api';
import { findLiveDishPrices } from './order-dishes.repo';
import { type DishEntry, MAX_PLATES_PER_REQUEST } from './orders.schemas';
import {
  chooseModifiers,
  loadModifierMenu,
  type ModifierChoice,
  PRICE_MISMATCH,
  priceWithModifiers,
} from './plate-modifiers';
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

export type PricedDish = {
  id: string;
  dish_id: string;
  price_at_order_cents: number;
  notes: string;
  seat: number | null;
  course: number;
  modifiers: ModifierChoice[];
};

/**
 * Turns entries into plates: `quantity` plates of each, every one with its own id, its price in
 * cents and its chosen options checked against the dish's groups. Without options a plate costs the
 * dish's current price unless another was sent (an override); with options the server prices it and a
 * different `price_at_order` is refused. All entries are checked before anything is written.
 */
export async function priceDishEntries(
  db: Db,
  entries: DishEntry[],
): Promise<{ dishes: PricedDish[]; overrides: PriceOverride[] }> {
  if (entries.length === 0) return { dishes: [], overrides: [] };
  const plateCount = entries.reduce((sum, entry) => sum + (entry.quantity ?? 1), 0);
  if (plateCount > MAX_PLATES_PER_REQUEST) {
    throw new BadRequestError(`At most ${MAX_PLATES_PER_REQUEST} plates per request`);
  }
  const dishIds = [...new Set(entries.map((entry) => entry.dish_id))];
  const [menuDishes, modifierMenu] = await Promise.all([
    findLiveDishPrices(db, dishIds),
    loadModifierMenu(
      db,
      dishIds,
      entries.flatMap((entry) => entry.modifiers ?? []),
    ),
  ]);
  const menu = new Map(menuDishes.map((dish) => [dish.id, dish]));
  const overrides: PriceOverride[] = [];
  const dishes = entries.flatMap((entry) => {
    const dish = menu.get(entry.dish_id);
    if (dish === undefined) throw new BadRequestError(`Dish with ID: ${entry.dish_id} not found`);
    // Off by hand or out of stock: the same answer, as the waiter's screen greys both alike.
    if (Number(dish.is_available) !== 1 || Number(dish.out_of_stock) === 1)
      throw new BadRequestError(`Dish is not available: ${dish.name}`);
    const menuPriceCents = Number(dish.price_cents);
    const modifiers = chooseModifiers(modifierMenu, dish.id, entry.modifiers ?? []);
    const sentCents = entry.price_at_order === undefined ? undefined : toCents(entry.price_at_order);
    let priceCents = sentCents ?? menuPriceCents;
    if (modifiers.length > 0) {
      priceCents = priceWithModifiers(menuPriceCents, modifiers);
      if (sentCents !== undefined && sentCents !== priceCents) throw new BadRequestError(PRICE_MISMATCH);
    }
    return Array.from({ length: entry.quantity ?? 1 }, () => {
      const priced: PricedDish = {
        id: newId(),
        dish_id: entry.dish_id,
        price_at_order_cents: priceCents,
        notes: entry.notes ?? '',
        seat: entry.seat ?? null,
        course: entry.course ?? 1,
        modifiers,
      };
      if (modifiers.length === 0 && priced.price_at_order_cents !== menuPriceCents) {
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
  });
  return { dishes, overrides };
}

export function sumCents(dishes: PricedDish[]): number {
  return dishes.reduce((sum, dish) => sum + dish.price_at_order_cents, 0);
}
