import { randomInt } from 'node:crypto';

/** Take or reject within 4 minutes (the portal's FAQ), or Rappi cancels the order for timeout. */
export const ANSWER_DEADLINE_MS = 4 * 60 * 1000;

/**
 * The order's states (Managing User Orders): WEBHOOK while Rappi posts NEW_ORDER, READY until an
 * integration reads it, SENT once read (or delivered by webhook), then TAKEN, READY_FOR_PICKUP,
 * REJECTED or TIMEOUT; CANCELED when the platform cancels it (the eater, support).
 */
export type RappiOrderState =
  | 'WEBHOOK'
  | 'READY'
  | 'SENT'
  | 'TAKEN'
  | 'READY_FOR_PICKUP'
  | 'REJECTED'
  | 'TIMEOUT'
  | 'CANCELED';

/** Amounts in pesos, as the order's `price` and `totals` carry them. */
export type Topping = { sku: string; name: string; price: number; quantity: number };
export type Product = {
  sku: string;
  name: string;
  price: number;
  quantity: number;
  comments: string;
  toppings: Topping[];
};

export type RappiOrder = {
  id: string;
  storeId: string;
  state: RappiOrderState;
  createdAt: number;
  /** When the state last changed: `orders/status/sent` lists what has been SENT for under 10 minutes. */
  stateAt: number;
  cookingTime: number;
  minCookingTime: number;
  maxCookingTime: number;
  customer: { firstName: string; lastName: string; phone: string };
  products: Product[];
  taken?: { at: number; cookingTime: number };
  rejected?: { at: number; cancelType: string; description: string; additionalInfo: string };
  readyAt?: number;
  cancelled?: { at: number; event: string };
};

export type NewRappiOrder = Pick<
  RappiOrder,
  'cookingTime' | 'minCookingTime' | 'maxCookingTime' | 'customer' | 'products'
>;

export const SENT_WINDOW_MS = 10 * 60 * 1000;

export class RappiOrderBook {
  readonly orders = new Map<string, RappiOrder>();

  constructor(private readonly now: () => number) {}

  place(storeId: string, input: NewRappiOrder, isByWebhook: boolean): RappiOrder {
    const now = this.now();
    const order: RappiOrder = {
      ...input,
      id: String(randomInt(100_000_000, 999_999_999)),
      storeId,
      state: isByWebhook ? 'WEBHOOK' : 'READY',
      createdAt: now,
      stateAt: now,
    };
    this.orders.set(order.id, order);
    return order;
  }

  /** Orders nobody took or rejected in time are TIMEOUT. */
  expireOverdue(): RappiOrder[] {
    const now = this.now();
    const expired: RappiOrder[] = [];
    for (const order of this.orders.values()) {
      const isOpen = order.state === 'WEBHOOK' || order.state === 'READY' || order.state === 'SENT';
      if (isOpen && now > order.createdAt + ANSWER_DEADLINE_MS) {
        this.move(order, 'TIMEOUT', order.createdAt + ANSWER_DEADLINE_MS);
        expired.push(order);
      }
    }
    return expired;
  }

  /** New orders are handed out once: reading moves them from READY to SENT. */
  readNew(storeIds: readonly string[]): RappiOrder[] {
    this.expireOverdue();
    const fresh = [...this.orders.values()].filter(
      (order) => order.state === 'READY' && storeIds.includes(order.storeId),
    );
    for (const order of fresh) this.move(order, 'SENT');
    return fresh;
  }

  sentRecently(): RappiOrder[] {
    this.expireOverdue();
    const since = this.now() - SENT_WINDOW_MS;
    return [...this.orders.values()].filter((order) => order.state === 'SENT' && order.stateAt >= since);
  }

  get(storeId: string, id: string): RappiOrder | undefined {
    this.expireOverdue();
    const order = this.orders.get(id);
    return order?.storeId === storeId ? order : undefined;
  }

  move(order: RappiOrder, state: RappiOrderState, at = this.now()): void {
    order.state = state;
    order.stateAt = at;
  }
}

const pesos = (amount: number) => Math.round(amount * 100) / 100;

function productTotal(product: Product): number {
  const toppings = product.toppings.reduce((sum, topping) => sum + topping.price * topping.quantity, 0);
  return (product.price + toppings) * product.quantity;
}

const rappiTime = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

/** One entry of `GET orders` (and the body of NEW_ORDER), in the reference's shape. */
export function orderJson(order: RappiOrder, store: { id: string; integrationId: string; name: string }) {
  const total = pesos(order.products.reduce((sum, product) => sum + productTotal(product), 0));
  return {
    order_detail: {
      order_id: order.id,
      delivery_operation_type: 'regular',
      cooking_time: order.cookingTime,
      min_cooking_time: order.minCookingTime,
      max_cooking_time: order.maxCookingTime,
      created_at: rappiTime(order.createdAt),
      delivery_method: 'delivery',
      payment_method: 'cc',
      billing_information: null,
      delivery_information: null,
      totals: {
        total_products: total,
        total_discounts: 0,
        total_products_with_discount: total,
        total_products_without_discount: total,
        total_other_discounts: 0,
        total_order: total,
        total_to_pay: 0,
        discount_by_support: 0,
        total_discount_by_partner: 0,
        charges: { shipping: 0, service_fee: 0 },
        other_totals: { tip: 0, total_rappi_pay: 0, total_rappi_credits: 0 },
      },
      items: order.products.map((product, index) => ({
        sku: product.sku,
        id: `${order.id}-${index + 1}`,
        name: product.name,
        type: 'product',
        comments: product.comments,
        unit_price_with_discount: product.price,
        unit_price_without_discount: product.price,
        price: product.price,
        percentage_discount: 0,
        quantity: product.quantity,
        subitems: product.toppings.map((topping, toppingIndex) => ({
          sku: topping.sku,
          id: `${order.id}-${index + 1}-${toppingIndex + 1}`,
          name: topping.name,
          type: 'topping',
          price: topping.price,
          quantity: topping.quantity,
        })),
      })),
      delivery_discount: {},
      discounts: [],
    },
    customer: {
      first_name: order.customer.firstName,
      last_name: order.customer.lastName,
      phone_number: order.customer.phone,
    },
    store: { internal_id: store.id, external_id: store.integrationId, name: store.name },
  };
}
