import type { Db } from '../core/db/database';
import { NotFoundError } from '../core/errors';
import { shortCode } from '../core/ids';
import { loadSettings } from '../settings/settings.api';
import {
  type Chit,
  type ChitDelivery,
  type ChitDish,
  chitLines,
  deliveryLines,
  dishLines,
} from './chit-layout';
import * as chits from './chits.repo';
import { escposOf } from './escpos';
import { formatPaperDateTime, formatPaperTime, paperWords } from './paper-language';
import { enqueuePrintJob } from './print-queue';
import { lockKitchenPrinters, lockReceiptPrinter } from './printers.repo';
import { centered, rule, wrap } from './text-layout';

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
      ...(header.channel !== 'dine_in' && { delivery: deliveryOf(header, timeZone) }),
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

type ChitHeader = NonNullable<Awaited<ReturnType<typeof chits.findChitHeader>>>;

function deliveryOf(header: ChitHeader, timeZone: string): ChitDelivery {
  return {
    channel: header.channel,
    code: header.channel_code ?? '',
    customer: header.customer_first_name,
    pickupAt: header.pickup_at === null ? null : formatPaperTime(Number(header.pickup_at), timeZone),
  };
}

/**
 * The packing slip of a delivery app's order, on the receipt printer, in the transaction that accepts
 * it: the code the courier says, the customer's first name, every plate with its options and notes,
 * and no prices (the bag is sealed with it). None when no receipt printer is set up.
 */
export async function enqueuePackingSlip(trx: Db, orderId: string, now: number): Promise<boolean> {
  const printer = await lockReceiptPrinter(trx);
  if (!printer) return false;
  const header = await chits.findChitHeader(trx, orderId);
  if (!header) throw new NotFoundError();
  const { timeZone, locale } = await loadSettings(trx);
  const plates = await chits.findLivePlates(trx, orderId);
  const modifiers = new Map<string, string[]>();
  for (const choice of await chits.findChitModifiers(
    trx,
    plates.map((plate) => plate.id),
  )) {
    modifiers.set(choice.order_dish_id, [...(modifiers.get(choice.order_dish_id) ?? []), choice.name]);
  }
  const width = Number(printer.width);
  const words = paperWords(locale);
  const lines = [
    ...centered(words.packingSlip, width),
    ...deliveryLines(deliveryOf(header, timeZone), words, width),
    ...wrap(`${words.order} ${shortCode(orderId)}`, width),
    rule(width),
    ...dishLines(
      grouped(
        plates.map((plate) => ({
          name: plate.name,
          notes: plate.notes,
          seat: null,
          course: 1,
          modifiers: modifiers.get(plate.id) ?? [],
        })),
      ),
      words,
      width,
    ),
    rule(width),
    ...wrap(words.packingCheck, width),
  ];
  await enqueuePrintJob(
    trx,
    { printerId: printer.id, kind: 'receipt', bytes: escposOf(lines, width), orderId },
    now,
  );
  return true;
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
