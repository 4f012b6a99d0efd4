/**
 * Rappi's order states as its "Managing User Orders" guide names them. CANCELED is not one of them:
 * the guide only says a cancellation reaches the store as an ORDER_EVENT_CANCEL event; the simulator
 * keeps the event's name beside it.
 */
export type OrderStatus =
  | 'WEBHOOK'
  | 'READY'
  | 'SENT'
  | 'TAKEN'
  | 'REJECTED'
  | 'TIMEOUT'
  | 'READY_FOR_PICKUP'
  | 'CANCELED';

export type PlacedTopping = { sku: string; name?: string; price: number; quantity?: number };

export type PlacedItem = {
  sku: string;
  name?: string;
  price: number;
  quantity?: number;
  comments?: string;
  toppings?: PlacedTopping[];
};

export type PlacedClient = { first_name: string; last_name?: string; phone_number?: string };

/** What a test or a person asks for through `POST /sim/orders`. */
export type PlaceOrder = {
  store_id?: string;
  items: PlacedItem[];
  client: PlacedClient;
  cooking_time?: number;
  min_cooking_time?: number;
  max_cooking_time?: number;
  delivery_method?: string;
  payment_method?: string;
  shipping?: number;
  tip?: number;
};

export type SimOrder = {
  orderId: string;
  storeId: string;
  placed: PlaceOrder;
  createdAt: number;
  status: OrderStatus;
  /** When the order was last handed out as SENT, for `orders/status/sent`'s ten minutes. */
  sentAt?: number;
  takenCookingTime?: number;
  rejection?: { cancelType: string; reason: string | null; itemSkus: string[] };
  cancelEvent?: string;
  history: { status: OrderStatus; at: number }[];
};

export type SimStore = {
  /** The store's id in the Rappi app, used in the paths of the orders and menu families. */
  id: string;
  /** The integrator's own id for the store (`store.external_id` in orders, `store_integration_id`). */
  integrationId: string;
  name: string;
  enabled: boolean;
  /** Availability by identifier, per kind; an identifier never turned off is available. */
  unavailable: { products: Set<string>; toppings: Set<string> };
};

export class RappiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Rappi's examples show event times as `2023-05-04 12:01:22` (UTC here). */
export function rappiTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

const sum = (values: number[]) => Math.round(values.reduce((total, value) => total + value, 0) * 100) / 100;

/**
 * The order as `GET orders` and the NEW_ORDER webhook carry it: `order_detail` (ids, cooking times,
 * items with their SKU and their toppings as `subitems`, totals), `customer` and `store`. Item and
 * topping prices are unit prices without discount; `total_order` is what the store receives.
 */
export function orderJson(order: SimOrder, store: SimStore) {
  const { placed } = order;
  const items = placed.items.map((item, index) => {
    const quantity = item.quantity ?? 1;
    return {
      sku: item.sku,
      id: `${order.orderId}${String(index + 1).padStart(2, '0')}`,
      name: item.name ?? item.sku,
      type: 'PRODUCT',
      comments: item.comments ?? null,
      price: item.price,
      quantity,
      subitems: (item.toppings ?? []).map((topping, toppingIndex) => ({
        sku: topping.sku,
        id: `${order.orderId}${String(index + 1).padStart(2, '0')}${String(toppingIndex + 1).padStart(2, '0')}`,
        name: topping.name ?? topping.sku,
        type: 'TOPPING',
        price: topping.price,
        quantity: topping.quantity ?? 1,
      })),
    };
  });
  const totalProducts = sum(
    items.map(
      (item) =>
        item.quantity * (item.price + sum(item.subitems.map((topping) => topping.price * topping.quantity))),
    ),
  );
  const shipping = placed.shipping ?? 0;
  const tip = placed.tip ?? 0;
  return {
    order_detail: {
      order_id: order.orderId,
      delivery_operation_type: 'regular',
      cooking_time: placed.cooking_time ?? 15,
      min_cooking_time: placed.min_cooking_time ?? 5,
      max_cooking_time: placed.max_cooking_time ?? 60,
      created_at: rappiTime(order.createdAt),
      delivery_method: placed.delivery_method ?? 'delivery',
      payment_method: placed.payment_method ?? 'cc',
      billing_information: null,
      totals: {
        total_products: totalProducts,
        total_discounts: 0,
        total_order: totalProducts,
        total_to_pay: 0,
        charges: { shipping, service_fee: 0 },
        other_totals: { tip, total_rappi_pay: 0, total_rappi_credits: 0 },
      },
      items,
      discounts: [],
    },
    customer: {
      first_name: placed.client.first_name,
      last_name: placed.client.last_name ?? null,
      phone_number: placed.client.phone_number ?? null,
    },
    store: { internal_id: store.id, external_id: store.integrationId, name: store.name },
  };
}
