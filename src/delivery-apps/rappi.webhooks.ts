import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  PlatformError,
  type PlatformEvent,
  type PlatformWebhooks,
  type RegisteredWebhook,
} from '../core/delivery-platform';
import { header, type Json, list, object, text } from '../core/platform-json';
import type { AuthorizedHttp } from './platform-http';
import { readRappiOrder } from './rappi.order';

/** Rappi's webhooks live under the older public API's base (its "Webhooks" API reference). */
const WEBHOOK = '/api/v2/restaurants-integrations-public-api/webhook';

/** A new order, and Rappi's cancellation of one: the events the POS takes in. */
export const NEW_ORDER = 'NEW_ORDER';
export const ORDER_EVENT_CANCEL = 'ORDER_EVENT_CANCEL';

/** `Rappi-Signature: t=<timestamp>,sign=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`. */
const SIGN = /^[0-9a-f]{64}$/;

/**
 * The store's webhooks at Rappi, registered through its API: one per event, each with its own secret.
 * A registration first looks for the store's webhook of the event, so asking again (after a lost
 * answer, or a restart) moves or reuses it and never adds a second one.
 */
export class RappiWebhooks implements PlatformWebhooks {
  readonly events = [NEW_ORDER, ORDER_EVENT_CANCEL] as const;

  constructor(
    private readonly api: AuthorizedHttp,
    private readonly storeId: string,
  ) {}

  async register(event: string, url: string): Promise<RegisteredWebhook> {
    const path = `${WEBHOOK}/${encodeURIComponent(event)}`;
    const existing = list(await this.api.ok({ method: 'GET', path })).find((webhook) =>
      storesOf(webhook).includes(this.storeId),
    );
    let webhook: Json;
    if (existing === undefined) {
      const created = await this.api.ok({
        method: 'POST',
        path: WEBHOOK,
        json: { event, data: [{ url, stores: [this.storeId] }] },
      });
      webhook = list(created).find((candidate) => text(candidate.url) === url) ?? {};
    } else if (text(existing.url) !== url) {
      webhook = object(
        await this.api.ok({
          method: 'PUT',
          path: `${path}/change-url`,
          json: { url, stores: [this.storeId] },
        }),
      );
    } else {
      webhook = existing;
    }
    if (text(webhook.state) === 'DISABLED')
      await this.api.ok({
        method: 'PUT',
        path: `${path}/change-status`,
        json: { enabled: true, stores: [this.storeId] },
      });
    // A webhook whose secret Rappi does not show again gets a new one: reset-secret renews every webhook of
    // the event and answers each, ours (by its URL) among them.
    const secret = text(webhook.secret) || (await this.resetSecret(path, url));
    if (secret === '') throw new PlatformError(`Rappi gave no secret for the ${event} webhook`, null, true);
    return { event, secret };
  }

  private async resetSecret(path: string, url: string): Promise<string> {
    const reset = list(await this.api.ok({ method: 'PUT', path: `${path}/reset-secret` }));
    return text(reset.find((webhook) => text(webhook.url) === url)?.secret);
  }
}

function storesOf(webhook: Json): string[] {
  return Array.isArray(webhook.stores) ? webhook.stores.map(text) : [];
}

/**
 * Reads a delivery whose `Rappi-Signature` one of the registered secrets signed; the secret that
 * matches names the event (all events reach the same URL). Null when the signature is missing, malformed
 * or signed by none. Each event's id is the event and its order, so a delivery sent twice is one event.
 */
export function verifyRappiWebhook(
  rawBody: string,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  registered: readonly RegisteredWebhook[],
): PlatformEvent[] | null {
  const fields = new Map(
    (header(headers, 'rappi-signature') ?? '').split(',').map((part) => {
      const [name = '', ...value] = part.trim().split('=');
      return [name, value.join('=')] as const;
    }),
  );
  const timestamp = fields.get('t') ?? '';
  const sign = (fields.get('sign') ?? '').toLowerCase();
  if (!/^\d+$/.test(timestamp) || !SIGN.test(sign)) return null;
  const given = Buffer.from(sign, 'hex');
  // Every secret is compared (no early exit), so the time taken tells nothing of which one matched.
  let event: string | undefined;
  for (const webhook of registered) {
    const expected = createHmac('sha256', webhook.secret).update(`${timestamp}.${rawBody}`).digest();
    if (timingSafeEqual(given, expected) && event === undefined) event = webhook.event;
  }
  if (event === undefined) return null;
  let body: Json;
  try {
    body = object(JSON.parse(rawBody));
  } catch {
    return [];
  }
  // No window on the timestamp: a replayed delivery is the same event, stored once by its id.
  switch (event) {
    case NEW_ORDER: {
      const order = readRappiOrder(body);
      if (order.id === '') return [];
      return [{ kind: 'order', eventId: `${NEW_ORDER}:${order.id}`, orderId: order.id, order }];
    }
    case ORDER_EVENT_CANCEL: {
      const orderId = text(body.order_id);
      if (orderId === '') return [];
      return [{ kind: 'cancel', eventId: `${ORDER_EVENT_CANCEL}:${orderId}`, orderId }];
    }
    default:
      return [{ kind: 'other', eventId: `${event}:${timestamp}` }];
  }
}
