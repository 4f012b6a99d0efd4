import { randomUUID } from 'node:crypto';
import { conflict, notFound } from './http';

/** Accept or deny within 11.5 minutes of the notification, or the platform cancels the order. */
export const ACCEPT_DEADLINE_MS = 11.5 * 60 * 1000;

export type OrderState = 'CREATED' | 'ACCEPTED' | 'DENIED' | 'FINISHED' | 'CANCELED';
export type FulfillmentType = 'DELIVERY_BY_UBER' | 'PICK_UP' | 'DELIVERY_BY_RESTAURANT';

/** Money in the currency's minor unit (centavos), as the order's `amount` fields carry it. */
export type OrderOption = {
  id: string;
  title: string;
  externalData: string;
  quantity: number;
  unitPrice: number;
  group: { id: string; title: string; externalData: string };
};

export type OrderItem = {
  id: string;
  instanceId: string;
  title: string;
  externalData: string;
  quantity: number;
  unitPrice: number;
  options: OrderOption[];
  specialInstructions: string;
};

export type CancelledBy = 'platform' | 'store' | 'timeout';

/** What the store did to an order, for a test (or a person) to read through /sim/state. */
export type SimOrder = {
  id: string;
  displayId: string;
  state: OrderState;
  type: FulfillmentType;
  placedAt: number;
  prepMinutes: number;
  currency: string;
  eater: { firstName: string; phone: string };
  items: OrderItem[];
  specialInstructions: string;
  taxAmount: number;
  feeAmount: number;
  accepted?: { at: number; reason: string; externalReferenceId?: string; pickupTime?: number };
  denied?: {
    at: number;
    code: string;
    explanation: string;
    outOfStockItems: string[];
    invalidItems: string[];
  };
  readyAt?: number;
  finishedAt?: number;
  cancelled?: { at: number; by: CancelledBy; reason: string; details?: string };
};

export type NewOrder = Pick<
  SimOrder,
  'type' | 'prepMinutes' | 'currency' | 'eater' | 'items' | 'specialInstructions' | 'taxAmount' | 'feeAmount'
>;

/** The denial codes the Deny Order reference lists. */
export const DENY_CODES = [
  'STORE_CLOSED',
  'POS_NOT_READY',
  'POS_OFFLINE',
  'ITEM_AVAILABILITY',
  'MISSING_ITEM',
  'MISSING_INFO',
  'PRICING',
  'CAPACITY',
  'ADDRESS',
  'SPECIAL_INSTRUCTIONS',
  'OTHER',
] as const;

/** The reasons the Cancel Order reference allows. */
export const CANCEL_REASONS = [
  'OUT_OF_ITEMS',
  'KITCHEN_CLOSED',
  'CUSTOMER_CALLED_TO_CANCEL',
  'RESTAURANT_TOO_BUSY',
  'CANNOT_COMPLETE_CUSTOMER_NOTE',
  'OTHER',
] as const;

/** A change the platform announces by webhook. */
export type OrderEvent = { type: 'orders.notification' | 'orders.cancel'; order: SimOrder };

/**
 * The orders of the one store and their life: CREATED until the store accepts or denies it, the
 * platform cancelling it when the 11.5 minutes run out (checked whenever the simulator is asked
 * anything, and by a timer).
 */
export class OrderBook {
  readonly orders = new Map<string, SimOrder>();

  constructor(
    private readonly now: () => number,
    private readonly announce: (event: OrderEvent) => void,
  ) {}

  place(input: NewOrder): SimOrder {
    const id = randomUUID();
    const order: SimOrder = {
      ...input,
      id,
      displayId: id.replaceAll('-', '').slice(-5).toUpperCase(),
      state: 'CREATED',
      placedAt: this.now(),
    };
    this.orders.set(id, order);
    this.announce({ type: 'orders.notification', order });
    return order;
  }

  get(id: string): SimOrder {
    this.expireOverdue();
    const order = this.orders.get(id);
    if (order === undefined) throw notFound('order');
    return order;
  }

  accept(id: string, acceptance: NonNullable<SimOrder['accepted']>): void {
    const order = this.awaitingAnswer(id);
    order.state = 'ACCEPTED';
    order.accepted = acceptance;
  }

  deny(id: string, denial: NonNullable<SimOrder['denied']>): void {
    const order = this.awaitingAnswer(id);
    order.state = 'DENIED';
    order.denied = denial;
  }

  /** The store cancels a live order; a finished, denied or cancelled one (or none) is a 404, as documented. */
  cancelByStore(id: string, reason: string, details: string | undefined): void {
    const order = this.get(id);
    if (order.state !== 'CREATED' && order.state !== 'ACCEPTED') throw notFound('order');
    this.cancel(order, { at: this.now(), by: 'store', reason, ...(details !== undefined && { details }) });
  }

  /** The platform cancels (the eater, support, a courier not found): the store is told by webhook. */
  cancelByPlatform(id: string, reason: string): SimOrder {
    const order = this.get(id);
    if (order.state === 'CANCELED' || order.state === 'DENIED' || order.state === 'FINISHED')
      throw conflict(`order is already ${order.state}`);
    this.cancel(order, { at: this.now(), by: 'platform', reason });
    return order;
  }

  markReady(id: string): void {
    const order = this.get(id);
    if (order.state !== 'ACCEPTED') throw conflict(`order is ${order.state}, not ACCEPTED`);
    order.readyAt ??= this.now();
  }

  /** The courier (or the eater at the counter) took the order. */
  finish(id: string): SimOrder {
    const order = this.get(id);
    if (order.state !== 'ACCEPTED') throw conflict(`order is ${order.state}, not ACCEPTED`);
    order.state = 'FINISHED';
    order.finishedAt = this.now();
    return order;
  }

  /** Orders nobody answered in time are cancelled by the platform, which says so by webhook. */
  expireOverdue(): void {
    const now = this.now();
    for (const order of this.orders.values()) {
      if (order.state === 'CREATED' && now > order.placedAt + ACCEPT_DEADLINE_MS)
        this.cancel(order, {
          at: order.placedAt + ACCEPT_DEADLINE_MS,
          by: 'timeout',
          reason: 'not accepted within 11.5 minutes',
        });
    }
  }

  inState(state: OrderState): SimOrder[] {
    this.expireOverdue();
    return [...this.orders.values()].filter((order) => order.state === state);
  }

  private awaitingAnswer(id: string): SimOrder {
    const order = this.get(id);
    if (order.state === 'CANCELED' && order.cancelled?.by === 'timeout')
      throw conflict('order was cancelled: it was not accepted or denied within 11.5 minutes');
    if (order.state !== 'CREATED') throw conflict(`order is already ${order.state}`);
    return order;
  }

  private cancel(order: SimOrder, cancellation: NonNullable<SimOrder['cancelled']>): void {
    order.state = 'CANCELED';
    order.cancelled = cancellation;
    this.announce({ type: 'orders.cancel', order });
  }
}
