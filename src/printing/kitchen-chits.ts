import type { Db } from '../core/db/database';
import { NotFoundError } from '../core/errors';
import { loadSettings } from '../settings/settings.api';
import { type Chit, type ChitDish, chitLines } from './chit-layout';
import * as chits from './chits.repo';
import { escposOf } from './escpos';
import { formatPaperDateTime } from './paper-language';
import { enqueuePrintJob } from './print-queue';
import { lockKitchenPrinters } from './printers.repo';

/** A dish just sent to the kitchen, and the station (its category's) that prepares it. */
export type SentDish = { orderDishId: string; station: string };

/**
 * Queues a chit on each kitchen printer for the dishes of its station (a printer without a station
 * takes them all), inside the transaction that sends the dishes (or voids them: a chit marked void,
 * so the station stops making them): the chits exist exactly when the change commits, and a printer
 * that is off never fails it. Returns how many chits were queued.
 */
export async function enqueueKitchenChits(
  trx: Db,
  sent: { orderId: string; dishes: SentDish[]; now: number; voided?: { reason: string | null } },
): Promise<number> {
  if (sent.dishes.length === 0) return 0;
  const printers = await lockKitchenPrinters(trx);
  if (printers.length === 0) return 0;
  const header = await chits.findChitHeader(trx, sent.orderId);
  if (!header) throw new NotFoundError();
  const { timeZone, locale } = await loadSettings(trx);
  const stationOf = new Map(sent.dishes.map((dish) => [dish.orderDishId, stationKey(dish.station)]));
  const plateIds = [...stationOf.keys()];
  const modifiers = new Map<string, string[]>();
  for (const choice of await chits.findChitModifiers(trx, plateIds)) {
    modifiers.set(choice.order_dish_id, [...(modifiers.get(choice.order_dish_id) ?? []), choice.name]);
  }
  const rows = (await chits.findChitDishes(trx, sent.orderId, plateIds)).map((row) => ({
    name: row.name,
    notes: row.notes,
    id: row.id,
    seat: row.seat === null ? null : Number(row.seat),
    course: Number(row.course),
    modifiers: modifiers.get(row.id) ?? [],
  }));
  let queued = 0;
  for (const printer of printers) {
    const station = printer.station === null ? null : stationKey(printer.station);
    const mine = rows.filter((row) => station === null || stationOf.get(row.id) === station);
    if (mine.length === 0) continue;
    const chit: Chit = {
      locale,
      station: printer.station,
      orderId: sent.orderId,
      tableName: header.table_name,
      waiter: header.waiter,
      sentAt: formatPaperDateTime(locale, sent.now, timeZone),
      dishes: grouped(mine),
      ...(sent.voided && { voided: sent.voided }),
    };
    const width = Number(printer.width);
    await enqueuePrintJob(
      trx,
      {
        printerId: printer.id,
        kind: 'kitchen_chit',
        bytes: escposOf(chitLines(chit, width), width),
        orderId: sent.orderId,
      },
      sent.now,
    );
    queued += 1;
  }
  return queued;
}

/** A plate the kitchen has and has not handed out: voiding it must reach the station on paper. */
export function isBeingMade(status: string): boolean {
  return status === 'sent' || status === 'preparing' || status === 'ready';
}

/** Stations are names people type: `Grill` and ` grill` are the same one. */
function stationKey(station: string): string {
  return station.trim().toLowerCase();
}

/** The same dish with the same options, seat, course and notes once, with how many; first ordered first. */
function grouped(rows: Omit<ChitDish, 'quantity'>[]): ChitDish[] {
  const byKey = new Map<string, ChitDish>();
  for (const row of rows) {
    const key = JSON.stringify([row.course, row.name, row.modifiers, row.seat, row.notes]);
    const found = byKey.get(key);
    if (found) found.quantity += 1;
    else byKey.set(key, { ...row, quantity: 1 });
  }
  return [...byKey.values()];
}
