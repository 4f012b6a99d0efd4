/**
 * The delivery-app port: what the POS asks of Uber Eats and Rappi, in one vocabulary for both
 * (contract-channels.md). `delivery-apps/` implements it over each platform's HTTP API and the
 * composition root builds one per configured platform; the channels feature uses them from the context
 * and never constructs them. Instants are Unix milliseconds and amounts integer cents (centavos).
 */

export const DELIVERY_CHANNELS = ['ubereats', 'rappi'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

/** One option of a plate as the platform sold it; `externalId` is our modifier option's id. */
export type PlatformOption = {
  externalId: string | null;
  name: string;
  quantity: number;
  /** What the platform charged for one of this option on one unit of its item. */
  unitPriceCents: number;
};

/** One line of the platform's cart; `externalId` is our dish's id (Uber's `external_data`, Rappi's SKU). */
export type PlatformItem = {
  externalId: string | null;
  name: string;
  quantity: number;
  /** What the platform charged for one unit of the item, its options included. */
  unitPriceCents: number;
  options: PlatformOption[];
  notes: string;
};

/** Where the platform says the order is; `unknown` for a state this client does not recognise. */
export type PlatformOrderState =
  | 'new'
  | 'accepted'
  | 'denied'
  | 'cancelled'
  | 'ready'
  | 'picked_up'
  | 'delivered'
  | 'unknown';

export type PlatformOrder = {
  /** The platform's id for the order (our `channel_order_id`). */
  id: string;
  /** The short code the courier says at the counter (Uber's `display_id`, Rappi's order id). */
  code: string;
  customerFirstName: string | null;
  placedAt: number;
  /** When the platform expects the food ready for the courier, when it says. */
  pickupAt: number | null;
  state: PlatformOrderState;
  items: PlatformItem[];
  /** The cart's own instructions, apart from each item's. */
  notes: string;
  /** What the customer paid for the food (items and options, before the platform's delivery fee and tip). */
  subtotalCents: number;
  /** The platform's commission on this order, where its API gives it; otherwise null. */
  commissionCents: number | null;
  /** Cooking time the platform allows when accepting (Rappi's take), in minutes; null where none. */
  cookingMinutes: { min: number; max: number; suggested: number } | null;
};

/** What a verified webhook tells; the channels feature takes each in exactly once by `eventId`. */
export type PlatformEvent =
  | { kind: 'order'; eventId: string; orderId: string; order: PlatformOrder | null }
  | { kind: 'cancel'; eventId: string; orderId: string }
  | { kind: 'other'; eventId: string };

/** A webhook the store registered through the platform's API: its event and the secret it is signed with. */
export type RegisteredWebhook = { event: string; secret: string };

/**
 * Webhooks a store registers through the platform's own API (Rappi's), each event with its own secret.
 * Absent where the platform's dashboard sets them up (Uber's).
 */
export interface PlatformWebhooks {
  /** The events the POS takes in by webhook. */
  readonly events: readonly string[];
  /**
   * Points the store's webhook for `event` at `url`, without a second registration when one exists
   * (moved there, or found already there), and returns its secret. Safe to repeat.
   */
  register(event: string, url: string): Promise<RegisteredWebhook>;
}

/** The menu as the POS publishes it; the client turns it into the platform's format. */
export type PlatformMenu = {
  currency: string;
  categories: { id: string; name: string; dishIds: string[] }[];
  dishes: {
    id: string;
    name: string;
    description: string | null;
    /** The dish's price for this channel (its own price unless one is set for the channel). */
    priceCents: number;
    photoUrl: string | null;
    modifierGroupIds: string[];
    isAvailable: boolean;
  }[];
  modifierGroups: {
    id: string;
    name: string;
    minChoices: number;
    maxChoices: number;
    options: { id: string; name: string; priceCents: number; isAvailable: boolean }[];
  }[];
  /** Opening hours by weekday (0 = Sunday), "HH:MM" in the restaurant's zone; empty = always open. */
  hours: { weekday: number; opens: string; closes: string }[];
};

/**
 * A platform's refusal or failure. `isRetryable`: a 5xx, 429, timeout or lost connection, worth trying
 * again later; otherwise the platform said no (`status` 4xx) and trying again would say the same.
 */
export class PlatformError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly isRetryable: boolean,
    /** The platform's own code for a refusal, where its error body has one. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

/**
 * One platform's store. Every call that changes the platform's state is safe to repeat: asking for
 * what already happened (accepting an accepted order, marking a ready order ready) resolves; asking for
 * what can no longer happen (accepting a cancelled order) rejects with a non-retryable PlatformError.
 * Tokens are cached inside the client until they expire.
 */
export interface DeliveryPlatform {
  readonly channel: DeliveryChannel;
  readonly storeId: string;
  /** Present where the store registers its webhooks through the platform's API. */
  readonly webhooks?: PlatformWebhooks;
  /**
   * Checks the signature over the exact bytes received and reads the events; null when the
   * signature is missing or wrong (or the platform sends no webhooks this client knows). `registered`
   * holds the secrets of the webhooks registered through `webhooks` (Uber's are signed with the
   * client's own secret instead).
   */
  verifyWebhook(
    rawBody: string,
    headers: Readonly<Record<string, string | string[] | undefined>>,
    registered: readonly RegisteredWebhook[],
  ): PlatformEvent[] | null;
  /** The order as the platform holds it now. */
  getOrder(orderId: string): Promise<PlatformOrder>;
  /**
   * Orders the platform has for the store and the store may not have taken in yet: Rappi's read
   * (each order handed out once, so the caller stores them before anything else) followed by its
   * recently sent ones; Uber's created orders. The caller keeps to the platform's interval.
   */
  readOrders(): Promise<PlatformOrder[]>;
  /** Ids of the orders the platform cancelled lately (Uber's canceled-orders); [] where it has no such read. */
  readCancelledOrderIds(): Promise<string[]>;
  accept(order: { id: string; pickupAt: number; cookingMinutes: number }): Promise<void>;
  deny(orderId: string, reason: { explanation: string; unknownItems: string[] }): Promise<void>;
  /** The store cancels an order it had accepted. */
  cancel(orderId: string, explanation: string): Promise<void>;
  markReady(orderId: string): Promise<void>;
  publishMenu(menu: PlatformMenu): Promise<void>;
  /** Suspends (or lifts the suspension of) dishes and options by our ids. */
  setAvailability(change: { dishIds: string[]; optionIds: string[]; isAvailable: boolean }): Promise<void>;
  /** Stops taking orders until `until` (Rappi has no "until": the caller resumes it). */
  pause(until: number, reason: string): Promise<void>;
  resume(): Promise<void>;
}

/** The configured platforms; a platform without credentials is absent. */
export type DeliveryPlatforms = Readonly<Partial<Record<DeliveryChannel, DeliveryPlatform>>>;
