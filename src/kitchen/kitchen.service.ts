import { authorizeApprovable } from '../approvals/approvals.api';
import { recordAudit } from '../audit/audit.api';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import type { DishStatus } from '../core/db/schema';
import { BadRequestError, NotFoundError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import { fromCents } from '../core/money';
import { recordEvent } from '../events/events.api';
import { recordSales, returnVoidedStock } from '../inventory/inventory.api';
import type { OrderRow } from '../orders/orders.api';
import * as orders from '../orders/orders.api';
import {
  assertDishesCanChange,
  findBilledDishIds,
  findLiveOrderWithDishes,
  findModifierChoices,
  type OrderDishDetail,
  recordDishesChanged,
  refreshSalesFacts,
  toOrderDishView,
} from '../orders/orders.api';
import { enqueueKitchenChits, isBeingMade } from '../printing/printing.api';
import * as kitchen from './kitchen.repo';
import type { DishStatusBody, KitchenQueueItem } from './kitchen.schemas';

const NEXT: Record<DishStatus, readonly DishStatus[]> = {
  pending: ['sent', 'voided'],
  sent: ['preparing', 'voided'],
  preparing: ['ready', 'voided'],
  ready: ['served', 'voided'],
  served: [],
  voided: [],
};

function assertDishTransition(from: DishStatus, to: DishStatus): void {
  if (!NEXT[from].includes(to)) {
    throw new BadRequestError(`Invalid dish status transition from ${from} to ${to}`);
  }
}

/**
 * Fires the order's pending plates, or only one course's (hold-and-fire), and takes what they use off
 * the stock in the same transaction: a plate is sold when the kitchen gets it, not when it is typed.
 * A tablet that lost the answer retries with the same key and is told how many its first try sent,
 * not that nothing was left to send.
 */
export function sendOrder(
  ctx: AppContext,
  principal: Principal,
  orderId: string,
  options: { course?: number; claim?: IdempotencyClaim },
): Promise<{ sent: number }> {
  const { course, claim } = options;
  const now = ctx.clock.now();
  return inIdempotentTransaction(ctx.db, { claim, statusCode: 200, now }, (trx) =>
    sendOrderIn(trx, principal, orderId, course, now),
  );
}

/** sendOrder inside the caller's transaction (a delivery app's order goes to the kitchen when accepted). */
export async function sendOrderIn(
  trx: Db,
  principal: Principal,
  orderId: string,
  course: number | undefined,
  now: number,
): Promise<{ sent: number }> {
  const order = await orders.lockLiveOrder(trx, orderId);
  if (!order) throw new NotFoundError();
  assertDishesCanChange(order.status);
  // Under the order's lock the dishes pending now are exactly the ones the update sends.
  const pending = (await findLiveOrderWithDishes(trx, orderId))?.dishes.filter(
    (dish) => dish.status === 'pending' && (course === undefined || dish.course === course),
  );
  const sent = await kitchen.sendPendingDishes(trx, orderId, course, now);
  if (sent > 0) {
    await recordDishesChanged(trx, await findLiveOrderWithDishes(trx, orderId), now);
    const dishes = (pending ?? []).map((dish) => ({ orderDishId: dish.id, station: dish.station }));
    await enqueueKitchenChits(trx, { orderId, dishes, now });
    await recordSales(
      trx,
      dishes.map((dish) => dish.orderDishId),
      principal.id,
      now,
    );
  }
  return { sent };
}

/**
 * Every move takes the order's row lock, as dish changes and bills do: a void changes the total,
 * and a bill cannot claim a dish while it is being voided. Two screens moving one dish at once are
 * serialised; the second reads the state the first left and is refused with the 400.
 */
export function moveDishStatus(
  ctx: AppContext,
  principal: Principal,
  orderId: string,
  orderDishId: string,
  input: DishStatusBody,
): Promise<void> {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    // Advancing a dish is the kitchen's job (the route asks kitchen.advance); taking its price off the
    // bill is not: the caller's role, or a manager's approval spent by this void.
    const approver =
      input.status === 'voided'
        ? await authorizeApprovable(trx, principal, 'voidDish', { orderId, orderDishIds: [orderDishId] }, now)
        : null;
    const order = await orders.lockLiveOrder(trx, orderId);
    if (!order) throw new NotFoundError();
    const found = await findLiveOrderWithDishes(trx, orderId);
    const dish = found?.dishes.find((row) => row.id === orderDishId);
    if (!dish) throw new NotFoundError();
    assertDishTransition(dish.status, input.status);
    if (input.status === 'voided') await assertMayVoid(trx, order, dish, input.reason);
    const moved = await kitchen.moveDish(trx, {
      orderId,
      id: orderDishId,
      from: dish.status,
      to: input.status,
      now,
      reason: input.reason?.trim(),
      by: { userId: principal.id, approvedBy: approver?.id ?? null },
    });
    // The lock makes this unreachable in practice; the conditional update is what guarantees it.
    if (!moved)
      throw new BadRequestError(`Invalid dish status transition from ${dish.status} to ${input.status}`);
    if (input.status === 'voided') {
      // Not started yet, so the food is still on the shelf; once preparing, it is gone (waste).
      if (dish.status === 'sent') await returnVoidedStock(trx, [orderDishId], principal.id, now);
      if (isBeingMade(dish.status)) {
        const voided = { reason: input.reason?.trim() || null };
        await enqueueKitchenChits(trx, {
          orderId,
          dishes: [{ orderDishId, station: dish.station }],
          now,
          voided,
        });
      }
      await orders.recalculateTotal(trx, orderId, now);
      // A bill split by amount is shared over the order's dishes that are not voided.
      await refreshSalesFacts(trx, orderId);
    }
    const after = await findLiveOrderWithDishes(trx, orderId);
    const view = after?.dishes.find((row) => row.id === orderDishId);
    await recordEvent(trx, { type: 'dish.status_changed', data: view && toOrderDishView(view), at: now });
    if (input.status === 'voided') {
      await recordDishesChanged(trx, after, now);
      await recordAudit(trx, {
        at: now,
        actor: principal,
        action: 'dish.voided',
        target: { type: 'order_dish', id: orderDishId },
        before: toOrderDishView(dish),
        after: view && { ...toOrderDishView(view), approved_by: approver },
      });
    }
  });
}

/**
 * Stops all the kitchen's work on an order its platform cancelled, inside the caller's transaction
 * (which holds the order's lock and has already cancelled its bills): every live plate is voided with
 * the reason. A plate not started gives its stock back; one being made or made is waste, and its
 * station gets a void chit so nobody finishes it.
 */
export async function voidOrderPlatesIn(
  trx: Db,
  principal: Principal,
  orderId: string,
  reason: string,
  now: number,
): Promise<void> {
  const plates = (await findLiveOrderWithDishes(trx, orderId))?.dishes.filter(
    (dish) => dish.status !== 'voided',
  );
  if (!plates || plates.length === 0) return;
  for (const plate of plates) {
    await kitchen.moveDish(trx, {
      orderId,
      id: plate.id,
      from: plate.status,
      to: 'voided',
      now,
      reason,
      by: { userId: principal.id, approvedBy: null },
    });
  }
  const notStarted = plates.filter((plate) => plate.status === 'sent').map((plate) => plate.id);
  if (notStarted.length > 0) await returnVoidedStock(trx, notStarted, principal.id, now);
  const beingMade = plates.filter((plate) => isBeingMade(plate.status));
  if (beingMade.length > 0) {
    await enqueueKitchenChits(trx, {
      orderId,
      dishes: beingMade.map((plate) => ({ orderDishId: plate.id, station: plate.station })),
      now,
      voided: { reason },
    });
  }
  await orders.recalculateTotal(trx, orderId, now);
  await refreshSalesFacts(trx, orderId);
  await recordDishesChanged(trx, await findLiveOrderWithDishes(trx, orderId), now);
}

/**
 * A dish on a live bill is frozen: cancel the bill first. A dish not linked to a bill can still be
 * covered by a bill split by amount; the order's total never falls below what its bills claim.
 */
async function assertMayVoid(
  trx: Db,
  order: OrderRow,
  dish: OrderDishDetail,
  reason: string | null | undefined,
): Promise<void> {
  if (!reason?.trim()) throw new BadRequestError('A reason is required to void a dish');
  if ((await findBilledDishIds(trx, order.id)).has(dish.id)) throw new BadRequestError('Dish is on a bill');
  if (Number(order.total_cents) - dish.price_at_order_cents < Number(order.billed_cents)) {
    throw new BadRequestError('The order total would fall below its bills: cancel a bill first');
  }
}

export async function kitchenQueue(
  ctx: AppContext,
  query: { station?: string | undefined; limit: number },
): Promise<KitchenQueueItem[]> {
  const now = ctx.clock.now();
  const rows = groupedByOrderAndCourse(await kitchen.listQueue(ctx.db, query.station, query.limit));
  const modifiers = await findModifierChoices(
    ctx.db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    order_id: row.order_id,
    status: row.status,
    dish_id: row.dish_id,
    dish_name: row.dish_name,
    notes: row.notes,
    station: row.station,
    table_name: row.table_name,
    waiter: row.waiter,
    sent_at: new Date(row.sent_at).toISOString(),
    seconds_waiting: Math.max(0, Math.floor((now - row.sent_at) / 1000)),
    modifiers: (modifiers.get(row.id) ?? []).map((modifier) => ({
      option_id: modifier.option_id,
      group_name: modifier.group_name,
      name: modifier.name,
      price_delta: fromCents(modifier.price_delta_cents),
    })),
    seat: row.seat,
    course: row.course,
    channel: row.channel as KitchenQueueItem['channel'],
    channel_code: row.channel_code,
    customer_first_name: row.customer_first_name,
    pickup_at: row.pickup_at === null ? null : new Date(row.pickup_at).toISOString(),
  }));
}

/**
 * The plates of one order's course side by side, as a cook fires them together: groups in the order
 * of their oldest plate, the plates of each oldest first.
 */
function groupedByOrderAndCourse(rows: kitchen.QueueRow[]): kitchen.QueueRow[] {
  const groups = new Map<string, kitchen.QueueRow[]>();
  for (const row of rows) {
    const key = `${row.order_id} ${row.course}`;
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return [...groups.values()].flat();
}
