import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { NotFoundError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import { toCents } from '../core/money';
import * as dishes from './order-dishes.repo';
import { priceDishEntries } from './order-links';
import { assertDishesCanChange } from './order-status';
import { toOrderDishView } from './order-views';
import * as orders from './orders.repo';
import type { DishEntry, OrderDishUpdateBody, OrderDishView } from './orders.schemas';

/**
 * Every change takes the order's row lock first, then writes, then stores the new sum as the total,
 * all in one transaction: two tablets adding dishes at once are serialised on the order, so
 * neither computes a sum that misses the other's dish.
 */
function changeDishes<T>(
  ctx: AppContext,
  orderId: string,
  change: (trx: Db, now: number) => Promise<T>,
  claim?: IdempotencyClaim,
): Promise<T> {
  const now = ctx.clock.now();
  return inIdempotentTransaction(ctx.db, { claim, statusCode: 201, now }, async (trx) => {
    const order = await orders.lockLiveOrder(trx, orderId);
    if (!order) throw new NotFoundError();
    assertDishesCanChange(order.status);
    const result = await change(trx, now);
    await orders.recalculateTotal(trx, orderId, now);
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
  orderId: string,
  entries: DishEntry[],
  claim: IdempotencyClaim | undefined,
): Promise<{ ids: string[] }> {
  // Reading the menu before the transaction keeps the order's lock short; the foreign key still
  // guarantees the dish exists when the row is written.
  const priced = await priceDishEntries(ctx.db, entries);
  return changeDishes(
    ctx,
    orderId,
    async (trx, now) => {
      await dishes.insertOrderDishes(
        trx,
        priced.map((dish) => ({ ...dish, order_id: orderId, created_at: now })),
      );
      return { ids: priced.map((dish) => dish.id) };
    },
    claim,
  );
}

export function updateOrderDish(
  ctx: AppContext,
  orderId: string,
  orderDishId: string,
  input: OrderDishUpdateBody,
): Promise<void> {
  return changeDishes(ctx, orderId, async (trx) => {
    const changes = {
      ...(input.price_at_order !== undefined && { price_at_order_cents: toCents(input.price_at_order) }),
      ...(input.notes !== undefined && { notes: input.notes }),
    };
    if (!(await dishes.updateOrderDish(trx, orderId, orderDishId, changes))) throw new NotFoundError();
  });
}

export function removeOrderDish(ctx: AppContext, orderId: string, orderDishId: string): Promise<void> {
  return changeDishes(ctx, orderId, async (trx) => {
    if (!(await dishes.deleteOrderDish(trx, orderId, orderDishId))) throw new NotFoundError();
  });
}

export function removeAllOrderDishes(ctx: AppContext, orderId: string): Promise<void> {
  return changeDishes(ctx, orderId, (trx) => dishes.deleteAllOrderDishes(trx, orderId));
}
