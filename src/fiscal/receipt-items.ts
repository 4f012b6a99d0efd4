import type { PacItem } from '../core/pac';

export type Plate = { id: string; name: string; priceCents: number; productKey: string; options: string[] };

/** What a bill split by amount, or one whose plates no longer add up, is on a CFDI. */
export const SHARE_OF_MEAL = 'Consumo de alimentos y bebidas';

type Line = { description: string; productKey: string; unitCents: number; quantity: number };

/**
 * The receipt's items for a bill of which `paidCents` was kept (after its discount and any refund made
 * before the receipt): equal plates become one line with their quantity, free plates (comps) are left
 * off, and the difference between the plates and what was paid is each line's discount, spread in
 * proportion to the lines to the cent (largest remainders take the odd cents), so the items add up to
 * exactly what was paid. Prices include IVA at `taxRate`.
 */
export function receiptItems(
  plates: readonly Plate[],
  paidCents: number,
  options: { taxRate: number; unitKey: string; defaultProductKey: string; sku: string },
): PacItem[] {
  const lines = groupPlates(plates.filter((plate) => plate.priceCents > 0));
  const platesCents = lines.reduce((sum, line) => sum + line.unitCents * line.quantity, 0);
  if (lines.length === 0 || platesCents < paidCents) {
    return [
      item(
        {
          description: SHARE_OF_MEAL,
          productKey: options.defaultProductKey,
          unitCents: paidCents,
          quantity: 1,
        },
        0,
        options,
      ),
    ];
  }
  const discounts = spread(
    platesCents - paidCents,
    lines.map((line) => line.unitCents * line.quantity),
  );
  return lines.map((line, index) => item(line, discounts[index] ?? 0, options));
}

function item(
  line: Line,
  discountCents: number,
  options: { taxRate: number; unitKey: string; sku: string },
): PacItem {
  return {
    quantity: line.quantity,
    ...(discountCents > 0 && { discount: discountCents / 100 }),
    product: {
      description: line.description,
      product_key: line.productKey,
      unit_key: options.unitKey,
      price: line.unitCents / 100,
      tax_included: true,
      taxes: [{ type: 'IVA', rate: options.taxRate }],
      sku: options.sku,
    },
  };
}

function groupPlates(plates: readonly Plate[]): Line[] {
  const lines = new Map<string, Line>();
  for (const plate of plates) {
    const description = plate.options.length > 0 ? `${plate.name} (${plate.options.join(', ')})` : plate.name;
    const key = JSON.stringify([description, plate.priceCents, plate.productKey]);
    const found = lines.get(key);
    if (found) found.quantity += 1;
    else
      lines.set(key, { description, productKey: plate.productKey, unitCents: plate.priceCents, quantity: 1 });
  }
  return [...lines.values()];
}

/** `total` cents shared over `weights` in proportion, whole cents that add up to `total` exactly. */
export function spread(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((acc, weight) => acc + weight, 0);
  if (total === 0 || sum === 0) return weights.map(() => 0);
  const exact = weights.map((weight) => (total * weight) / sum);
  const shares = exact.map(Math.floor);
  let left = total - shares.reduce((acc, share) => acc + share, 0);
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (left === 0) break;
    shares[index] = (shares[index] ?? 0) + 1;
    left -= 1;
  }
  return shares;
}

/**
 * The IVA of tax-included items as a CFDI breaks it down: per line, the amount and the discount are
 * each taken without IVA and rounded to the cent, and the line's IVA is what is left of its total.
 * Facturapi documents that it breaks tax-included prices down but not how it rounds; this is the
 * reading the PAC simulator follows (test/pac-sim/items.ts, lineAmounts).
 */
export function itemsTaxCents(items: readonly PacItem[], taxRateBasisPoints: number): number {
  const divisor = 1 + taxRateBasisPoints / 10_000;
  return items.reduce((sum, item) => {
    const grossCents = Math.round(item.product.price * item.quantity * 100);
    const discountCents = Math.round((item.discount ?? 0) * 100);
    const baseCents = Math.round(grossCents / divisor) - Math.round(discountCents / divisor);
    return sum + (grossCents - discountCents - baseCents);
  }, 0);
}
