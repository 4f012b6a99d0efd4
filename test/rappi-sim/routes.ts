import { badRequest, conflict, isObject, notFound, RappiError, stringList } from './http';
import { orderJson, type RappiOrder, type RappiOrderBook } from './orders';
import { RAPPI_EVENTS, type RappiEvent, type RappiWebhooks } from './webhooks';

export type RappiStore = {
  id: string;
  integrationId: string;
  name: string;
  isEnabled: boolean;
  unavailableSkus: Set<string>;
};

export type RouteContext = {
  orders: RappiOrderBook;
  store: RappiStore;
  webhooks: RappiWebhooks;
  now: () => number;
  params: string[];
  body: unknown;
  /** Called on every read of new orders, to keep the reads' spacing. */
  recordRead: () => void;
  /** An order changed in a way Rappi tells by ORDER_OTHER_EVENT. */
  tell: (order: RappiOrder, event: string) => void;
};

type Route = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  pattern: RegExp;
  handle: (context: RouteContext) => unknown;
};

const ORDERS = '/restaurants/orders/v1';
const PUBLIC_API = '/api/v2/restaurants-integrations-public-api';
const ID = '([^/]+)';

function ownStore(context: RouteContext, storeId: string | undefined): RappiStore {
  if (storeId !== context.store.id) throw notFound(`store ${storeId} does not belong to this client`);
  return context.store;
}

function orderOf(context: RouteContext): RappiOrder {
  const [storeId, orderId = ''] = context.params;
  ownStore(context, storeId);
  const order = context.orders.get(context.store.id, orderId);
  if (order === undefined) throw notFound(`order ${orderId} not found`);
  return order;
}

/** Only an order waiting for an answer (READY or SENT) can be taken or rejected. */
function awaitingAnswer(order: RappiOrder): void {
  if (order.state === 'TIMEOUT')
    throw conflict('order was cancelled for timeout: not taken within 4 minutes');
  if (order.state !== 'SENT' && order.state !== 'READY' && order.state !== 'WEBHOOK')
    throw conflict(`order is ${order.state}`);
}

function take(context: RouteContext, cookingTime: number): unknown {
  const order = orderOf(context);
  awaitingAnswer(order);
  if (cookingTime < order.minCookingTime || cookingTime > order.maxCookingTime)
    throw badRequest(
      `cooking time must be between ${order.minCookingTime} and ${order.maxCookingTime} minutes`,
    );
  context.orders.move(order, 'TAKEN');
  order.taken = { at: context.now(), cookingTime };
  context.tell(order, 'taken_visible_order');
  return { message: 'Order successfully taken' };
}

function newOrders(context: RouteContext, storeIds: string[]): unknown {
  context.recordRead();
  return context.orders.readNew(storeIds).map((order) => orderJson(order, context.store));
}

function eventOf(value: unknown): RappiEvent {
  if (typeof value !== 'string' || !(RAPPI_EVENTS as readonly string[]).includes(value))
    throw new RappiError(406, `event must be one of ${RAPPI_EVENTS.join(', ')}`);
  return value as RappiEvent;
}

function registrationJson(context: RouteContext, event: RappiEvent, withSecret: boolean) {
  const registration = context.webhooks.registrations.get(event);
  if (registration === undefined) throw notFound(`no webhook for ${event}`);
  return {
    event,
    stores: [...registration.stores.entries()].map(([storeId, target]) => ({ store_id: storeId, ...target })),
    ...(withSecret && { secret: registration.secret }),
  };
}

export const ROUTES: Route[] = [
  {
    method: 'GET',
    pattern: new RegExp(`^${ORDERS}/orders$`),
    handle: (context) => newOrders(context, [context.store.id]),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${ORDERS}/stores/${ID}/orders$`),
    handle: (context) => newOrders(context, [ownStore(context, context.params[0]).id]),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${ORDERS}/orders/status/sent$`),
    handle: (context) => context.orders.sentRecently().map((order) => orderJson(order, context.store)),
  },
  {
    method: 'PUT',
    pattern: new RegExp(`^${ORDERS}/stores/${ID}/orders/${ID}/take$`),
    handle: (context) => take(context, orderOf(context).cookingTime),
  },
  {
    method: 'PUT',
    pattern: new RegExp(`^${ORDERS}/stores/${ID}/orders/${ID}/cooking_time/${ID}/take$`),
    handle: (context) => {
      const minutes = Number(context.params[2]);
      if (!Number.isInteger(minutes)) throw badRequest('cookingTime must be a whole number of minutes');
      return take(context, minutes);
    },
  },
  {
    method: 'PUT',
    pattern: new RegExp(`^${ORDERS}/stores/${ID}/orders/${ID}/cancel_type/${ID}/reject$`),
    handle: (context) => {
      const order = orderOf(context);
      awaitingAnswer(order);
      const cancelType = context.params[2] ?? '';
      if (!/^[A-Z_]+$/.test(cancelType))
        throw badRequest('cancelType must be one of the listed cancellation types');
      const body = isObject(context.body) ? context.body : {};
      context.orders.move(order, 'REJECTED');
      order.rejected = {
        at: context.now(),
        cancelType,
        description: typeof body.description === 'string' ? body.description : '',
        additionalInfo: typeof body.additional_info === 'string' ? body.additional_info : '',
      };
      return { message: 'Order successfully rejected' };
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`^${ORDERS}/stores/${ID}/orders/${ID}/ready-for-pickup$`),
    handle: (context) => {
      const order = orderOf(context);
      if (order.state !== 'TAKEN' && order.state !== 'READY_FOR_PICKUP')
        throw conflict(`order is ${order.state}`);
      context.orders.move(order, 'READY_FOR_PICKUP');
      order.readyAt ??= context.now();
      return { message: 'Order successfully updated' };
    },
  },
  {
    method: 'PATCH',
    pattern: new RegExp(`^/restaurants/menu/v1/stores/${ID}/items/(SKU|RAPPI)/stock$`),
    handle: (context) => {
      const store = ownStore(context, context.params[0]);
      if (!isObject(context.body)) throw badRequest('body must have available and unavailable lists');
      const available = stringList(context.body.available, 'available');
      const unavailable = stringList(context.body.unavailable, 'unavailable');
      for (const sku of available) store.unavailableSkus.delete(sku);
      for (const sku of unavailable) store.unavailableSkus.add(sku);
      return { message: 'Items successfully updated' };
    },
  },
  {
    method: 'PUT',
    pattern: new RegExp(`^${PUBLIC_API}/availability/stores/enable$`),
    handle: (context) => {
      const stores = isObject(context.body) ? context.body.stores : undefined;
      if (!Array.isArray(stores) || stores.length === 0)
        throw badRequest('stores must list { store_id, is_enabled }');
      const results = stores.map((entry) => {
        if (!isObject(entry) || typeof entry.is_enabled !== 'boolean')
          throw badRequest('each store needs store_id and is_enabled');
        const isOwn = String(entry.store_id) === context.store.id;
        if (isOwn) context.store.isEnabled = entry.is_enabled;
        return {
          store_id: entry.store_id,
          is_enabled: isOwn ? entry.is_enabled : false,
          operation_result: isOwn,
          operation_result_type: isOwn ? 'SUCCESS' : 'FORBIDDEN',
          operation_result_message: isOwn ? 'success' : 'store does not belong to this client',
          suspended_reason: null,
        };
      });
      return { results };
    },
  },
  {
    method: 'POST',
    pattern: new RegExp(`^${PUBLIC_API}/webhook$`),
    handle: (context) => {
      if (!isObject(context.body)) throw badRequest('body must have event and data');
      const event = eventOf(context.body.event);
      const data = context.body.data;
      if (!Array.isArray(data) || data.length === 0) throw badRequest('data must list { url, stores }');
      for (const entry of data) {
        if (!isObject(entry) || typeof entry.url !== 'string' || !URL.canParse(entry.url))
          throw badRequest('each data entry needs a url');
        const stores = entry.stores === undefined ? [context.store.id] : stringList(entry.stores, 'stores');
        for (const storeId of stores) ownStore(context, storeId);
        context.webhooks.register(event, entry.url, stores);
      }
      return registrationJson(context, event, true);
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${PUBLIC_API}/webhook/${ID}$`),
    handle: (context) => [registrationJson(context, eventOf(context.params[0]), false)],
  },
  {
    method: 'PUT',
    pattern: new RegExp(`^${PUBLIC_API}/webhook/${ID}/reset-secret$`),
    handle: (context) => {
      const event = eventOf(context.params[0]);
      if (context.webhooks.resetSecret(event) === undefined) throw notFound(`no webhook for ${event}`);
      return registrationJson(context, event, true);
    },
  },
];
