import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  type DeliveryPlatform,
  PlatformError,
  type PlatformEvent,
  type PlatformMenu,
  type PlatformOrder,
} from '../core/delivery-platform';
import { type PlatformAnswer, PlatformHttp } from '../core/platform-http';
import { header, list, object, text } from '../core/platform-json';
import { AuthorizedHttp } from './platform-http';
import { TokenCache } from './token-cache';
import { suspensionInfo, uberIds, uberMenu } from './ubereats.menu';
import { readUberOrder } from './ubereats.order';

export type UberEatsOptions = {
  clientId: string;
  /** Also the key of every webhook's `X-Uber-Signature`. */
  clientSecret: string;
  storeId: string;
  apiUrl: string;
  authUrl: string;
  timeoutMs: number;
  /** The clock the token's expiry is measured by. */
  now: () => number;
};

/** What the POS does at Uber: orders (`eats.order`), the menu (`eats.store`), pausing (`eats.store.status.write`). */
const SCOPES = 'eats.order eats.store eats.store.status.write';

/** Uber's six reasons for a store's cancellation; the explanation goes in `details`. */
const CANCEL_REASON = 'OTHER';

const SIGNATURE = /^[0-9a-f]{64}$/;

/** The Uber Eats Marketplace APIs for one store (developer.uber.com/docs/eats; test/ubereats-sim/README.md). */
export class UberEatsClient implements DeliveryPlatform {
  readonly channel = 'ubereats';
  readonly storeId: string;
  private readonly api: AuthorizedHttp;

  constructor(private readonly options: UberEatsOptions) {
    this.storeId = options.storeId;
    const auth = new PlatformHttp('Uber Eats', options.authUrl, options.timeoutMs);
    const tokens = new TokenCache(async () => {
      const form = new URLSearchParams({
        client_id: options.clientId,
        client_secret: options.clientSecret,
        grant_type: 'client_credentials',
        scope: SCOPES,
      });
      const body = object(
        auth.expectOk(
          await auth.send({ method: 'POST', path: '/oauth/v2/token', form }),
          'the token request',
        ),
      );
      return { token: text(body.access_token), expiresInSeconds: Number(body.expires_in) || 0 };
    }, options.now);
    this.api = new AuthorizedHttp(
      new PlatformHttp('Uber Eats', options.apiUrl, options.timeoutMs),
      tokens,
      (token) => ({
        authorization: `Bearer ${token}`,
      }),
    );
  }

  verifyWebhook(
    rawBody: string,
    headers: Readonly<Record<string, string | string[] | undefined>>,
  ): PlatformEvent[] | null {
    const signature = header(headers, 'x-uber-signature')?.trim().toLowerCase();
    if (signature === undefined || !SIGNATURE.test(signature)) return null;
    const expected = createHmac('sha256', this.options.clientSecret).update(rawBody).digest();
    if (!timingSafeEqual(Buffer.from(signature, 'hex'), expected)) return null;
    let event: Record<string, unknown>;
    try {
      event = object(JSON.parse(rawBody));
    } catch {
      return [];
    }
    const eventId = text(event.event_id);
    const orderId = text(object(event.meta).resource_id);
    if (eventId === '') return [];
    switch (text(event.event_type)) {
      // The notification carries no order: the caller reads it with getOrder.
      case 'orders.notification':
        return [{ kind: 'order', eventId, orderId, order: null }];
      case 'orders.cancel':
        return [{ kind: 'cancel', eventId, orderId }];
      default:
        return [{ kind: 'other', eventId }];
    }
  }

  async getOrder(orderId: string): Promise<PlatformOrder> {
    return readUberOrder(
      await this.api.ok({ method: 'GET', path: `/v2/eats/order/${encodeURIComponent(orderId)}` }),
    );
  }

  async readOrders(): Promise<PlatformOrder[]> {
    const body = object(
      await this.api.ok({ method: 'GET', path: `${this.storePath('stores')}/created-orders` }),
    );
    // The list holds ids and states only; each order's details are read by its own call.
    return Promise.all(list(body.orders).map((order) => this.getOrder(text(order.id))));
  }

  async readCancelledOrderIds(): Promise<string[]> {
    const body = object(
      await this.api.ok({ method: 'GET', path: `${this.storePath('stores')}/canceled-orders` }),
    );
    return list(body.orders).map((order) => text(order.id));
  }

  async accept(order: { id: string; pickupAt: number; cookingMinutes: number }): Promise<void> {
    const answer = await this.api.send({
      method: 'POST',
      path: `${this.orderPath(order.id)}/accept_pos_order`,
      json: { reason: 'accepted', pickup_time: Math.floor(order.pickupAt / 1000) },
    });
    await this.settle(answer, order.id, 'accept', ['accepted', 'ready', 'picked_up', 'delivered']);
  }

  async deny(orderId: string, reason: { explanation: string; unknownItems: string[] }): Promise<void> {
    const hasUnknownItems = reason.unknownItems.length > 0;
    const answer = await this.api.send({
      method: 'POST',
      path: `${this.orderPath(orderId)}/deny_pos_order`,
      json: {
        reason: {
          explanation: reason.explanation,
          code: hasUnknownItems ? 'MISSING_ITEM' : 'OTHER',
          ...(hasUnknownItems && { invalid_items: reason.unknownItems }),
        },
      },
    });
    // A cancelled order is as gone as a denied one: the denial asked for nothing more.
    await this.settle(answer, orderId, 'deny', ['denied', 'cancelled']);
  }

  async cancel(orderId: string, explanation: string): Promise<void> {
    const answer = await this.api.send({
      method: 'POST',
      path: `${this.orderPath(orderId)}/cancel`,
      json: { reason: CANCEL_REASON, details: explanation },
    });
    // Uber answers 404 for an order in a final state as well as for none: the order tells which.
    await this.settle(answer, orderId, 'cancel', ['cancelled', 'denied'], 404);
  }

  async markReady(orderId: string): Promise<void> {
    const answer = await this.api.send({
      method: 'POST',
      path: `/v1/delivery/order/${encodeURIComponent(orderId)}/ready`,
    });
    await this.settle(answer, orderId, 'mark ready', ['ready', 'picked_up', 'delivered']);
  }

  async publishMenu(menu: PlatformMenu): Promise<void> {
    await this.api.ok({
      method: 'PUT',
      path: `/v2/eats/stores/${encodeURIComponent(this.storeId)}/menus`,
      json: uberMenu(menu, this.options.now()),
    });
  }

  async setAvailability(change: {
    dishIds: string[];
    optionIds: string[];
    isAvailable: boolean;
  }): Promise<void> {
    const itemIds = [...change.dishIds.map(uberIds.dish), ...change.optionIds.map(uberIds.option)];
    const suspension_info = suspensionInfo(change.isAvailable, this.options.now());
    // One call per item; each is tried even when another fails, then the first failure is thrown
    // (setting a suspension twice is harmless, so the caller may repeat the whole change).
    const results = await Promise.allSettled(
      itemIds.map((itemId) =>
        this.api.ok({
          method: 'POST',
          path: `/v2/eats/stores/${encodeURIComponent(this.storeId)}/menus/items/${encodeURIComponent(itemId)}`,
          json: { suspension_info },
        }),
      ),
    );
    const failed = results.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }

  async pause(until: number, reason: string): Promise<void> {
    const pausedUntil = new Date(until).toISOString().replace(/\.\d{3}Z$/, 'Z');
    await this.setStatus({ status: 'PAUSED', paused_until: pausedUntil, reason });
  }

  async resume(): Promise<void> {
    await this.setStatus({ status: 'ONLINE' });
  }

  private async setStatus(body: Record<string, string>): Promise<void> {
    await this.api.ok({ method: 'POST', path: `${this.storePath('store')}/status`, json: body });
  }

  /** Uber names the store `stores` in the order lists and `store` in the status calls. */
  private storePath(segment: 'store' | 'stores'): string {
    return `/v1/eats/${segment}/${encodeURIComponent(this.storeId)}`;
  }

  private orderPath(orderId: string): string {
    return `/v1/eats/orders/${encodeURIComponent(orderId)}`;
  }

  /**
   * A state change Uber refused with 409 (or `refusal`) may only have been asked twice: when the
   * order is already where the call wanted it, the call has nothing left to do; otherwise Uber's no stands.
   */
  private async settle(
    answer: PlatformAnswer,
    orderId: string,
    action: string,
    doneStates: PlatformOrder['state'][],
    refusal = 409,
  ): Promise<void> {
    if (answer.status >= 200 && answer.status < 300) return;
    if (answer.status !== refusal) throw this.api.http.failure(answer, `${action} order ${orderId}`);
    const order = await this.getOrder(orderId);
    if (doneStates.includes(order.state)) return;
    throw new PlatformError(
      `Uber Eats cannot ${action} order ${orderId}: it is ${order.state}`,
      answer.status,
      false,
    );
  }
}
