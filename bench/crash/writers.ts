import type { ApiSession, Menu } from '../lib/api';
import type { DishLine, Ledger } from './ledger';

const ADD_DISHES_SHARE = 0.3;

/**
 * One tablet writing as fast as the server answers: new orders with 1 to 4 dishes (some at a
 * sent price), and dishes added to its earlier orders. Stops when told or when the server is gone.
 */
export async function writeUntilStopped(
  session: ApiSession,
  menu: Menu,
  ledger: Ledger,
  isStopped: () => boolean,
): Promise<void> {
  const myOrders: string[] = [];
  while (!isStopped()) {
    const orderId = myOrders[Math.floor(Math.random() * myOrders.length)];
    const isAddingDishes = orderId !== undefined && Math.random() < ADD_DISHES_SHARE;
    const lines = randomDishes(menu, isAddingDishes ? 2 : 4);
    const entries = lines.map((line, index) => ({
      dish_id: line.dishId,
      ...(index === 1 && { price_at_order: line.priceCents / 100 }),
    }));
    try {
      if (isAddingDishes) {
        const reply = await session.request('POST', `/orders/${orderId}/dishes`, entries).catch((error) => {
          ledger.dishesUnanswered(orderId, lines);
          throw error;
        });
        if (reply.status === 201) ledger.dishesAdded(orderId, lines, (reply.body as { ids: string[] }).ids);
        else ledger.refusedWrites.push(`add dishes ${reply.status} ${JSON.stringify(reply.body)}`);
      } else {
        const reply = await session
          .request('POST', '/orders/with-dishes', { order: {}, dishes: entries })
          .catch((error) => {
            ledger.orderUnanswered();
            throw error;
          });
        if (reply.status === 201) {
          const { id } = reply.body as { id: string };
          ledger.orderCreated(id, lines);
          myOrders.push(id);
        } else ledger.refusedWrites.push(`with-dishes ${reply.status} ${JSON.stringify(reply.body)}`);
      }
    } catch {
      // No answer: the server was killed. An unanswered new order is unknown to us, so only the
      // database-wide checks (no order without its dishes, totals equal sums) can judge it.
      return;
    }
  }
}

/** 1 to `max` dishes; the second one carries an explicit price (the menu price plus 1.25). */
function randomDishes(menu: Menu, max: number): DishLine[] {
  const count = 1 + Math.floor(Math.random() * max);
  return Array.from({ length: count }, (_, index) => {
    const dish = menu.dishes[Math.floor(Math.random() * menu.dishes.length)];
    if (!dish) throw new Error('the menu is empty');
    return { dishId: dish.id, priceCents: dish.priceCents + (index === 1 ? 125 : 0) };
  });
}
