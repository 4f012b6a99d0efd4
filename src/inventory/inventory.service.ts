import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import type { StockItemType } from '../core/db/schema';
import { BadRequestError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import { isWholeThousandths } from '../core/quantity';
import { localDaysToRange, toIsoUtc } from '../core/time';
import { loadSettings } from '../settings/settings.api';
import type {
  CountBody,
  MovementBody,
  MovementsQuery,
  MovementView,
  StockItemView,
} from './inventory.schemas';
import { fromBase, toBase } from './quantities';
import * as repo from './stock.repo';
import { moveStock } from './stock.service';

export const DELTA_ZERO = 'delta cannot be 0';
export const RECEIVING_NEGATIVE = 'A delivery adds stock: delta must be above 0';
export const WASTE_POSITIVE = 'Waste takes stock away: delta must be below 0';
export const COUNTED_TWICE = 'Each item is counted once per sheet';
export const itemNotFound = (itemType: StockItemType, id: string) =>
  `${itemType === 'ingredient' ? 'Ingredient' : 'Product'} with ID: ${id} not found`;

/** A quantity in the item's unit as base units; 400 when it has more precision than the item keeps. */
function baseQuantity(itemType: StockItemType, field: string, quantity: number): number {
  if (itemType === 'ingredient' && !isWholeThousandths(quantity)) {
    throw new BadRequestError(`${field} must have at most 3 decimals`);
  }
  if (itemType === 'product' && !Number.isInteger(quantity)) {
    throw new BadRequestError(`${field} must be a whole number of units for a product`);
  }
  return toBase(itemType, quantity);
}

async function lockLiveItem(trx: Db, itemType: StockItemType, id: string): Promise<repo.StockItemRow> {
  const item = await repo.lockItem(trx, itemType, id);
  if (!item || Number(item.is_deleted) === 1) throw new BadRequestError(itemNotFound(itemType, id));
  return item;
}

function toStockView(item: repo.StockItemRow & { item_type: StockItemType }): StockItemView {
  return {
    item_type: item.item_type,
    id: item.id,
    name: item.name,
    unit: item.unit,
    stock: fromBase(item.item_type, item.stock),
    reorder_level: fromBase(item.item_type, item.reorder_level),
    low: item.stock <= item.reorder_level,
    out: item.stock <= 0,
  };
}

/** Every live item, those at or below their reorder level first (what to order today), then by name. */
export async function listStock(ctx: AppContext): Promise<StockItemView[]> {
  const items = (await repo.listLiveItems(ctx.db))
    .map(toStockView)
    .sort((a, b) => a.name.localeCompare(b.name));
  return [...items.filter((item) => item.low), ...items.filter((item) => !item.low)];
}

export async function listLowStock(ctx: AppContext): Promise<StockItemView[]> {
  return (await listStock(ctx)).filter((item) => item.low);
}

/** A tablet that lost the answer retries with its Idempotency-Key: a delivery is never counted twice. */
export function recordMovement(
  ctx: AppContext,
  principal: Principal,
  body: MovementBody,
  claim: IdempotencyClaim | undefined,
): Promise<string> {
  const delta = baseQuantity(body.item_type, 'delta', body.delta);
  if (delta === 0) throw new BadRequestError(DELTA_ZERO);
  if (body.reason === 'receiving' && delta < 0) throw new BadRequestError(RECEIVING_NEGATIVE);
  if (body.reason === 'waste' && delta > 0) throw new BadRequestError(WASTE_POSITIVE);
  const now = ctx.clock.now();
  return inIdempotentTransaction(ctx.db, { claim, statusCode: 201, now }, async (trx) => {
    await lockLiveItem(trx, body.item_type, body.item_id);
    const [id] = await moveStock(trx, [
      {
        itemType: body.item_type,
        itemId: body.item_id,
        delta,
        reason: body.reason,
        userId: principal.id,
        note: body.note?.trim() ?? '',
        now,
      },
    ]);
    return id as string;
  });
}

/**
 * A whole count sheet in one transaction: each item's stock becomes what was counted, the difference
 * recorded as a `count` movement. Each item is locked before its stock is read, so a plate sent
 * meanwhile lands either before the count (and is counted over) or after it (and comes off the count).
 */
export function recordCount(
  ctx: AppContext,
  principal: Principal,
  body: CountBody,
  claim: IdempotencyClaim | undefined,
): Promise<number> {
  const items = body.counts.map((count) => ({ itemType: count.item_type, itemId: count.item_id }));
  if (new Set(items.map(repo.stockItemKey)).size !== items.length) throw new BadRequestError(COUNTED_TWICE);
  const counts = body.counts
    .map((count) => ({
      itemType: count.item_type,
      itemId: count.item_id,
      counted: baseQuantity(count.item_type, 'counted', count.counted),
    }))
    .sort(repo.inLockOrder);
  const now = ctx.clock.now();
  // A replayed sheet must not set the stock again over the sales made since the first one.
  return inIdempotentTransaction(ctx.db, { claim, statusCode: 200, now }, async (trx) => {
    const movements: repo.NewMovement[] = [];
    for (const count of counts) {
      const item = await lockLiveItem(trx, count.itemType, count.itemId);
      const delta = count.counted - item.stock;
      if (delta === 0) continue;
      movements.push({
        itemType: count.itemType,
        itemId: count.itemId,
        delta,
        reason: 'count',
        userId: principal.id,
        now,
      });
    }
    return (await moveStock(trx, movements)).length;
  });
}

export async function listMovements(ctx: AppContext, query: MovementsQuery): Promise<MovementView[]> {
  const { timeZone } = await loadSettings(ctx.db);
  const from = query.from === undefined ? undefined : localDaysToRange(query.from, query.from, timeZone).from;
  const to = query.to === undefined ? undefined : localDaysToRange(query.to, query.to, timeZone).to;
  const rows = await repo.listMovements(ctx.db, {
    itemType: query.item_type,
    itemId: query.item_id,
    from,
    to,
    limit: query.limit,
    offset: query.offset,
  });
  return rows.map((row) => ({
    id: row.id,
    item_type: row.item_type,
    item_id: row.item_id,
    item_name: row.item_name,
    unit: row.unit,
    delta: fromBase(row.item_type, row.delta),
    stock_after: fromBase(row.item_type, row.stock_after),
    reason: row.reason,
    order_dish_id: row.order_dish_id,
    user_id: row.user_id,
    user_name: row.user_name,
    note: row.note,
    at: toIsoUtc(Number(row.at)),
  }));
}
