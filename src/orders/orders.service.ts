import { recordAudit } from '../audit/audit.api';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { isForeignKeyViolation, isUniqueViolation } from '../core/db/locks';
import { TICKET_STATUS } from '../core/db/ticket-status';
import { BadRequestError, NotFoundError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import { newId } from '../core/ids';
import { fromCents } from '../core/money';
import { authorize, authorizeAction } from '../permissions/permissions.api';
import { type CancelBillsOfOrder, findLiveTicketsOfOrder } from './order-bills.repo';
import { completeOrder } from './order-completion';
import * as dishes from './order-dishes.repo';
import { recordOrderEvent } from './order-events';
import { findOrderUser, priceDishEntries, sumCents, tableNotFound, tableTaken } from './order-links';
import { recordOrderMoved } from './order-moved-audit';
import { seatOrder, unseatOrder } from './order-seating';
import { assertTransition, isActive } from './order-status';
import * as tables from './order-tables.repo';
import { orderBalanceCents, toOrderDishView, toOrderView } from './order-views';
import * as orders from './orders.repo';
import type { CompleteOrderView, DishEntry, OrderBody, OrderView } from './orders.schemas';
import { authorizeOverrides, overrideAudit } from './price-overrides';
import { refreshSalesFacts } from './sales-facts';

/**
 * Creates an order, with its dishes when given, in one transaction. An active order on a table
 * occupies it; the partial unique index `orders_one_active_per_table` decides a race for the table.
 */
export async function createOrder(
  ctx: AppContext,
  principal: Principal,
  input: { order: OrderBody; dishes: DishEntry[]; claim: IdempotencyClaim | undefined },
): Promise<{ id: string }> {
  authorize(principal, 'orders.write');
  const { order } = input;
  const userId = order.user_id ?? principal.id;
  // The caller is a live user (the auth guard looked it up), so only another user needs a lookup.
  const user = userId === principal.id ? principal : await findOrderUser(ctx.db, userId);
  const { dishes: pricedDishes, overrides } = await priceDishEntries(ctx.db, input.dishes);
  authorizeOverrides(principal, overrides);
  const now = ctx.clock.now();
  const id = newId();
  const status = order.status ?? 'pending';
  const tableId = order.table_id ?? null;

  return withTableErrors(tableId, () =>
    inIdempotentTransaction(ctx.db, { claim: input.claim, statusCode: 201, now }, async (trx) => {
      await tables.lockTables(trx, [tableId]);
      if (tableId && !isActive(status)) await assertLiveTable(trx, tableId);
      const row = await orders.insertOrder(trx, {
        id,
        user_id: userId,
        table_id: tableId,
        waiter: order.waiter ?? user.name,
        status,
        guests: order.guests ?? null,
        total_cents: sumCents(pricedDishes),
        created_at: now,
        updated_at: now,
      });
      await dishes.insertOrderDishes(
        trx,
        pricedDishes.map((dish) => ({ ...dish, order_id: id, created_at: now })),
      );
      await recordOrderEvent(trx, 'order.created', row, now);
      if (tableId && isActive(status)) await seatOrder(trx, tableId, id, now);
      const audit = overrideAudit(principal, id, overrides, now);
      if (audit) await recordAudit(trx, audit);
      return { id };
    }),
  );
}

/** Changes what the body sends; omitted fields keep their values and a sent `total` is ignored. */
export async function updateOrder(
  ctx: AppContext,
  cancelBillsOfOrder: CancelBillsOfOrder,
  principal: Principal,
  id: string,
  input: OrderBody,
): Promise<void> {
  const now = ctx.clock.now();
  await withTableErrors(input.table_id ?? null, () =>
    ctx.db.transaction().execute(async (trx) => {
      const current = await orders.lockLiveOrder(trx, id);
      if (!current) throw new NotFoundError();
      const status = input.status ?? current.status;
      assertTransition(current.status, status);
      const nextTableId = input.table_id === undefined ? current.table_id : input.table_id;
      const next = {
        user_id: input.user_id ?? current.user_id,
        table_id: nextTableId,
        waiter: input.waiter ?? current.waiter,
        status,
        guests: input.guests === undefined ? current.guests : input.guests,
      };
      // Asking for what the order already is (a tablet closing an order its payment closed) writes
      // nothing and tells no screen anything.
      if (Object.entries(next).every(([column, value]) => current[column as keyof typeof next] === value))
        return;
      const isCancelling = status === 'cancelled' && current.status !== 'cancelled';
      // Cancelling through the status is DELETE's permission, not the edit's (issue 28).
      if (isCancelling) authorizeAction(principal, 'cancelOrder');
      const before = isCancelling ? await orderWithDishesView(trx, id) : undefined;
      if (isCancelling) await cancelBillsOfOrder(trx, principal, id, now);
      const isMovingTable = nextTableId !== current.table_id;
      // A party changing table through PUT is the floor's move: POST /orders/{id}/move's permission
      // and audit entry (issue 35), not a plain edit.
      if (isMovingTable) authorizeAction(principal, 'moveOrder');
      const reassigned = await reassignment(trx, principal, current, input);
      await tables.lockTables(trx, [current.table_id, nextTableId]);
      if (input.user_id !== undefined && input.user_id !== current.user_id) {
        await findOrderUser(trx, input.user_id);
      }
      if (nextTableId && isMovingTable && !isActive(status)) await assertLiveTable(trx, nextTableId);
      const updated = await orders.updateOrder(trx, id, { ...next, updated_at: now });
      await recordOrderEvent(trx, 'order.updated', updated, now);
      // The facts of its Paid bills carry the order's waiter and guests.
      const isFactChanged = next.user_id !== current.user_id || next.guests !== current.guests;
      if (isFactChanged && Number(current.billed_cents) > 0) await refreshSalesFacts(trx, id);
      const holdsOldTable = isActive(current.status) && current.table_id !== null;
      const willHoldNewTable = isActive(status) && nextTableId !== null;
      if (holdsOldTable && (!willHoldNewTable || isMovingTable)) {
        await unseatOrder(trx, current.table_id as string, id, now);
      }
      if (willHoldNewTable && (!holdsOldTable || isMovingTable)) {
        await seatOrder(trx, nextTableId as string, id, now);
      }
      if (isMovingTable) {
        await recordOrderMoved(trx, principal, {
          orderId: id,
          from: current.table_id,
          to: nextTableId,
          at: now,
        });
      }
      if (reassigned) {
        await recordAudit(trx, {
          at: now,
          actor: principal,
          action: 'order.reassigned',
          target: { type: 'order', id },
          before: { user_id: current.user_id, waiter: current.waiter },
          after: { user_id: updated.user_id, waiter: updated.waiter },
        });
      }
      if (before) {
        const after = await orderWithDishesView(trx, id);
        await recordAudit(trx, {
          at: now,
          actor: principal,
          action: 'order.cancelled',
          target: { type: 'order', id },
          before,
          after,
        });
      }
    }),
  );
}

/**
 * Whether the body gives the order to another waiter (`user_id` or `waiter` other than stored). That
 * moves its sale and tips in the reports by waiter, so it is a manager's (`orders.reassign`), and
 * refused once the order is completed or has money on a bill: the tips were earned by who served it.
 */
async function reassignment(
  trx: Db,
  principal: Principal,
  current: orders.OrderRow,
  input: OrderBody,
): Promise<boolean> {
  const isReassigning =
    (input.user_id !== undefined && input.user_id !== current.user_id) ||
    (input.waiter !== undefined && input.waiter !== current.waiter);
  if (!isReassigning) return false;
  authorizeAction(principal, 'reassignOrder');
  if (current.status === 'completed') throw new BadRequestError('Cannot reassign a completed order');
  const bills = await findLiveTicketsOfOrder(trx, current.id);
  if (bills.some((bill) => Number(bill.status) === TICKET_STATUS.paid || Number(bill.paid_cents) > 0)) {
    throw new BadRequestError('Cannot reassign an order with payments');
  }
  return true;
}

/**
 * The till closing a table once it has paid: an active order whose payments cover its total becomes
 * completed in one step, whatever status the kitchen flow left it in, and frees its table. Unlike
 * completing through PUT (which the spec allows unpaid), a balance due is refused. With
 * `close_paid_orders` on, a paid order usually closed itself already (tickets/order-done.ts).
 */
export async function closeOrder(ctx: AppContext, principal: Principal, id: string): Promise<OrderView> {
  authorize(principal, 'orders.write');
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const current = await orders.lockLiveOrder(trx, id);
    if (!current) throw new NotFoundError();
    if (!isActive(current.status)) throw new BadRequestError(`Cannot close a ${current.status} order`);
    if (orderBalanceCents(current) > 0) {
      throw new BadRequestError('Cannot close an order with a balance due');
    }
    return toOrderView(await completeOrder(trx, current, now));
  });
}

/** Logical delete: the order leaves every list, filter and sales figure, and frees its table. */
export async function deleteOrder(
  ctx: AppContext,
  cancelBillsOfOrder: CancelBillsOfOrder,
  principal: Principal,
  id: string,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const current = await orders.lockLiveOrder(trx, id);
    if (!current) throw new NotFoundError();
    const before = await orderWithDishesView(trx, id);
    await cancelBillsOfOrder(trx, principal, id, now);
    await tables.lockTables(trx, [current.table_id]);
    const deleted = await orders.softDeleteOrder(trx, id, now);
    await recordOrderEvent(trx, 'order.deleted', deleted, now);
    if (current.table_id && isActive(current.status)) await unseatOrder(trx, current.table_id, id, now);
    await recordAudit(trx, {
      at: now,
      actor: principal,
      action: 'order.deleted',
      target: { type: 'order', id },
      before,
    });
  });
}

/** The order with its dishes as GET /orders/{id}/complete shows them: what an audit entry keeps. */
export async function orderWithDishesView(trx: Db, id: string): Promise<CompleteOrderView | undefined> {
  const found = await dishes.findLiveOrderWithDishes(trx, id);
  return found && { order: toOrderView(found.order), dishes: found.dishes.map(toOrderDishView) };
}

export async function getOrder(ctx: AppContext, id: string): Promise<OrderView> {
  const row = await orders.findLiveOrder(ctx.db, id);
  if (!row) throw new NotFoundError();
  return toOrderView(row);
}

export async function getCompleteOrder(ctx: AppContext, id: string): Promise<CompleteOrderView> {
  const found = await dishes.findLiveOrderWithDishes(ctx.db, id);
  if (!found) throw new NotFoundError();
  return { order: toOrderView(found.order), dishes: found.dishes.map(toOrderDishView) };
}

/** Stores the sum of the dishes again; it already is the total, so this repairs only outside edits. */
export async function calculateTotal(ctx: AppContext, id: string): Promise<{ total: number }> {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const current = await orders.lockLiveOrder(trx, id);
    if (!current) throw new NotFoundError();
    const totalCents = await orders.recalculateTotal(trx, id, now);
    await recordOrderEvent(
      trx,
      'order.updated',
      { ...current, total_cents: totalCents, updated_at: now },
      now,
    );
    return { total: fromCents(totalCents) };
  });
}

async function assertLiveTable(db: Db, tableId: string): Promise<void> {
  if (!(await tables.isLiveTable(db, tableId))) throw tableNotFound(tableId);
}

/** Maps what the database says about a table reference to the answers the client can act on. */
async function withTableErrors<T>(tableId: string | null, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (tableId && isUniqueViolation(error)) throw tableTaken(tableId);
    if (tableId && isForeignKeyViolation(error)) throw tableNotFound(tableId);
    throw error;
  }
}
