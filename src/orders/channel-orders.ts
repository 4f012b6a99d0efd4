import { sql, type Updateable } from 'kysely';
import type { Db } from '../core/db/database';
import type { Database } from '../core/db/schema';
import { BadRequestError } from '../core/errors';
import { newId } from '../core/ids';
import { type ChannelLine, type HeldCart, heldCartOf, type UnmappedLine } from './held-cart';
import * as dishes from './order-dishes.repo';
import { recordDishesChanged, recordOrderEvent } from './order-events';
import * as orders from './orders.repo';
import { chooseModifiers, loadModifierMenu } from './plate-modifiers';

export type ChannelOrderInput = {
  channel: string;
  channelOrderId: string;
  code: string;
  customerFirstName: string | null;
  pickupAt: number | null;
  acceptBy: number | null;
  commissionCents: number | null;
  user: { id: string; name: string };
  lines: ChannelLine[];
  notes: string;
};

/**
 * Stores a delivery app's order with the plates it paid for, unless the channel already has it (then
 * undefined: one platform order is one POS order; the unique index on `(channel, channel_order_id)`
 * decides a race). Plates carry the platform's prices; options are checked against our menu as a
 * waiter's would be. A line that maps to nothing we can make is not dropped: it is kept on the order
 * by name and the order is `held` with no plates, for a person to map or deny; otherwise it is
 * `awaiting` acceptance.
 */
export async function insertChannelOrder(
  trx: Db,
  input: ChannelOrderInput,
  now: number,
): Promise<orders.OrderRow | undefined> {
  if (await findChannelOrder(trx, input.channel, input.channelOrderId)) return undefined;
  const { plates, unmapped } = await platesOf(trx, input.lines, input.notes, now);
  const id = newId();
  const row = await orders.insertOrder(trx, {
    id,
    user_id: input.user.id,
    table_id: null,
    waiter: input.user.name,
    status: 'pending',
    total_cents: unmapped.length > 0 ? 0 : plates.reduce((sum, plate) => sum + plate.price_at_order_cents, 0),
    created_at: now,
    updated_at: now,
    channel: input.channel,
    channel_order_id: input.channelOrderId,
    channel_code: input.code,
    customer_first_name: input.customerFirstName,
    pickup_at: input.pickupAt,
    accept_by: input.acceptBy,
    channel_commission_cents: input.commissionCents,
    channel_state: unmapped.length > 0 ? 'held' : 'awaiting',
    channel_unmapped:
      unmapped.length > 0 ? JSON.stringify({ lines: input.lines, notes: input.notes, unmapped }) : null,
  });
  await recordOrderEvent(trx, 'order.created', row, now);
  if (unmapped.length === 0) {
    await dishes.insertOrderDishes(
      trx,
      plates.map((plate) => ({ ...plate, order_id: id })),
    );
    await recordDishesChanged(trx, await dishes.findLiveOrderWithDishes(trx, id), now);
  }
  return row;
}

async function platesOf(trx: Db, lines: ChannelLine[], cartNotes: string, now: number) {
  const dishIds = lines.flatMap((line) => (line.dishId === null ? [] : [line.dishId]));
  const optionIds = lines.flatMap((line) => line.optionIds.filter((option) => option !== null));
  const [menuDishes, modifierMenu] = await Promise.all([
    dishes.findLiveDishPrices(trx, dishIds),
    loadModifierMenu(trx, dishIds, optionIds),
  ]);
  const menu = new Map(menuDishes.map((dish) => [dish.id, dish]));
  const unmapped: UnmappedLine[] = [];
  const plates: Omit<dishes.NewPlate, 'order_id'>[] = [];
  for (const [index, line] of lines.entries()) {
    const hold = (reason: string) =>
      unmapped.push({ index, name: line.name, quantity: line.quantity, reason });
    const dish = line.dishId === null ? undefined : menu.get(line.dishId);
    if (!dish) {
      hold('unknown_dish');
      continue;
    }
    if (line.optionIds.some((option) => option === null)) {
      hold('unknown_option');
      continue;
    }
    if (Number(dish.is_available) !== 1 || Number(dish.out_of_stock) === 1) {
      hold('unavailable');
      continue;
    }
    let modifiers: ReturnType<typeof chooseModifiers>;
    try {
      modifiers = chooseModifiers(modifierMenu, dish.id, line.optionIds as string[]);
    } catch (error) {
      if (!(error instanceof BadRequestError)) throw error;
      hold(error.message);
      continue;
    }
    const notes = [line.notes, index === 0 ? cartNotes : ''].filter((note) => note.trim() !== '').join(' · ');
    for (let unit = 0; unit < line.quantity; unit += 1) {
      plates.push({
        id: newId(),
        dish_id: dish.id,
        price_at_order_cents: line.unitPriceCents,
        notes,
        seat: null,
        course: 1,
        modifiers,
        created_at: now,
      });
    }
  }
  return { plates, unmapped };
}

export function findChannelOrder(
  db: Db,
  channel: string,
  channelOrderId: string,
): Promise<orders.OrderRow | undefined> {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('channel', '=', channel)
    .where('channel_order_id', '=', channelOrderId)
    .executeTakeFirst();
}

/** Moves a channel order along its flow with the platform, with the event every screen follows. */
export async function setChannelState(
  trx: Db,
  orderId: string,
  changes: Omit<Updateable<Database['orders']>, 'id'>,
  now: number,
): Promise<orders.OrderRow> {
  const updated = await orders.updateOrder(trx, orderId, { ...changes, updated_at: now });
  await recordOrderEvent(trx, 'order.updated', updated, now);
  return updated;
}

/**
 * A person says which dish (and options) a held order's lines are. Lines still unmapped keep the
 * order held; once every line maps, its plates are stored and it awaits acceptance. The caller holds
 * the order's lock.
 */
export async function remapHeldOrder(
  trx: Db,
  order: orders.OrderRow,
  replacements: { index: number; dishId: string; optionIds: string[] }[],
  now: number,
): Promise<orders.OrderRow> {
  const cart = heldCartOf(order);
  if (order.channel_state !== 'held' || cart === null)
    throw new BadRequestError('Only a held order is mapped');
  for (const { index } of replacements) {
    if (cart.lines[index] === undefined) throw new BadRequestError(`The order has no line ${index}`);
  }
  const lines = cart.lines.map((line, index) => {
    const replacement = replacements.find((candidate) => candidate.index === index);
    return replacement ? { ...line, dishId: replacement.dishId, optionIds: replacement.optionIds } : line;
  });
  const { plates, unmapped } = await platesOf(trx, lines, cart.notes, now);
  if (unmapped.length > 0) {
    const held: HeldCart = { lines, notes: cart.notes, unmapped };
    return setChannelState(trx, order.id, { channel_unmapped: JSON.stringify(held) }, now);
  }
  await dishes.insertOrderDishes(
    trx,
    plates.map((plate) => ({ ...plate, order_id: order.id })),
  );
  await orders.recalculateTotal(trx, order.id, now);
  const mapped = await setChannelState(
    trx,
    order.id,
    { channel_state: 'awaiting', channel_unmapped: null },
    now,
  );
  await recordDishesChanged(trx, await dishes.findLiveOrderWithDishes(trx, order.id), now);
  return mapped;
}

/**
 * Channel orders that are cooking and whose every live plate is ready: the kitchen is done, the
 * platform is to be told. Served plates count as ready (the counter handed them over).
 */
export function findChannelOrdersKitchenDone(db: Db, limit: number): Promise<orders.OrderRow[]> {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('channel_state', '=', 'accepted')
    .where('is_deleted', '=', sql.lit(0))
    .where((eb) =>
      eb.and([
        eb.exists(
          eb
            .selectFrom('order_dishes')
            .select(sql.lit(1).as('one'))
            .whereRef('order_dishes.order_id', '=', 'orders.id')
            .where('order_dishes.status', 'in', ['ready', 'served']),
        ),
        eb.not(
          eb.exists(
            eb
              .selectFrom('order_dishes')
              .select(sql.lit(1).as('one'))
              .whereRef('order_dishes.order_id', '=', 'orders.id')
              .where('order_dishes.status', 'in', ['pending', 'sent', 'preparing']),
          ),
        ),
      ]),
    )
    .limit(limit)
    .execute();
}
