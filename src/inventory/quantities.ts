import type { StockItemType } from '../core/db/schema';

/** How many base units a quantity in the item's unit is. */
export function toBase(itemType: StockItemType, quantity: number): number {
  return itemType === 'ingredient' ? Math.round(quantity * 1000) : quantity;
}

/** A stored base amount in the item's unit, as the API shows it. */
export function fromBase(itemType: StockItemType, base: number | string): number {
  const value = Number(base);
  return itemType === 'ingredient' ? value / 1000 : value;
}
