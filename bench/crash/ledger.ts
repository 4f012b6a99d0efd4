/** What the writers were told: every 2xx answer is a promise the server must keep after a crash. */
export type DishLine = { dishId: string; priceCents: number };

export type OrderRecord = {
  id: string;
  /** Dishes whose write was acknowledged: sent with the order, or added by an acknowledged POST. */
  acknowledged: DishLine[];
  acknowledgedDishIds: string[];
  /** Dish batches sent without an answer (the server died): each may or may not exist, but whole. */
  unanswered: DishLine[][];
};

export class Ledger {
  readonly orders = new Map<string, OrderRecord>();
  acknowledgedWrites = 0;
  unansweredWrites = 0;
  refusedWrites: string[] = [];

  orderCreated(id: string, dishes: DishLine[]): void {
    this.orders.set(id, { id, acknowledged: [...dishes], acknowledgedDishIds: [], unanswered: [] });
    this.acknowledgedWrites++;
  }

  dishesAdded(orderId: string, dishes: DishLine[], ids: string[]): void {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`dishes added to an order the ledger does not know: ${orderId}`);
    order.acknowledged.push(...dishes);
    order.acknowledgedDishIds.push(...ids);
    this.acknowledgedWrites++;
  }

  orderUnanswered(): void {
    this.unansweredWrites++;
  }

  dishesUnanswered(orderId: string, dishes: DishLine[]): void {
    this.orders.get(orderId)?.unanswered.push(dishes);
    this.unansweredWrites++;
  }
}

/** True when `stored` is the acknowledged dishes plus some whole unanswered batches, nothing else. */
export function isAcceptableDishSet(order: OrderRecord, stored: DishLine[]): boolean {
  const batches = order.unanswered;
  for (let mask = 0; mask < 2 ** batches.length; mask++) {
    const allowed = [...order.acknowledged, ...batches.filter((_, index) => mask & (2 ** index)).flat()];
    if (sameMultiset(allowed, stored)) return true;
  }
  return false;
}

function sameMultiset(a: DishLine[], b: DishLine[]): boolean {
  if (a.length !== b.length) return false;
  const key = (line: DishLine) => `${line.dishId}@${line.priceCents}`;
  const counts = new Map<string, number>();
  for (const line of a) counts.set(key(line), (counts.get(key(line)) ?? 0) + 1);
  for (const line of b) {
    const left = counts.get(key(line)) ?? 0;
    if (left === 0) return false;
    counts.set(key(line), left - 1);
  }
  return true;
}
