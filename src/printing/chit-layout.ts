import { centered, indented, rule, wrap } from './text-layout';

/** A kitchen chit: what one station must prepare for one order, and for whom. */
export type Chit = {
  /** null: a printer that takes every station's dishes. */
  station: string | null;
  orderId: string;
  tableName: string | null;
  waiter: string;
  /** e.g. `2026-11-22 12:00`, local to the restaurant. */
  sentAt: string;
  /** By course; the same dish with the same options, seat and notes counted once. */
  dishes: ChitDish[];
};

export type ChitDish = {
  name: string;
  quantity: number;
  notes: string;
  /** The chosen options' names, each printed on its own line under the dish. */
  modifiers: string[];
  seat: number | null;
  course: number;
};

/**
 * The chit as lines of at most `width` characters: each option on its own line under its dish, notes
 * after them marked to catch the eye, and a heading per course when the chit holds any course but the first.
 */
export function chitLines(chit: Chit, width: number): string[] {
  const hasCourses = chit.dishes.some((dish) => dish.course !== 1);
  return [
    ...centered(chit.station === null ? 'KITCHEN' : chit.station.toUpperCase(), width),
    ...wrap(chit.tableName === null ? 'No table' : `Table ${chit.tableName}`, width),
    ...wrap(`Waiter ${chit.waiter}`, width),
    ...wrap(`Order ${chit.orderId.slice(0, 8)}`, width),
    ...wrap(`Sent ${chit.sentAt}`, width),
    rule(width),
    ...chit.dishes.flatMap((dish, index) => [
      ...(hasCourses && chit.dishes[index - 1]?.course !== dish.course
        ? wrap(`-- Course ${dish.course} --`, width)
        : []),
      ...wrap(`${dish.quantity} x ${dish.name}${dish.seat === null ? '' : ` (seat ${dish.seat})`}`, width),
      ...dish.modifiers.flatMap((modifier) => indented(wrap(`+ ${modifier}`, width - 2))),
      ...(dish.notes.trim() ? wrap(`>> ${dish.notes.trim()}`, width) : []),
    ]),
    rule(width),
  ];
}
