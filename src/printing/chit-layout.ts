import { centered, rule, wrap } from './text-layout';

/** A kitchen chit: what one station must prepare for one order, and for whom. */
export type Chit = {
  /** null: a printer that takes every station's dishes. */
  station: string | null;
  orderId: string;
  tableName: string | null;
  waiter: string;
  /** e.g. `2026-11-22 12:00`, local to the restaurant. */
  sentAt: string;
  /** Same dish with the same notes counted once. */
  dishes: { name: string; quantity: number; notes: string }[];
};

/** The chit as lines of at most `width` characters; notes under their dish, marked to catch the eye. */
export function chitLines(chit: Chit, width: number): string[] {
  return [
    ...centered(chit.station === null ? 'KITCHEN' : chit.station.toUpperCase(), width),
    ...wrap(chit.tableName === null ? 'No table' : `Table ${chit.tableName}`, width),
    ...wrap(`Waiter ${chit.waiter}`, width),
    ...wrap(`Order ${chit.orderId.slice(0, 8)}`, width),
    ...wrap(`Sent ${chit.sentAt}`, width),
    rule(width),
    ...chit.dishes.flatMap((dish) => [
      ...wrap(`${dish.quantity} x ${dish.name}`, width),
      ...(dish.notes.trim() ? wrap(`>> ${dish.notes.trim()}`, width) : []),
    ]),
    rule(width),
  ];
}
