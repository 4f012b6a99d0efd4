/**
 * Each seat's part of the bill's total: its plates' share of the subtotal applied to the total (so a
 * discount is shared alike), in cents by largest remainder, so the seats and the plates without a
 * seat add up to the total to the cent. Seats by number; the plates without a seat are no seat's.
 */
export function seatShares(
  plates: { seat: number | null; priceCents: number }[],
  totalCents: number,
): { seat: number; cents: number }[] {
  const bySeat = new Map<number | null, number>();
  for (const plate of plates) bySeat.set(plate.seat, (bySeat.get(plate.seat) ?? 0) + plate.priceCents);
  const subtotalCents = [...bySeat.values()].reduce((sum, cents) => sum + cents, 0);
  if (subtotalCents <= 0) return [];
  const parts = [...bySeat].map(([seat, cents]) => {
    const exact = (cents * totalCents) / subtotalCents;
    return { seat, cents: Math.floor(exact), remainder: exact - Math.floor(exact) };
  });
  let left = totalCents - parts.reduce((sum, part) => sum + part.cents, 0);
  for (const part of [...parts].sort((a, b) => b.remainder - a.remainder)) {
    if (left <= 0) break;
    part.cents += 1;
    left -= 1;
  }
  return parts
    .filter((part): part is { seat: number; cents: number; remainder: number } => part.seat !== null)
    .sort((a, b) => a.seat - b.seat)
    .map(({ seat, cents }) => ({ seat, cents }));
}
