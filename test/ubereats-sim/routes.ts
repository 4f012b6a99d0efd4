import { invalid, isObject, notFound } from './http';
import { orderJson, orderSummaryJson } from './order-json';
import { CANCEL_REASONS, DENY_CODES, type OrderBook } from './orders';
import type { StoreState } from './store';

/** 200 with a JSON body, or a bodiless status (204). */
export type Answer = { status: number; json?: unknown };

export type RouteContext = {
  orders: OrderBook;
  store: StoreState;
  now: () => number;
  params: string[];
  query: URLSearchParams;
  body: Record<string, unknown>;
};

type Route = {
  method: 'GET' | 'POST' | 'PUT';
  pattern: RegExp;
  /** The call needs a token holding one of these scopes (each reference's Authorization section). */
  scopes: readonly string[];
  handle: (context: RouteContext) => Answer;
};

const ORDER = '([^/]+)';
const STORE = '([^/]+)';

function storeOf(context: RouteContext): StoreState {
  if (context.params[0] !== context.store.id) throw notFound('store');
  return context.store;
}

function optionalString(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(`${name} must be a string`);
  return value;
}

function stringList(value: unknown, name: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string'))
    throw invalid(`${name} must be a list of item ids`);
  return value as string[];
}

function acceptOrder({ orders, now, params, body }: RouteContext): Answer {
  const pickupTime = body.pickup_time;
  if (pickupTime !== undefined && (typeof pickupTime !== 'number' || !Number.isInteger(pickupTime)))
    throw invalid('pickup_time must be a Unix time in seconds');
  const externalReferenceId = optionalString(body, 'external_reference_id');
  orders.accept(params[0] ?? '', {
    at: now(),
    reason: optionalString(body, 'reason') ?? '',
    ...(externalReferenceId !== undefined && { externalReferenceId }),
    ...(pickupTime !== undefined && { pickupTime }),
  });
  return { status: 204 };
}

function denyOrder({ orders, now, params, body }: RouteContext): Answer {
  const reason = body.reason;
  if (!isObject(reason)) throw invalid('reason must be an object with code and explanation');
  if (typeof reason.code !== 'string' || !(DENY_CODES as readonly string[]).includes(reason.code))
    throw invalid(`reason.code must be one of ${DENY_CODES.join(', ')}`);
  orders.deny(params[0] ?? '', {
    at: now(),
    code: reason.code,
    explanation: optionalString(reason, 'explanation') ?? '',
    outOfStockItems: stringList(reason.out_of_stock_items, 'reason.out_of_stock_items'),
    invalidItems: stringList(reason.invalid_items, 'reason.invalid_items'),
  });
  return { status: 204 };
}

function cancelOrder({ orders, params, body }: RouteContext): Answer {
  const reason = body.reason;
  if (typeof reason !== 'string' || !(CANCEL_REASONS as readonly string[]).includes(reason))
    throw invalid(`reason must be one of ${CANCEL_REASONS.join(', ')}`);
  orders.cancelByStore(params[0] ?? '', reason, optionalString(body, 'details'));
  return { status: 200, json: {} };
}

const TWO_HOURS_MS = 2 * 60 * 60 * 1000;

export const ROUTES: Route[] = [
  {
    method: 'GET',
    pattern: new RegExp(`^/v2/eats/order/${ORDER}$`),
    scopes: ['eats.order', 'eats.store.orders.read'],
    handle: ({ orders, store, params }) => ({
      status: 200,
      json: orderJson(orders.get(params[0] ?? ''), store),
    }),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/v1/eats/orders/${ORDER}/accept_pos_order$`),
    scopes: ['eats.order'],
    handle: acceptOrder,
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/v1/eats/orders/${ORDER}/deny_pos_order$`),
    scopes: ['eats.order'],
    handle: denyOrder,
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/v1/eats/orders/${ORDER}/cancel$`),
    scopes: ['eats.order'],
    handle: cancelOrder,
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/v1/delivery/order/${ORDER}/ready$`),
    scopes: ['eats.order'],
    handle: ({ orders, params }) => {
      orders.markReady(params[0] ?? '');
      return { status: 200, json: {} };
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/eats/stores/${STORE}/created-orders$`),
    scopes: ['eats.store.orders.read', 'eats.order'],
    handle: (context) => {
      storeOf(context);
      const limitText = context.query.get('limit');
      const limit = limitText === null ? Number.POSITIVE_INFINITY : Number(limitText);
      if (!(limit > 0) || (limitText !== null && !Number.isInteger(limit)))
        throw invalid('limit must be a whole number above 0');
      const created = context.orders.inState('CREATED').sort((a, b) => a.placedAt - b.placedAt);
      return { status: 200, json: { orders: created.slice(0, limit).map(orderSummaryJson) } };
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/eats/stores/${STORE}/canceled-orders$`),
    scopes: ['eats.order', 'eats.store.orders.read'],
    handle: (context) => {
      storeOf(context);
      const since = context.now() - TWO_HOURS_MS;
      const cancelled = context.orders
        .inState('CANCELED')
        .filter((order) => (order.cancelled?.at ?? 0) >= since)
        .sort((a, b) => (b.cancelled?.at ?? 0) - (a.cancelled?.at ?? 0));
      return { status: 200, json: { orders: cancelled.map(orderSummaryJson) } };
    },
  },
  {
    method: 'PUT',
    pattern: new RegExp(`^/v2/eats/stores/${STORE}/menus$`),
    scopes: ['eats.store'],
    handle: (context) => {
      storeOf(context).uploadMenu(context.body);
      return { status: 204 };
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/v2/eats/stores/${STORE}/menus$`),
    scopes: ['eats.store'],
    handle: (context) => {
      const menu = storeOf(context).menu;
      if (menu === undefined) throw notFound('menu');
      return { status: 200, json: menu };
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/v2/eats/stores/${STORE}/menus/items/([^/]+)$`),
    scopes: ['eats.store'],
    handle: (context) => {
      storeOf(context).updateItem(context.params[1] ?? '', context.body);
      return { status: 204 };
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/v1/eats/store/${STORE}/status$`),
    scopes: ['eats.store.status.write'],
    handle: (context) => {
      storeOf(context).setStatus(context.body);
      return { status: 204 };
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/eats/store/${STORE}/status$`),
    scopes: ['eats.store', 'eats.store.status.write'],
    handle: (context) => {
      const status = storeOf(context).currentStatus();
      const json =
        status.status === 'ONLINE'
          ? { status: 'ONLINE' }
          : { status: 'OFFLINE', offlineReason: 'PAUSED_BY_RESTAURANT' };
      return { status: 200, json };
    },
  },
];
