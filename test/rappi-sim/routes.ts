import { RappiError } from './model';
import type { Platform } from './platform';
import type { Webhook, WebhookHub } from './webhooks';

export type Answer = { status: number; json: unknown };

export type RouteContext = {
  platform: Platform;
  hub: WebhookHub;
  params: string[];
  body: Record<string, unknown> | unknown[] | undefined;
};

type Route = {
  method: string;
  pattern: RegExp;
  /** Only the login is reached without the token. */
  open?: boolean;
  handle: (context: RouteContext) => Answer | Promise<Answer>;
};

/** The orders family and the newer menu (availability) family live under `/restaurants/...`. */
const ORDERS = '/restaurants/orders/v1';
const ORDER = `${ORDERS}/stores/([^/]+)/orders/([^/]+)`;
/** Store availability and webhooks are still documented under the older public API's base. */
const PUBLIC_API = '/api/v2/restaurants-integrations-public-api';

const ok = (json: unknown, status = 200): Answer => ({ status, json });

function object(body: RouteContext['body']): Record<string, unknown> {
  if (body === undefined) return {};
  if (Array.isArray(body) || typeof body !== 'object') throw new RappiError(400, 'Expected a JSON object');
  return body;
}

function strings(value: unknown, name: string): string[] {
  if (!Array.isArray(value)) throw new RappiError(400, `${name} must be an array`);
  return value.map(String);
}

function webhookJson(webhook: Webhook) {
  return {
    event: webhook.event,
    url: webhook.url,
    stores: [...webhook.stores],
    secret: webhook.secret,
    state: webhook.enabled ? 'ENABLED' : 'DISABLED',
  };
}

export const ROUTES: Route[] = [
  {
    method: 'POST',
    pattern: /^\/restaurants\/auth\/v1\/token\/login\/integrations$/,
    open: true,
    handle: ({ platform, body }) => {
      const { client_id, client_secret } = object(body);
      return ok(platform.login(client_id, client_secret));
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${ORDERS}/orders$`),
    handle: ({ platform }) => ok(platform.readNew(undefined)),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${ORDERS}/stores/([^/]+)/orders$`),
    handle: ({ platform, params }) => ok(platform.readNew(params[0])),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${ORDERS}/orders/status/sent$`),
    handle: ({ platform }) => ok(platform.readSent()),
  },
  {
    method: 'PUT',
    pattern: new RegExp(`^${ORDER}/take$`),
    handle: ({ platform, params: [store = '', order = ''] }) => {
      platform.take(store, order, undefined);
      return ok({ message: 'Order successfully taken' });
    },
  },
  {
    method: 'PUT',
    pattern: new RegExp(`^${ORDER}/cooking_time/([^/]+)/take$`),
    handle: ({ platform, params: [store = '', order = '', minutes = ''] }) => {
      if (!/^\d+$/.test(minutes)) throw new RappiError(400, 'Cooking time must be a whole number of minutes');
      platform.take(store, order, Number(minutes));
      return ok({ message: 'Order successfully taken' });
    },
  },
  {
    method: 'PUT',
    pattern: new RegExp(`^${ORDER}/cancel_type/([^/]+)/reject$`),
    handle: ({ platform, params: [store = '', order = '', cancelType = ''], body }) => {
      platform.reject(store, order, cancelType, object(body));
      return ok({ message: 'Order successfully rejected' });
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`^${ORDER}/ready-for-pickup$`),
    handle: ({ platform, params: [store = '', order = ''] }) => {
      platform.readyForPickup(store, order);
      return ok({ message: 'Order ready for pickup' });
    },
  },
  {
    method: 'PATCH',
    pattern: /^\/restaurants\/menu\/v1\/stores\/([^/]+)\/(products|toppings|items)\/([^/]+)\/stock$/,
    handle: ({ platform, params: [store = '', kind = '', identity = ''], body }) => {
      if (identity !== 'SKU' && identity !== 'RAPPI') {
        throw new RappiError(400, 'Identity type must be SKU or RAPPI');
      }
      const { available, unavailable } = object(body);
      platform.setAvailability(
        store,
        kind as 'products' | 'toppings' | 'items',
        strings(available, 'available'),
        strings(unavailable, 'unavailable'),
      );
      return ok({}, 202);
    },
  },
  {
    method: 'PUT',
    pattern: new RegExp(`^${PUBLIC_API}/availability/stores/items$`),
    handle: ({ platform, body }) => {
      if (!Array.isArray(body)) throw new RappiError(400, 'Expected a JSON array');
      for (const entry of body as Record<string, unknown>[]) {
        const items = (entry.items ?? {}) as Record<string, unknown>;
        platform.setAvailability(
          String(entry.store_integration_id),
          'products',
          items.turn_on === undefined ? [] : strings(items.turn_on, 'turn_on'),
          items.turn_off === undefined ? [] : strings(items.turn_off, 'turn_off'),
        );
      }
      return ok({ message: 'Items successfully updated' });
    },
  },
  {
    method: 'PUT',
    pattern: new RegExp(`^${PUBLIC_API}/availability/stores/enable$`),
    handle: ({ platform, body }) => {
      const stores = object(body).stores;
      if (!Array.isArray(stores)) throw new RappiError(400, 'stores must be an array');
      const results = (stores as Record<string, unknown>[]).map((entry) => {
        if (typeof entry.is_enabled !== 'boolean') throw new RappiError(400, 'is_enabled must be a boolean');
        const store = platform.setStoreEnabled(String(entry.store_id), entry.is_enabled);
        return {
          store_id: Number(store.id),
          is_enabled: store.enabled,
          operation_result: true,
          operation_result_type: 'SUCCESS',
          operation_result_message: 'success',
          suspended_reason: null,
          suspended_at: null,
          suspended_time: 0,
        };
      });
      return ok({ results });
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`^${PUBLIC_API}/webhook$`),
    handle: ({ hub, body }) => {
      const { event, data } = object(body);
      if (typeof event !== 'string') throw new RappiError(400, 'event required');
      if (!Array.isArray(data)) throw new RappiError(400, 'data must be an array');
      const created = (data as Record<string, unknown>[]).map((entry) =>
        hub.register(event, String(entry.url), strings(entry.stores, 'stores')),
      );
      return ok(created.map(webhookJson));
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${PUBLIC_API}/webhook(?:/([^/]+))?$`),
    handle: ({ hub, params: [event] }) =>
      ok((event === undefined ? hub.webhooks : hub.forEvent(event)).map(webhookJson)),
  },
  {
    method: 'PUT',
    pattern: new RegExp(`^${PUBLIC_API}/webhook/([^/]+)/reset-secret$`),
    handle: ({ hub, params: [event = ''] }) => ok(hub.resetSecret(event).map(webhookJson)),
  },
  {
    method: 'PUT',
    pattern: new RegExp(`^${PUBLIC_API}/webhook/([^/]+)/change-url$`),
    handle: ({ hub, params: [event = ''], body }) => {
      const { url, stores } = object(body);
      return ok(webhookJson(hub.changeUrl(event, String(url), strings(stores, 'stores'))));
    },
  },
  {
    method: 'PUT',
    pattern: new RegExp(`^${PUBLIC_API}/webhook/([^/]+)/add-stores$`),
    handle: ({ hub, params: [event = ''], body }) => {
      const { url, stores } = object(body);
      return ok(webhookJson(hub.register(event, String(url), strings(stores, 'stores'))));
    },
  },
  {
    method: 'PUT',
    pattern: new RegExp(`^${PUBLIC_API}/webhook/([^/]+)/change-status$`),
    handle: ({ hub, params: [event = ''], body }) => {
      const { enabled, stores } = object(body);
      if (typeof enabled !== 'boolean') throw new RappiError(400, 'enabled must be a boolean');
      const only = stores === undefined ? undefined : strings(stores, 'stores');
      return ok(hub.changeStatus(event, enabled, only).map(webhookJson));
    },
  },
  {
    method: 'DELETE',
    pattern: new RegExp(`^${PUBLIC_API}/webhook/([^/]+)/remove-stores$`),
    handle: ({ hub, params: [event = ''], body }) =>
      ok(hub.removeStores(event, strings(object(body).stores, 'stores')).map(webhookJson)),
  },
];
