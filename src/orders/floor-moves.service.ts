import { recordAudit } from '../audit/audit.api';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { isUniqueViolation } from '../core/db/locks';
import { BadRequestError, NotFoundError } from '../core/errors';
import { findLiveTable } from '../tables/tables.api';
import type { MergeOrderBody, MoveDishesBody, MovedDishesView, MoveOrderBody } from './floor-moves.schemas';
import { findBilledDishIds, findLiveTicketsOfOrder } from './order-bills.repo';
import * as dishes from './order-dishes.repo';
import { recordDishesChanged, recordOrderEvent } from './order-events';
import { tableNotFound } from './order-links';
import { recordOrderMoved } from './order-moved-audit';
import { seatOrder, unseatOrder } from './order-seating';
import { isActive } from './order-status';
import * as tables from './order-tables.repo';
import { toOrderDishView, toOrderView } from './order-views';
import * as orders from './orders.repo';
import type { CompleteOrderView, OrderView } from './orders.schemas';
import { orderWithDishesView } from './orders.service';
import { refreshSalesFacts } from './sales-facts';

/*
 * The floor's moves (issue 23): a party changes table, two tables become one order, plates go to
 * another order. Each is one transaction that locks the orders it touches (two of them in id order,
 * so opposite moves over one pair queue instead of deadlocking), then their tables (lockTables, as
 * every order write does), and only then reads what it decides on: the second of two tablets doing
 * the same move reads the state the first left. On SQLite the single connection runs one
 * transaction at a time. The unique index `orders_one_active_per_table` stands behind the checks.
 */

export const TABLE_NOT_FREE = 'Table is not free';
export const MERGE_WITH_BILLS = 'Cannot merge an order that has bills';
const orderNotFound = (id: string) => new BadRequestError(`Order with ID: ${id} not found`);
const MAX_GUESTS = 99;

export async function moveOrder(
  ctx: AppContext,
  principal: Principal,
  id: string,
  input: MoveOrderBody,
): Promise<OrderView> {
  const now = ctx.clock.now();
  const tableId = input.table_id;
  return withTableNotFree(() =>
    ctx.db.transaction().execute(async (trx) => {
      const current = await orders.lockLiveOrder(trx, id);
      if (!current) throw new NotFoundError();
      if (!isActive(current.status)) throw new BadRequestError(`Cannot move a ${current.status} order`);
      if (current.table_id === tableId) throw new BadRequestError('The order is already at this table');
      await tables.lockTables(trx, [current.table_id, tableId]);
      const target = await findLiveTable(trx, tableId);
      if (!target) throw tableNotFound(tableId);
      if (target.status !== 'available' || target.order_id !== null)
        throw new BadRequestError(TABLE_NOT_FREE);
      const moved = await orders.updateOrder(trx, id, { table_id: tableId, updated_at: now });
      await recordOrderEvent(trx, 'order.updated', moved, now);
      if (current.table_id) await unseatOrder(trx, current.table_id, id, now);
      await seatOrder(trx, tableId, id, now);
      await recordOrderMoved(trx, principal, { orderId: id, from: current.table_id, to: tableId, at: now });
      return toOrderView(moved);
    }),
  );
}

/**
 * Every plate of the source order moves into this one and the source, now empty, is cancelled and
 * frees its table. A source with bills or payments is refused rather than having its bills follow:
 * money already split or taken stays where the till put it. The guests of both parties add up.
 */
export async function mergeOrders(
  ctx: AppContext,
  principal: Principal,
  id: string,
  input: MergeOrderBody,
): Promise<CompleteOrderView> {
  const fromId = input.from_order_id;
  if (fromId === id) throw new BadRequestError('Cannot merge an order with itself');
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const [target, source] = await lockOrders(trx, id, fromId);
    if (!target) throw new NotFoundError();
    if (!source) throw orderNotFound(fromId);
    if (!isActive(target.status)) throw new BadRequestError(`Cannot merge into a ${target.status} order`);
    if (!isActive(source.status)) throw new BadRequestError(`Cannot merge a ${source.status} order`);
    if (Number(source.paid_cents) !== 0 || (await findLiveTicketsOfOrder(trx, fromId)).length > 0) {
      throw new BadRequestError(MERGE_WITH_BILLS);
    }
    await tables.lockTables(trx, [target.table_id, source.table_id]);
    const before = {
      order: await orderWithDishesView(trx, id),
      from: await orderWithDishesView(trx, fromId),
    };
    await dishes.moveOrderDishes(trx, { fromOrderId: fromId, toOrderId: id });
    await orders.recalculateTotal(trx, fromId, now);
    await orders.recalculateTotal(trx, id, now);
    const guests = mergedGuests(target.guests, source.guests);
    if (guests !== target.guests) await orders.updateOrder(trx, id, { guests, updated_at: now });
    const cancelled = await orders.updateOrder(trx, fromId, { status: 'cancelled', updated_at: now });
    await recordOrderEvent(trx, 'order.updated', cancelled, now);
    if (source.table_id) await unseatOrder(trx, source.table_id, fromId, now);
    // A bill split by amount is shared over the order's dishes, whatever they are now.
    if (Number(target.billed_cents) > 0) await refreshSalesFacts(trx, id);
    await recordDishesChanged(trx, await dishes.findLiveOrderWithDishes(trx, fromId), now);
    const merged = await dishes.findLiveOrderWithDishes(trx, id);
    await recordDishesChanged(trx, merged, now);
    const after = await orderWithDishesView(trx, id);
    await recordAudit(trx, {
      at: now,
      actor: principal,
      action: 'order.merged',
      target: { type: 'order', id },
      before,
      after: { order: after, from: await orderWithDishesView(trx, fromId) },
    });
    if (!after) throw new NotFoundError();
    return after;
  });
}

/**
 * Plates leave one open order for another, all or none: a plate on a live bill stays (the bill
 * claims it), a voided one stays with the history of the order it was voided on. Neither order's
 * total may fall below what its bills claim.
 */
export async function moveDishes(
  ctx: AppContext,
  principal: Principal,
  id: string,
  input: MoveDishesBody,
): Promise<MovedDishesView> {
  const toId = input.to_order_id;
  if (toId === id) throw new BadRequestError('The dishes are already on this order');
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const [source, target] = await lockOrders(trx, id, toId);
    if (!source) throw new NotFoundError();
    if (!target) throw orderNotFound(toId);
    if (!isActive(source.status)) throw new BadRequestError(`Cannot move dishes of a ${source.status} order`);
    if (!isActive(target.status)) throw new BadRequestError(`Cannot move dishes to a ${target.status} order`);
    const plates = new Map(
      (await dishes.findLiveOrderWithDishes(trx, id))?.dishes.map((row) => [row.id, row]),
    );
    const billed = await findBilledDishIds(trx, id);
    for (const dishId of input.order_dish_ids) {
      const plate = plates.get(dishId);
      if (!plate) throw new BadRequestError(`Order dish with ID: ${dishId} is not on this order`);
      if (billed.has(dishId)) throw new BadRequestError(`Order dish with ID: ${dishId} is on a bill`);
      if (plate.status === 'voided') throw new BadRequestError(`Order dish with ID: ${dishId} is voided`);
    }
    await dishes.moveOrderDishes(trx, { fromOrderId: id, toOrderId: toId, ids: input.order_dish_ids });
    // Only an order with bills can fall below them; the check on the order row stands behind this.
    if (
      Number(source.billed_cents) > 0 &&
      (await dishes.sumOfDishes(trx, id)) < Number(source.billed_cents)
    ) {
      throw new BadRequestError('The order total would fall below its bills: cancel a bill first');
    }
    await orders.recalculateTotal(trx, id, now);
    await orders.recalculateTotal(trx, toId, now);
    for (const order of [source, target]) {
      if (Number(order.billed_cents) > 0) await refreshSalesFacts(trx, order.id);
    }
    const from = await dishes.findLiveOrderWithDishes(trx, id);
    const to = await dishes.findLiveOrderWithDishes(trx, toId);
    await recordDishesChanged(trx, from, now);
    await recordDishesChanged(trx, to, now);
    if (!from || !to) throw new NotFoundError();
    await recordAudit(trx, {
      at: now,
      actor: principal,
      action: 'dish.moved',
      target: { type: 'order', id },
      before: {
        order_id: id,
        dishes: input.order_dish_ids.map((dishId) =>
          toOrderDishView(plates.get(dishId) as dishes.OrderDishDetail),
        ),
      },
      after: { order_id: toId },
    });
    return { from: toOrderView(from.order), to: toOrderView(to.order) };
  });
}

/** The two live orders, locked in id order; each undefined when there is no such live order. */
async function lockOrders(
  trx: Db,
  first: string,
  second: string,
): Promise<[orders.OrderRow | undefined, orders.OrderRow | undefined]> {
  const locked = new Map<string, orders.OrderRow | undefined>();
  for (const id of [first, second].sort()) locked.set(id, await orders.lockLiveOrder(trx, id));
  return [locked.get(first), locked.get(second)];
}

function mergedGuests(target: number | null, source: number | null): number | null {
  if (target === null || source === null) return target ?? source;
  return Math.min(MAX_GUESTS, target + source);
}

/** The unique index on active orders per table refusing the move means the table was taken. */
async function withTableNotFree<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new BadRequestError(TABLE_NOT_FREE);
    throw error;
  }
}
