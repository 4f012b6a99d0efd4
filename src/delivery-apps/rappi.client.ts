import {
  type DeliveryPlatform,
  PlatformError,
  type PlatformEvent,
  type PlatformMenu,
  type PlatformOrder,
  type RegisteredWebhook,
} from '../core/delivery-platform';
import { type PlatformAnswer, PlatformHttp } from '../core/platform-http';
import { list, object, text } from '../core/platform-json';
import { AuthorizedHttp } from './platform-http';
import { clampCookingMinutes, readRappiOrder } from './rappi.order';
import { RappiWebhooks, verifyRappiWebhook } from './rappi.webhooks';
import { TokenCache } from './token-cache';

export type RappiOptions = {
  clientId: string;
  clientSecret: string;
  /** The store's id in the Rappi app, as its paths name it. */
  storeId: string;
  /** The country domain; the `/restaurants/...` family and the public API's availability live under it. */
  apiUrl: string;
  timeoutMs: number;
  /** The clock the token's expiry is measured by. */
  now: () => number;
};

const ORDERS = '/restaurants/orders/v1';
const PUBLIC_API = '/api/v2/restaurants-integrations-public-api';

/** Rappi refuses a move its state table does not allow with "Invalid transition from X to Y". */
const TRANSITION = /from ([A-Z_]+) to/;

/** Orders whose cooking bounds are remembered between reading and taking them; older ones are read again. */
const REMEMBERED_ORDERS = 500;

/** Rappi's restaurant API for integrators, one store (its developer portal; test/rappi-sim/README.md). */
export class RappiClient implements DeliveryPlatform {
  readonly channel = 'rappi';
  readonly storeId: string;
  readonly webhooks: RappiWebhooks;
  private readonly api: AuthorizedHttp;
  private readonly cookingBounds = new Map<string, PlatformOrder['cookingMinutes']>();

  constructor(options: RappiOptions) {
    this.storeId = options.storeId;
    const http = new PlatformHttp('Rappi', options.apiUrl, options.timeoutMs);
    const tokens = new TokenCache(async () => {
      const answer = await http.send({
        method: 'POST',
        path: '/restaurants/auth/v1/token/login/integrations',
        json: { client_id: options.clientId, client_secret: options.clientSecret },
      });
      const body = object(http.expectOk(answer, 'the token login'));
      return { token: text(body.access_token), expiresInSeconds: Number(body.expires_in) || 0 };
    }, options.now);
    this.api = new AuthorizedHttp(http, tokens, (token) => ({ 'x-authorization': `Bearer ${token}` }));
    this.webhooks = new RappiWebhooks(this.api, this.storeId);
  }

  /** A delivery of a webhook registered through `webhooks`, signed with that webhook's own secret. */
  verifyWebhook(
    rawBody: string,
    headers: Readonly<Record<string, string | string[] | undefined>>,
    registered: readonly RegisteredWebhook[],
  ): PlatformEvent[] | null {
    const events = verifyRappiWebhook(rawBody, headers, registered);
    // The order's cooking bounds are kept for its take, as a read keeps them.
    for (const event of events ?? []) if (event.kind === 'order' && event.order) this.remember(event.order);
    return events;
  }

  /**
   * Rappi's API reads an order only while it waits to be taken (`orders/status/sent`); there is no
   * read of one order by its id.
   */
  async getOrder(orderId: string): Promise<PlatformOrder> {
    const order = (await this.readSent()).find((candidate) => candidate.id === orderId);
    if (order === undefined)
      throw new PlatformError(
        `Rappi shows order ${orderId} only while it waits to be taken, and it no longer does`,
        404,
        false,
      );
    return order;
  }

  /**
   * New orders are handed out once each (read them at most every 45 s: sooner is a retryable 429);
   * the recently sent ones follow, so an order handed out to a read whose answer was lost is found again.
   */
  async readOrders(): Promise<PlatformOrder[]> {
    const body = await this.api.ok({ method: 'GET', path: `${ORDERS}/stores/${this.store}/orders` });
    const fresh = list(body).map((order) => this.remember(readRappiOrder(order)));
    // The new orders are ours now: a failing second read must not lose them.
    const sent = await this.readSent().catch(() => []);
    const seen = new Set(fresh.map((order) => order.id));
    return [...fresh, ...sent.filter((order) => !seen.has(order.id))];
  }

  async readCancelledOrderIds(): Promise<string[]> {
    return [];
  }

  async accept(order: { id: string; pickupAt: number; cookingMinutes: number }): Promise<void> {
    const bounds =
      this.cookingBounds.get(order.id) ?? (await this.findSent(order.id))?.cookingMinutes ?? null;
    const minutes = clampCookingMinutes(order.cookingMinutes, bounds);
    const answer = await this.api.send({
      method: 'PUT',
      path: `${this.orderPath(order.id)}/cooking_time/${minutes}/take`,
    });
    this.settle(answer, order.id, 'take', ['TAKEN', 'READY_FOR_PICKUP']);
    this.cookingBounds.delete(order.id);
  }

  async deny(orderId: string, reason: { explanation: string; unknownItems: string[] }): Promise<void> {
    // Rappi turns off the SKUs a rejection names: an item we cannot map cannot be cooked either.
    const hasUnknownItems = reason.unknownItems.length > 0;
    await this.reject(
      orderId,
      hasUnknownItems ? 'ITEM_NOT_FOUND' : 'ITEM_OUT_OF_STOCK',
      reason.explanation,
      reason.unknownItems,
      'reject',
    );
  }

  /** Rappi's API rejects an order before it is taken; once taken, only Rappi's support cancels it. */
  async cancel(orderId: string, explanation: string): Promise<void> {
    await this.reject(orderId, 'ITEM_OUT_OF_STOCK', explanation, [], 'cancel');
  }

  async markReady(orderId: string): Promise<void> {
    const answer = await this.api.send({
      method: 'POST',
      path: `${this.orderPath(orderId)}/ready-for-pickup`,
    });
    this.settle(answer, orderId, 'mark ready', ['READY_FOR_PICKUP']);
  }

  async publishMenu(_menu: PlatformMenu): Promise<void> {
    throw new PlatformError("Rappi's menu is loaded through its portal", null, false);
  }

  async setAvailability(change: {
    dishIds: string[];
    optionIds: string[];
    isAvailable: boolean;
  }): Promise<void> {
    // Our dish ids are Rappi's product SKUs and our option ids its toppings' SKUs.
    for (const [kind, skus] of [
      ['products', change.dishIds],
      ['toppings', change.optionIds],
    ] as const) {
      if (skus.length === 0) continue;
      await this.api.ok({
        method: 'PATCH',
        path: `/restaurants/menu/v1/stores/${this.store}/${kind}/SKU/stock`,
        json: change.isAvailable
          ? { available: skus, unavailable: [] }
          : { available: [], unavailable: skus },
      });
    }
  }

  /** Rappi's store switch has no "until": the caller turns the store on again when the time is up. */
  async pause(_until: number, _reason: string): Promise<void> {
    await this.enableStore(false);
  }

  async resume(): Promise<void> {
    await this.enableStore(true);
  }

  private async enableStore(isEnabled: boolean): Promise<void> {
    const body = object(
      await this.api.ok({
        method: 'PUT',
        path: `${PUBLIC_API}/availability/stores/enable`,
        json: { stores: [{ store_id: this.storeId, is_enabled: isEnabled }] },
      }),
    );
    const result = list(body.results)[0];
    if (result !== undefined && result.operation_result === false)
      throw new PlatformError(
        `Rappi did not turn the store ${isEnabled ? 'on' : 'off'}: ${text(result.operation_result_message) || text(result.operation_result_type)}`,
        null,
        false,
      );
  }

  private async reject(
    orderId: string,
    cancelType: string,
    explanation: string,
    skus: string[],
    action: string,
  ): Promise<void> {
    const answer = await this.api.send({
      method: 'PUT',
      path: `${this.orderPath(orderId)}/cancel_type/${cancelType}/reject`,
      json: { description: explanation, ...(skus.length > 0 && { items_skus: skus }) },
    });
    // A rejected, cancelled or timed-out order is gone, which is all a rejection asks.
    this.settle(answer, orderId, action, ['REJECTED', 'CANCELED', 'TIMEOUT']);
    this.cookingBounds.delete(orderId);
  }

  private async readSent(): Promise<PlatformOrder[]> {
    const body = await this.api.ok({ method: 'GET', path: `${ORDERS}/orders/status/sent` });
    return list(body)
      .filter((order) => {
        const store = object(order.store);
        return text(store.internal_id) === this.storeId || text(store.external_id) === this.storeId;
      })
      .map((order) => this.remember(readRappiOrder(order)));
  }

  private async findSent(orderId: string): Promise<PlatformOrder | undefined> {
    return (await this.readSent().catch(() => [])).find((order) => order.id === orderId);
  }

  private remember(order: PlatformOrder): PlatformOrder {
    this.cookingBounds.set(order.id, order.cookingMinutes);
    if (this.cookingBounds.size > REMEMBERED_ORDERS) {
      const oldest = this.cookingBounds.keys().next().value;
      if (oldest !== undefined) this.cookingBounds.delete(oldest);
    }
    return order;
  }

  private get store(): string {
    return encodeURIComponent(this.storeId);
  }

  private orderPath(orderId: string): string {
    return `${ORDERS}/stores/${this.store}/orders/${encodeURIComponent(orderId)}`;
  }

  /**
   * Rappi has no read of one order's state, but its refusal names it: a move to where the order already
   * is (or past it) was asked twice and is done; any other refusal stands.
   */
  private settle(answer: PlatformAnswer, orderId: string, action: string, doneStates: string[]): void {
    if (answer.status >= 200 && answer.status < 300) return;
    const state =
      answer.status === 400 ? TRANSITION.exec(String(object(answer.body).message))?.[1] : undefined;
    if (state !== undefined && doneStates.includes(state)) return;
    const failure = this.api.http.failure(answer, `${action} order ${orderId}`);
    if (action === 'cancel' && (state === 'TAKEN' || state === 'READY_FOR_PICKUP'))
      throw new PlatformError(
        `Rappi's API cannot cancel order ${orderId} once taken: ask Rappi's support to cancel it`,
        answer.status,
        false,
      );
    throw failure;
  }
}
