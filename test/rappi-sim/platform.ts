import { randomBytes } from 'node:crypto';
import {
  type OrderStatus,
  orderJson,
  type PlaceOrder,
  RappiError,
  type SimOrder,
  type SimStore,
} from './model';
import type { WebhookHub } from './webhooks';

export type PlatformOptions = {
  clientId: string;
  clientSecret: string;
  stores: { id: string; integrationId: string; name: string }[];
  /** How long a login's token lasts: a week, as the authentication guide says. */
  tokenTtlMs: number;
  /** The least time between two reads of new orders (the contract's 45 s). */
  readIntervalMs: number;
  /** How long an order waits to be taken or rejected before it times out (4 min per Rappi's FAQ). */
  takeDeadlineMs: number;
};

/** Transitions the store may make, from the guide's table; anything else is an invalid transition. */
const STORE_TRANSITIONS: Record<string, OrderStatus[]> = {
  TAKEN: ['SENT', 'WEBHOOK'],
  REJECTED: ['SENT', 'WEBHOOK'],
  READY_FOR_PICKUP: ['TAKEN'],
};

/** `orders/status/sent` shows the orders handed out in the last ten minutes and not acted on. */
const SENT_WINDOW_MS = 10 * 60_000;

/**
 * Rappi's side of one integration (one client id, its stores): tokens, orders and their states,
 * store and item availability. Time comes from `now`, which the simulator's clock can move.
 */
export class Platform {
  readonly stores: SimStore[];
  readonly orders = new Map<string, SimOrder>();
  private readonly tokens = new Map<string, number>();
  private lastRead: number | undefined;
  private nextOrderId = 1_000_001;

  constructor(
    readonly options: PlatformOptions,
    private readonly hub: WebhookHub,
    private readonly now: () => number,
  ) {
    this.stores = options.stores.map((store) => ({
      ...store,
      enabled: true,
      unavailable: { products: new Set(), toppings: new Set() },
    }));
  }

  login(clientId: unknown, clientSecret: unknown) {
    if (clientId !== this.options.clientId || clientSecret !== this.options.clientSecret) {
      throw new RappiError(401, 'Invalid client credentials');
    }
    const token = randomBytes(32).toString('base64url');
    this.tokens.set(token, this.now() + this.options.tokenTtlMs);
    return {
      access_token: token,
      token_type: 'Bearer',
      expires_in: Math.floor(this.options.tokenTtlMs / 1000),
    };
  }

  /** `x-authorization: Bearer <token>`; the reference's table also writes `Bearer: <token>`. */
  authorize(header: string | undefined): void {
    const token = /^Bearer:?\s+(\S+)$/.exec(header?.trim() ?? '')?.[1];
    const expiresAt = token === undefined ? undefined : this.tokens.get(token);
    if (expiresAt === undefined || expiresAt <= this.now()) throw new RappiError(401, 'Unauthorized');
  }

  store(id: string): SimStore {
    const store = this.stores.find((candidate) => candidate.id === id || candidate.integrationId === id);
    if (!store) {
      throw new RappiError(
        400,
        `The stores ${id} don't belong to the appClient of client id ${this.options.clientId}`,
      );
    }
    return store;
  }

  /** A customer orders in the app; refused as the app would for a closed store or an item turned off. */
  place(placed: PlaceOrder): SimOrder {
    const store = this.store(placed.store_id ?? this.stores[0]?.id ?? '');
    if (!store.enabled) throw new RappiError(409, `Store ${store.id} is turned off`);
    if (!Array.isArray(placed.items) || placed.items.length === 0)
      throw new RappiError(400, 'items required');
    if (typeof placed.client?.first_name !== 'string')
      throw new RappiError(400, 'client.first_name required');
    for (const item of placed.items) {
      if (typeof item.sku !== 'string' || typeof item.price !== 'number') {
        throw new RappiError(400, 'each item needs a sku and a price');
      }
      if (store.unavailable.products.has(item.sku))
        throw new RappiError(409, `Item ${item.sku} is turned off`);
      for (const topping of item.toppings ?? []) {
        if (store.unavailable.toppings.has(topping.sku)) {
          throw new RappiError(409, `Topping ${topping.sku} is turned off`);
        }
      }
    }
    const at = this.now();
    const viaWebhook = this.hub.listens('NEW_ORDER', store.id);
    const order: SimOrder = {
      orderId: String(this.nextOrderId++),
      storeId: store.id,
      placed,
      createdAt: at,
      status: viaWebhook ? 'WEBHOOK' : 'READY',
      history: [{ status: viaWebhook ? 'WEBHOOK' : 'READY', at }],
    };
    this.orders.set(order.orderId, order);
    if (viaWebhook) {
      // The guide: an order sent by webhook needs no reading unless the webhook fails; then it is READY.
      void this.hub.send('NEW_ORDER', store.id, this.json(order)).then((delivered) => {
        if (order.status !== 'WEBHOOK') return;
        this.move(order, delivered ? 'SENT' : 'READY');
      });
    }
    return order;
  }

  json(order: SimOrder) {
    return orderJson(order, this.store(order.storeId));
  }

  /**
   * New orders (READY) handed out once each, READY → SENT. A read sooner than the interval after the
   * previous one is refused with 429 and hands out nothing.
   */
  readNew(storeId: string | undefined) {
    this.sweep();
    const at = this.now();
    if (this.lastRead !== undefined && at - this.lastRead < this.options.readIntervalMs) {
      const wait = Math.ceil((this.options.readIntervalMs - (at - this.lastRead)) / 1000);
      throw new RappiError(
        429,
        `Too many requests: read new orders at most once every ${this.options.readIntervalMs / 1000} seconds; retry in ${wait} s`,
      );
    }
    const store = storeId === undefined ? undefined : this.store(storeId);
    this.lastRead = at;
    const ready = [...this.orders.values()].filter(
      (order) => order.status === 'READY' && (store === undefined || order.storeId === store.id),
    );
    for (const order of ready) {
      order.sentAt = at;
      this.move(order, 'SENT');
    }
    return ready.map((order) => this.json(order));
  }

  readSent() {
    this.sweep();
    const at = this.now();
    return [...this.orders.values()]
      .filter((order) => order.status === 'SENT' && at - (order.sentAt ?? order.createdAt) <= SENT_WINDOW_MS)
      .map((order) => this.json(order));
  }

  take(storeId: string, orderId: string, cookingTime: number | undefined): void {
    const order = this.order(storeId, orderId);
    if (cookingTime !== undefined) {
      const detail = this.json(order).order_detail;
      if (
        !Number.isInteger(cookingTime) ||
        cookingTime < detail.min_cooking_time ||
        cookingTime > detail.max_cooking_time
      ) {
        throw new RappiError(
          400,
          `Cooking time must be between ${detail.min_cooking_time} and ${detail.max_cooking_time} minutes`,
        );
      }
    }
    this.transition(order, 'TAKEN');
    order.takenCookingTime = cookingTime ?? this.json(order).order_detail.cooking_time;
  }

  reject(storeId: string, orderId: string, cancelType: string, body: Record<string, unknown>): void {
    const order = this.order(storeId, orderId);
    const reason = [body.description, body.reason].find((value) => typeof value === 'string') as
      | string
      | undefined;
    const skus = Array.isArray(body.items_skus) ? body.items_skus.map(String) : [];
    this.transition(order, 'REJECTED');
    order.rejection = { cancelType, reason: reason ?? null, itemSkus: skus };
    // The reference: SKUs named in a rejection are turned off, and only support turns them on again.
    const store = this.store(order.storeId);
    for (const sku of skus) store.unavailable.products.add(sku);
  }

  readyForPickup(storeId: string, orderId: string): void {
    this.transition(this.order(storeId, orderId), 'READY_FOR_PICKUP');
  }

  /** The platform cancels (the customer, support, fraud...): ORDER_EVENT_CANCEL goes to the webhooks. */
  cancel(orderId: string, event: string): Promise<boolean> {
    this.sweep();
    const order = this.orders.get(orderId);
    if (!order) throw new RappiError(404, `Order ${orderId} not found`);
    if (['CANCELED', 'REJECTED', 'TIMEOUT'].includes(order.status)) {
      throw new RappiError(409, `Order ${orderId} is already ${order.status}`);
    }
    order.cancelEvent = event;
    this.move(order, 'CANCELED');
    return this.hub.send('ORDER_EVENT_CANCEL', order.storeId, {
      event,
      order_id: order.orderId,
      store_id: order.storeId,
    });
  }

  setStoreEnabled(storeId: string, enabled: boolean) {
    const store = this.store(storeId);
    store.enabled = enabled;
    void this.hub.send('STORE_CONNECTIVITY', store.id, {
      external_store_id: store.integrationId,
      enabled,
      message: enabled ? 'Store turned on' : 'Store turned off',
    });
    return store;
  }

  setAvailability(
    storeId: string,
    kind: 'products' | 'toppings' | 'items',
    available: string[],
    unavailable: string[],
  ): void {
    const store = this.store(storeId);
    const sets =
      kind === 'items' ? [store.unavailable.products, store.unavailable.toppings] : [store.unavailable[kind]];
    for (const set of sets) {
      for (const id of available) set.delete(id);
      for (const id of unavailable) set.add(id);
    }
  }

  /** Orders nobody took or rejected in time time out: Rappi cancels them and the store can no longer act. */
  sweep(): void {
    const at = this.now();
    for (const order of this.orders.values()) {
      if (
        ['WEBHOOK', 'READY', 'SENT'].includes(order.status) &&
        at - order.createdAt >= this.options.takeDeadlineMs
      ) {
        this.move(order, 'TIMEOUT');
      }
    }
  }

  private order(storeId: string, orderId: string): SimOrder {
    this.sweep();
    const store = this.store(storeId);
    const order = this.orders.get(orderId);
    if (!order || order.storeId !== store.id) throw new RappiError(404, `Order ${orderId} not found`);
    return order;
  }

  private transition(order: SimOrder, to: OrderStatus): void {
    if (!STORE_TRANSITIONS[to]?.includes(order.status)) {
      throw new RappiError(400, `Invalid transition from ${order.status} to ${to}`);
    }
    this.move(order, to);
  }

  private move(order: SimOrder, to: OrderStatus): void {
    order.status = to;
    order.history.push({ status: to, at: this.now() });
  }
}
