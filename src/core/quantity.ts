import { Type } from 'typebox';

/**
 * Stock crosses the HTTP edge in the item's own unit (2.5 kg of flour, 24 bottles) and lives as an
 * integer base unit: thousandths of the unit for an ingredient, whole units for a product. Thousandths
 * keep sums exact (0.03 kg taken a thousand times is 30 kg, not 29.999999999999996).
 */
export const MAX_QUANTITY = 1_000_000_000;

/** The keyword that makes "at most three decimals" exact, as the money keyword does for cents. */
export const THOUSANDTHS_KEYWORD = 'x-whole-thousandths';

/** Whether a JSON number, as parsed, is the double nearest to a value with at most three decimals. */
export function isWholeThousandths(quantity: number): boolean {
  return Number.isFinite(quantity) && Number(quantity.toFixed(3)) === quantity;
}

/** An ingredient's quantity in its unit, at most three decimals. */
export const IngredientQuantity = (
  options: { minimum?: number; description?: string; example?: number } = {},
) =>
  Type.Number({
    minimum: 0,
    maximum: MAX_QUANTITY,
    multipleOf: 0.001,
    [THOUSANDTHS_KEYWORD]: true,
    ...options,
  });
