import { type AuditActor, recordAudit } from '../audit/audit.api';
import type { Db } from '../core/db/database';
import type { StockItemType } from '../core/db/schema';
import { recordEvent } from '../events/events.api';
import { fromBase } from './quantities';
import { findPlateRecipes, findRecipesUsing, itemOf } from './recipes.repo';
import {
  applyMovement,
  findSaleMovements,
  inLockOrder,
  type MovedItem,
  type NewMovement,
  stockItemKey,
} from './stock.repo';

/** The actor of the 86s the stock makes by itself: a send or a count ran an item out, nobody pressed 86. */
const STOCK_ACTOR: AuditActor = { id: null, name: 'stock' };

type ItemChange = {
  itemType: StockItemType;
  itemId: string;
  before: number;
  after: MovedItem;
  delta: number;
};

/**
 * Applies movements in the caller's transaction and announces what they changed. Items are moved in
 * one order (type, id) by every transaction, so two sends that share items queue on the first they
 * share instead of deadlocking. Answers the ids of the movements recorded (none for an item that does
 * not exist).
 */
export async function moveStock(trx: Db, movements: NewMovement[]): Promise<string[]> {
  const sorted = [...movements].sort(inLockOrder);
  const changes = new Map<string, ItemChange>();
  const movementIds: string[] = [];
  for (const movement of sorted) {
    const moved = await applyMovement(trx, movement);
    if (!moved) continue;
    movementIds.push(moved.movementId);
    const key = stockItemKey(movement);
    const change = changes.get(key);
    if (change) {
      change.after = moved;
      change.delta += movement.delta;
    } else {
      changes.set(key, {
        itemType: movement.itemType,
        itemId: movement.itemId,
        before: moved.stock - movement.delta,
        after: moved,
        delta: movement.delta,
      });
    }
  }
  const now = movements[0]?.now ?? 0;
  const reason = movements[0]?.reason;
  for (const change of changes.values()) await announceStock(trx, change, reason, now);
  await announceAvailability(trx, [...changes.values()], now);
  return movementIds;
}

async function announceStock(
  trx: Db,
  change: ItemChange,
  reason: string | undefined,
  now: number,
): Promise<void> {
  const { itemType, itemId, after } = change;
  const data = {
    item_type: itemType,
    item_id: itemId,
    name: after.name,
    stock: fromBase(itemType, after.stock),
    delta: fromBase(itemType, change.delta),
    reorder_level: fromBase(itemType, after.reorder_level),
    reason,
  };
  await recordEvent(trx, { type: 'stock.moved', data, at: now });
  if (change.before > after.reorder_level && after.stock <= after.reorder_level) {
    await recordEvent(trx, { type: 'stock.low', data, at: now });
  }
}

/**
 * An item that ran out (to zero or below) takes every dish and option that needs it off the menu; one
 * back above zero returns those that need nothing else that is out. Only crossings are announced: the
 * menu's availability itself is read from the stock (recipes.repo `outOfStock`), never from here.
 */
async function announceAvailability(trx: Db, changes: ItemChange[], now: number): Promise<void> {
  const ranOut = new Set<string>();
  const cameBack = new Set<string>();
  for (const change of changes) {
    const key = stockItemKey(change);
    if (change.before > 0 && change.after.stock <= 0) ranOut.add(key);
    if (change.before <= 0 && change.after.stock > 0) cameBack.add(key);
  }
  if (ranOut.size === 0 && cameBack.size === 0) return;
  const crossed = changes.filter(
    (change) => ranOut.has(stockItemKey(change)) || cameBack.has(stockItemKey(change)),
  );
  const lines = await findRecipesUsing(trx, crossed);
  const owners = new Map<
    string,
    {
      dishId: string | null;
      optionId: string | null;
      groupId: string | null;
      out: string[];
      crossed: boolean;
      /** An item of its recipe came back: it was off the menu before this transaction. */
      returned: boolean;
    }
  >();
  for (const line of lines) {
    const ownerKey = line.dish_id ?? `option:${line.option_id}`;
    const owner = owners.get(ownerKey) ?? {
      dishId: line.dish_id,
      optionId: line.option_id,
      groupId: line.group_id,
      out: [],
      crossed: false,
      returned: false,
    };
    const key = stockItemKey(itemOf(line));
    if (line.stock <= 0) owner.out.push(key);
    if (ranOut.has(key) || cameBack.has(key)) owner.crossed = true;
    if (cameBack.has(key)) owner.returned = true;
    owners.set(ownerKey, owner);
  }
  // Dishes before options, each by id: the same changes announce themselves in the same order.
  const ordered = [...owners.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, owner]) => owner);
  for (const owner of ordered) {
    if (!owner.crossed) continue;
    // Out now, only because of what ran out in this transaction and with nothing of it coming back:
    // it was on the menu before.
    const wentOut = owner.out.length > 0 && owner.out.every((key) => ranOut.has(key)) && !owner.returned;
    const cameIn = owner.out.length === 0;
    if (!wentOut && !cameIn) continue;
    const available = cameIn;
    const data =
      owner.dishId !== null
        ? { dish_id: owner.dishId, available, reason: 'out_of_stock' }
        : { option_id: owner.optionId, group_id: owner.groupId, available, reason: 'out_of_stock' };
    await recordEvent(trx, { type: 'dish.availability_changed', data, at: now });
    // Audited as the hand 86 is, so that the day's stock-outs outlive the event stream's day.
    if (owner.dishId !== null) {
      await recordAudit(trx, {
        at: now,
        actor: STOCK_ACTOR,
        action: 'dish.availability_changed',
        target: { type: 'dish', id: owner.dishId },
        before: { available: !available },
        after: { available, reason: 'out_of_stock', items: owner.out },
      });
    }
  }
}

/**
 * Takes what these plates use off the stock as they go to the kitchen, one `sale` movement per plate
 * and item, in the send's transaction.
 */
export async function recordSales(
  trx: Db,
  orderDishIds: string[],
  userId: string | null,
  now: number,
): Promise<void> {
  const lines = await findPlateRecipes(trx, orderDishIds);
  if (lines.length === 0) return;
  const perPlateItem = new Map<string, NewMovement>();
  for (const line of lines) {
    const { itemType, itemId } = itemOf(line);
    const key = `${line.order_dish_id} ${stockItemKey({ itemType, itemId })}`;
    const movement = perPlateItem.get(key);
    if (movement) movement.delta -= line.quantity;
    else
      perPlateItem.set(key, {
        itemType,
        itemId,
        delta: -line.quantity,
        reason: 'sale',
        orderDishId: line.order_dish_id,
        userId,
        now,
      });
  }
  await moveStock(trx, [...perPlateItem.values()]);
}

/**
 * Puts back what plates voided before the kitchen started on them had taken: exactly their sale
 * movements, reversed, whatever their recipes say now.
 */
export async function returnVoidedStock(
  trx: Db,
  orderDishIds: string[],
  userId: string | null,
  now: number,
): Promise<void> {
  const sales = await findSaleMovements(trx, orderDishIds);
  if (sales.length === 0) return;
  await moveStock(
    trx,
    sales.map((sale) => ({
      itemType: sale.item_type,
      itemId: sale.item_id,
      delta: -Number(sale.delta),
      reason: 'void',
      orderDishId: sale.order_dish_id,
      userId,
      now,
    })),
  );
}
