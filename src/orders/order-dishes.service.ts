import { type Approver, authorizeApprovable } from '../approvals/approvals.api';
import { type AuditEntry, recordAudit } from '../audit/audit.api';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { BadRequestError, NotFoundError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import { toCents } from '../core/money';
import { returnVoidedStock } from '../inventory/inventory.api';
import { enqueueKitchenChits, isBeingMade } from '../printing/printing.api';
import { findBilledDishIds } from './order-bills.repo';
import * as dishes from './order-dishes.repo';
import { findLiveDishPrices, type OrderDishChanges, type OrderDishDetail } from './order-dishes.repo';
import { recordDishesChanged } from './order-events';
import { priceDishEntries } from './order-links';
import { assertDishesCanChange } from './order-status';
import { toOrderDishView } from './order-views';
import * as orders from './orders.repo';
import type { DishEntry, OrderDishUpdateRequest, OrderDishView } from './orders.schemas';
import {
  chooseModifiers,
  loadModifierMenu,
  type ModifierChoice,
  PRICE_MISMATCH,
  priceWithModifiers,
} from './plate-modifiers';
import { authorizeOverrides, overrideAudit, type PriceOverride } from './price-overrides';
import { refreshSalesFacts } from './sales-facts';

const DISH_ON_BILL = 'Dish is on a bill';

/**
 * Every change takes the order's row lock first, then writes, then stores the new sum as the total,
 * all in one transaction: two tablets adding dishes at once are serialised on the order, so
 * neither computes a sum that misses the other's dish. Bills take the same lock, so a dish cannot
 * be billed and removed at once, and the total never falls below what the live bills claim. The
 * audit entries a change gathers are written last, as the audit chain's lock asks.
 */
function changeDishes<T>(
  ctx: AppContext,
  orderId: string,
  change: (trx: Db, now: number, audits: AuditEntry[]) => Promise<T>,
  claim?: IdempotencyClaim,
): Promise<T> {
  const now = ctx.clock.now();
  return inIdempotentTransaction(ctx.db, { claim, statusCode: 201, now }, async (trx) => {
    const order = await orders.lockLiveOrder(trx, orderId);
    if (!order) throw new NotFoundError();
    assertDishesCanChange(order.status);
    const audits: AuditEntry[] = [];
    const result = await change(trx, now, audits);
    // Only an order with bills can fall below them; the check on the order row stands behind this.
    const billedCents = Number(order.billed_cents);
    if (billedCents > 0 && (await dishes.sumOfDishes(trx, orderId)) < billedCents) {
      throw new BadRequestError('The order total would fall below its bills: cancel a bill first');
    }
    await orders.recalculateTotal(trx, orderId, now);
    // A bill split by amount is shared over the order's dishes, whatever they are now.
    if (billedCents > 0) await refreshSalesFacts(trx, orderId);
    await recordDishesChanged(trx, await dishes.findLiveOrderWithDishes(trx, orderId), now);
    for (const entry of audits) await recordAudit(trx, entry);
    return result;
  });
}

export async function listOrderDishes(ctx: AppContext, orderId: string): Promise<OrderDishView[]> {
  const found = await dishes.findLiveOrderWithDishes(ctx.db, orderId);
  if (!found) throw new NotFoundError();
  return found.dishes.map(toOrderDishView);
}

export async function addDishes(
  ctx: AppContext,
  principal: Principal,
  orderId: string,
  entries: DishEntry[],
  claim: IdempotencyClaim | undefined,
): Promise<{ ids: string[] }> {
  // Reading the menu before the transaction keeps the order's lock short; the foreign key still
  // guarantees the dish exists when the row is written.
  const { dishes: priced, overrides } = await priceDishEntries(ctx.db, entries);
  authorizeOverrides(principal, overrides);
  return changeDishes(
    ctx,
    orderId,
    async (trx, now, audits) => {
      await dishes.insertOrderDishes(
        trx,
        priced.map((dish) => ({ ...dish, order_id: orderId, created_at: now })),
      );
      const audit = overrideAudit(principal, orderId, overrides, now);
      if (audit) audits.push(audit);
      return { ids: priced.map((dish) => dish.id) };
    },
    claim,
  );
}

/**
 * Changes what the body sends. Notes, seat and course may change at any time; the options only while
 * the plate is pending (the kitchen has not seen it) and not on a bill, and a new choice reprices the
 * plate in the same transaction. Sending back the options or the price the plate already has is no change.
 */
export function updateOrderDish(
  ctx: AppContext,
  principal: Principal,
  orderId: string,
  orderDishId: string,
  input: OrderDishUpdateRequest,
): Promise<void> {
  return changeDishes(ctx, orderId, async (trx, now, audits) => {
    const plate = (await dishes.findLiveOrderWithDishes(trx, orderId))?.dishes.find(
      (dish) => dish.id === orderDishId,
    );
    if (!plate) throw new NotFoundError();
    // A client that sends another status believes it moved the plate; say which route does.
    if (input.status !== undefined && input.status !== plate.status) {
      throw new BadRequestError(`status is not changed here: use ${ROUTE_OF_STATUS[input.status]}`);
    }
    const wanted = input.modifiers?.map((modifier) =>
      typeof modifier === 'string' ? modifier : modifier.option_id,
    );
    const changes: OrderDishChanges = {
      ...(input.notes !== undefined && { notes: input.notes ?? '' }),
      ...(input.seat !== undefined && { seat: input.seat }),
      ...(input.course !== undefined && { course: input.course }),
    };
    if (wanted !== undefined && !isSameChoice(wanted, plate.modifiers)) {
      changes.price_at_order_cents = await rechoose(trx, orderId, plate, wanted, input.price_at_order);
    } else if (input.price_at_order !== undefined && plate.modifiers.length > 0) {
      if (toCents(input.price_at_order) !== plate.price_at_order_cents)
        throw new BadRequestError(PRICE_MISMATCH);
    } else if (input.price_at_order !== undefined) {
      const override = await repricing(trx, orderId, orderDishId, input.price_at_order);
      authorizeOverrides(principal, override ? [override] : []);
      // Re-sending the price a billed dish already has is not a reprice.
      const isReprice = plate.price_at_order_cents !== toCents(input.price_at_order);
      if (isReprice && (await isBilled(trx, orderId, orderDishId))) throw new BadRequestError(DISH_ON_BILL);
      const audit = override && overrideAudit(principal, orderId, [override], now);
      if (audit) audits.push(audit);
      changes.price_at_order_cents = toCents(input.price_at_order);
    }
    if (!(await dishes.updateOrderDish(trx, orderId, orderDishId, changes))) throw new NotFoundError();
  });
}

/** The route that moves a plate to each status. */
const ROUTE_OF_STATUS: Readonly<Record<OrderDishView['status'], string>> = {
  pending: 'PUT /orders/{id}/dishes/{dishId}/status',
  sent: 'POST /orders/{id}/send',
  preparing: 'PUT /orders/{id}/dishes/{dishId}/status',
  ready: 'PUT /orders/{id}/dishes/{dishId}/status',
  served: 'POST /orders/{id}/dishes/{dishId}/serve',
  voided: 'PUT /orders/{id}/dishes/{dishId}/status',
};

export const MODIFIERS_FROZEN = 'Modifiers cannot change once the plate is sent to the kitchen';

function isSameChoice(wanted: string[], current: readonly ModifierChoice[]): boolean {
  const held = new Set(current.map((modifier) => modifier.option_id));
  return wanted.length === held.size && wanted.every((id) => held.has(id));
}

/** Checks a pending plate's new options, stores them and answers its new price in cents. */
async function rechoose(
  trx: Db,
  orderId: string,
  plate: OrderDishDetail,
  wanted: string[],
  sentPrice: number | undefined,
): Promise<number> {
  if (plate.status !== 'pending') throw new BadRequestError(MODIFIERS_FROZEN);
  if (await isBilled(trx, orderId, plate.id)) throw new BadRequestError(DISH_ON_BILL);
  const twice = wanted.find((id, index) => wanted.indexOf(id) !== index);
  if (twice) throw new BadRequestError(`Option ${twice} is chosen twice`);
  const [menuDish] = await findLiveDishPrices(trx, [plate.dish_id]);
  if (!menuDish) throw new BadRequestError(`Dish with ID: ${plate.dish_id} not found`);
  const modifiers = chooseModifiers(
    await loadModifierMenu(trx, [plate.dish_id], wanted),
    plate.dish_id,
    wanted,
  );
  const priceCents = priceWithModifiers(Number(menuDish.price_cents), modifiers);
  if (sentPrice !== undefined && toCents(sentPrice) !== priceCents) throw new BadRequestError(PRICE_MISMATCH);
  await dishes.replaceModifierChoices(trx, plate.id, modifiers);
  return priceCents;
}

export function removeOrderDish(
  ctx: AppContext,
  principal: Principal,
  orderId: string,
  orderDishId: string,
): Promise<void> {
  return changeDishes(ctx, orderId, async (trx, now, audits) => {
    const approver = await authorizeRemoval(trx, principal, orderId, now, (dish) => dish.id === orderDishId);
    if (await isBilled(trx, orderId, orderDishId)) throw new BadRequestError(DISH_ON_BILL);
    const removed = await kitchenDishes(trx, orderId, (dish) => dish.id === orderDishId);
    await printVoidChits(trx, orderId, removed, now);
    if (!(await dishes.deleteOrderDish(trx, orderId, orderDishId))) throw new NotFoundError();
    await returnUnstartedStock(trx, removed, principal, now);
    const audit = removedKitchenDishesAudit(principal, approver, orderId, removed, now);
    if (audit) audits.push(audit);
  });
}

export function removeAllOrderDishes(ctx: AppContext, principal: Principal, orderId: string): Promise<void> {
  return changeDishes(ctx, orderId, async (trx, now, audits) => {
    const approver = await authorizeRemoval(trx, principal, orderId, now, () => true);
    if ((await findBilledDishIds(trx, orderId)).size > 0) throw new BadRequestError(DISH_ON_BILL);
    const removed = await kitchenDishes(trx, orderId, () => true);
    await printVoidChits(trx, orderId, removed, now);
    await dishes.deleteAllOrderDishes(trx, orderId);
    await returnUnstartedStock(trx, removed, principal, now);
    const audit = removedKitchenDishesAudit(principal, approver, orderId, removed, now);
    if (audit) audits.push(audit);
  });
}

/**
 * The override a new price of an order dish would be: none when it keeps the price the dish has
 * (a client re-sending the dish) or goes back to the menu's. An unknown dish is the update's 404.
 */
async function repricing(
  trx: Db,
  orderId: string,
  orderDishId: string,
  price: number,
): Promise<PriceOverride | undefined> {
  const current = await dishes.findOrderDishPrice(trx, orderId, orderDishId);
  if (!current) return undefined;
  const priceCents = toCents(price);
  const menuPriceCents = current.menu_price_cents === null ? null : Number(current.menu_price_cents);
  if (priceCents === Number(current.price_at_order_cents) || priceCents === menuPriceCents) return undefined;
  return {
    orderDishId,
    dishId: current.dish_id,
    menuPriceCents,
    previousCents: Number(current.price_at_order_cents),
    priceCents,
  };
}

/**
 * Dishes the kitchen already has (sent or further, not yet voided). Removing one of them takes food
 * that was made or ordered off the order: a void, audited as one. A pending dish is only a draft.
 */
async function kitchenDishes(
  trx: Db,
  orderId: string,
  isRemoved: (dish: { id: string }) => boolean,
): Promise<OrderDishView[]> {
  const found = await dishes.findLiveOrderWithDishes(trx, orderId);
  return (found?.dishes ?? [])
    .filter((dish) => isRemoved(dish) && dish.status !== 'pending' && dish.status !== 'voided')
    .map(toOrderDishView);
}

/** Plates taken off that the kitchen is making: each station gets a void chit, as a void of them prints. */
async function printVoidChits(
  trx: Db,
  orderId: string,
  removed: OrderDishView[],
  now: number,
): Promise<void> {
  const beingMade = removed.filter((dish) => isBeingMade(dish.status));
  const sent = beingMade.map((dish) => ({ orderDishId: dish.id, station: dish.station }));
  await enqueueKitchenChits(trx, { orderId, dishes: sent, now, voided: { reason: null } });
}

/** Plates taken off that the kitchen had not started give their stock back, as a void of them does. */
function returnUnstartedStock(
  trx: Db,
  removed: OrderDishView[],
  principal: Principal,
  now: number,
): Promise<void> {
  const unstarted = removed.filter((dish) => dish.status === 'sent').map((dish) => dish.id);
  return returnVoidedStock(trx, unstarted, principal.id, now);
}

/**
 * A plate not yet sent is a draft anyone who edits the order may take back; removing one the kitchen
 * has (or had: voided, served) takes food off the order, which is a void (REQUEST_PERMISSIONS).
 */
async function authorizeRemoval(
  trx: Db,
  principal: Principal,
  orderId: string,
  now: number,
  isRemoved: (dish: { id: string }) => boolean,
): Promise<Approver | null> {
  const found = await dishes.findLiveOrderWithDishes(trx, orderId);
  const kitchenPlates = (found?.dishes ?? []).filter((dish) => isRemoved(dish) && dish.status !== 'pending');
  if (kitchenPlates.length === 0) return null;
  const orderDishIds = kitchenPlates.map((dish) => dish.id);
  return authorizeApprovable(trx, principal, 'voidDish', { orderId, orderDishIds }, now);
}

function removedKitchenDishesAudit(
  principal: Principal,
  approver: Approver | null,
  orderId: string,
  removed: OrderDishView[],
  now: number,
): AuditEntry | undefined {
  if (removed.length === 0) return undefined;
  return {
    at: now,
    actor: principal,
    action: 'dish.voided',
    target: { type: 'order', id: orderId },
    before: { dishes: removed },
    after: approver && { approved_by: approver },
  };
}

async function isBilled(trx: Db, orderId: string, orderDishId: string): Promise<boolean> {
  return (await findBilledDishIds(trx, orderId)).has(orderDishId);
}
