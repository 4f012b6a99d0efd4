import { shortCode } from '../core/ids';
import type { PaperLocale } from '../settings/settings.api';
import { channelLabel, type PaperWords, paperWords, tableLabel } from './paper-language';
import { centered, indented, rule, wrap } from './text-layout';

/** A kitchen chit: what one station must prepare for one order, and for whom. */
export type Chit = {
  /** The restaurant's language. */
  locale: PaperLocale;
  /** null: a printer that takes every station's dishes. */
  station: string | null;
  orderId: string;
  tableName: string | null;
  waiter: string;
  /** e.g. `22/11/2026 12:00`, local to the restaurant and written in its language. */
  sentAt: string;
  /** By course; the same dish with the same options, seat and notes counted once. */
  dishes: ChitDish[];
  /** A void: the station stops making these dishes; undefined for dishes sent to be made. */
  voided?: { reason: string | null };
  /** A delivery app's order: printed instead of the table and the waiter. */
  delivery?: ChitDelivery;
};

/** What the counter and the courier go by: the platform, its code, the customer, the pickup time. */
export type ChitDelivery = {
  channel: string;
  code: string;
  customer: string | null;
  pickupAt: string | null;
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
  const words = paperWords(chit.locale);
  // The station every category starts in is a code, "kitchen": the cooks read it in their language.
  const station = chit.station ?? 'kitchen';
  const voidLines = chit.voided
    ? [
        ...centered(`*** ${words.voided} ***`, width),
        ...(chit.voided.reason ? wrap(`${words.voidReason} ${chit.voided.reason}`, width) : []),
      ]
    : [];
  return [
    ...voidLines,
    ...centered(station.toLowerCase() === 'kitchen' ? words.kitchen : station.toUpperCase(), width),
    ...(chit.delivery
      ? deliveryLines(chit.delivery, words, width)
      : [
          ...wrap(chit.tableName === null ? words.noTable : tableLabel(words.table, chit.tableName), width),
          ...wrap(`${words.waiter} ${chit.waiter}`, width),
        ]),
    ...wrap(`${words.order} ${shortCode(chit.orderId)}`, width),
    ...wrap(`${words.sent} ${chit.sentAt}`, width),
    rule(width),
    ...dishLines(chit.dishes, words, width),
    rule(width),
    ...voidLines,
  ];
}

export function deliveryLines(delivery: ChitDelivery, words: PaperWords, width: number): string[] {
  return [
    ...centered(`*** ${channelLabel(delivery.channel).toUpperCase()} ${delivery.code} ***`, width),
    ...(delivery.customer ? wrap(`${words.customer} ${delivery.customer}`, width) : []),
    ...(delivery.pickupAt ? wrap(`${words.pickup} ${delivery.pickupAt}`, width) : []),
  ];
}

/** The plates by course, each option on its own line under its dish and notes marked to catch the eye. */
export function dishLines(dishes: ChitDish[], words: PaperWords, width: number): string[] {
  const hasCourses = dishes.some((dish) => dish.course !== 1);
  return dishes.flatMap((dish, index) => [
    ...(hasCourses && dishes[index - 1]?.course !== dish.course
      ? wrap(`-- ${words.course} ${dish.course} --`, width)
      : []),
    ...wrap(
      `${dish.quantity} x ${dish.name}${dish.seat === null ? '' : ` (${words.seat} ${dish.seat})`}`,
      width,
    ),
    ...dish.modifiers.flatMap((modifier) => indented(wrap(`+ ${modifier}`, width - 2))),
    ...(dish.notes.trim() ? wrap(`>> ${dish.notes.trim()}`, width) : []),
  ]);
}
