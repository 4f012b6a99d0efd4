import { randomUUID } from 'node:crypto';
import type { DeliveryFaults } from '../helpers/webhook-delivery';
import type { ApiFaults } from './faults';
import { invalid, isObject, notFound } from './http';
import type { FulfillmentType, NewOrder, OrderItem, OrderOption } from './orders';
import type { UberEatsSimulator } from './simulator';
import type { StoreState } from './store';

/**
 * The simulator's own controls, for tests in other processes and for trying the POS by hand
 * (`npm run ubereats-sim`); tests in this process may call the class. JSON bodies, no credentials
 * (the simulator listens on loopback).
 *
 *   GET  /sim/state                  the store (menu uploads, suspended items, status), every order and
 *                                    what the store did to it, webhook deliveries, tokens minted, faults
 *   POST /sim/orders                 place an order: { items: [{ external_id, quantity?, title?, price?,
 *                                    special_instructions?, options?: [{ external_id, quantity?, title?,
 *                                    price?, group_external_id? }] }], special_instructions?,
 *                                    customer?: { first_name, phone? }, type?, prep_minutes?, tax?, fee?,
 *                                    currency? }  → { order_id, display_id, resource_href }
 *   POST /sim/orders/{id}/cancel     the platform cancels it { reason? } (webhook orders.cancel)
 *   POST /sim/orders/{id}/finish     the courier picked it up (FINISHED)
 *   POST /sim/faults                 { delayMs?, fail5xx?, loseAnswer?, only? }   next API calls
 *   POST /sim/webhooks               { twice?, never?, outOfOrder? }   next webhook events
 *   POST /sim/webhooks/flush         send the events held back by outOfOrder now
 *   POST /sim/webhook-url            { url }   where webhooks go
 *   POST /sim/clock                  { advanceMs }   move the simulator's clock (deadlines, expiry)
 *   POST /sim/tokens/revoke          every token stops working (as a rotated secret)
 *   POST /sim/reset                  forget orders, menus, tokens, faults and deliveries
 */
export async function handleControl(
  simulator: UberEatsSimulator,
  method: string,
  path: string,
  body: Record<string, unknown>,
): Promise<unknown> {
  if (method === 'GET' && path === '/sim/state') return simulator.snapshot();
  if (method !== 'POST') throw notFound('control');
  const orderAction = /^\/sim\/orders\/([^/]+)\/(cancel|finish)$/.exec(path);
  if (orderAction !== null) {
    const [, id = '', action] = orderAction;
    if (action === 'cancel')
      simulator.cancelOrder(id, stringField(body, 'reason') ?? 'CUSTOMER_CALLED_TO_CANCEL');
    else simulator.finishOrder(id);
    return { ok: true };
  }
  switch (path) {
    case '/sim/orders': {
      const order = simulator.placeOrder(readNewOrder(body, simulator.store));
      return {
        order_id: order.id,
        display_id: order.displayId,
        resource_href: simulator.resourceHref(order.id),
      };
    }
    case '/sim/faults':
      simulator.setFaults(body as Partial<ApiFaults>);
      return { ok: true };
    case '/sim/webhooks':
      simulator.setWebhookFaults(readWebhookFaults(body));
      return { ok: true };
    case '/sim/webhooks/flush':
      simulator.webhooks.flush();
      return { ok: true };
    case '/sim/webhook-url': {
      const url = stringField(body, 'url');
      if (url === undefined || !URL.canParse(url)) throw invalid('url must be a URL');
      simulator.webhooks.url = url;
      return { ok: true };
    }
    case '/sim/clock': {
      const advanceMs = body.advanceMs;
      if (typeof advanceMs !== 'number' || !Number.isInteger(advanceMs) || advanceMs < 0)
        throw invalid('advanceMs must be a whole number of milliseconds ≥ 0');
      simulator.advanceClock(advanceMs);
      return { ok: true, now: new Date(simulator.now()).toISOString() };
    }
    case '/sim/tokens/revoke':
      simulator.tokens.revokeAll();
      return { ok: true };
    case '/sim/reset':
      simulator.reset();
      return { ok: true };
    default:
      throw notFound('control');
  }
}

function stringField(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(`${name} must be a string`);
  return value;
}

function wholeField(body: Record<string, unknown>, name: string, fallback: number, minimum = 0): number {
  const value = body[name] ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum)
    throw invalid(`${name} must be a whole number ≥ ${minimum}`);
  return value;
}

function readWebhookFaults(body: Record<string, unknown>): Partial<DeliveryFaults> {
  const faults: Partial<DeliveryFaults> = {};
  for (const name of ['twice', 'never', 'outOfOrder'] as const)
    if (body[name] !== undefined) faults[name] = wholeField(body, name, 0);
  return faults;
}

const TYPES: readonly FulfillmentType[] = ['DELIVERY_BY_UBER', 'PICK_UP', 'DELIVERY_BY_RESTAURANT'];

/** An eater's cart: items by our dish id (the menu item's external_data), priced from the uploaded menu. */
export function readNewOrder(body: Record<string, unknown>, store: StoreState): NewOrder {
  const items = body.items;
  if (!Array.isArray(items) || items.length === 0) throw invalid('items must list at least one item');
  const customer = body.customer ?? {};
  if (!isObject(customer)) throw invalid('customer must be an object');
  const type = body.type ?? 'DELIVERY_BY_UBER';
  if (!TYPES.includes(type as FulfillmentType)) throw invalid(`type must be one of ${TYPES.join(', ')}`);
  return {
    type: type as FulfillmentType,
    prepMinutes: wholeField(body, 'prep_minutes', 15, 1),
    currency: stringField(body, 'currency') ?? 'MXN',
    eater: {
      firstName: stringField(customer, 'first_name') ?? 'Eater',
      phone: stringField(customer, 'phone') ?? '',
    },
    items: items.map((item, index) => readItem(item, `items[${index}]`, store)),
    specialInstructions: stringField(body, 'special_instructions') ?? '',
    taxAmount: wholeField(body, 'tax', 0),
    feeAmount: wholeField(body, 'fee', 0),
  };
}

function readItem(value: unknown, where: string, store: StoreState): OrderItem {
  if (!isObject(value)) throw invalid(`${where} must be an object`);
  const externalId = stringField(value, 'external_id');
  if (externalId === undefined || externalId === '') throw invalid(`${where}.external_id is required`);
  const menuItem = store.findItem(externalId);
  const options = value.options ?? [];
  if (!Array.isArray(options)) throw invalid(`${where}.options must be a list`);
  return {
    id: menuItem?.id ?? externalId,
    instanceId: randomUUID(),
    title: stringField(value, 'title') ?? titleOf(menuItem) ?? `Item ${externalId}`,
    externalData: externalId,
    quantity: wholeField(value, 'quantity', 1, 1),
    unitPrice: wholeField(value, 'price', menuItem === undefined ? 0 : store.priceOf(menuItem)),
    options: options.map((option, index) => readOption(option, `${where}.options[${index}]`, store)),
    specialInstructions: stringField(value, 'special_instructions') ?? '',
  };
}

function readOption(value: unknown, where: string, store: StoreState): OrderOption {
  if (!isObject(value)) throw invalid(`${where} must be an object`);
  const externalId = stringField(value, 'external_id');
  if (externalId === undefined || externalId === '') throw invalid(`${where}.external_id is required`);
  const menuItem = store.findItem(externalId);
  const groupExternalId = stringField(value, 'group_external_id');
  const menuGroup =
    (groupExternalId === undefined
      ? undefined
      : store.menu?.modifier_groups.find((g) => g.id === groupExternalId)) ??
    (menuItem === undefined ? undefined : store.groupOf(menuItem.id));
  const groupId = menuGroup?.id ?? groupExternalId ?? 'options';
  return {
    id: menuItem?.id ?? externalId,
    title: stringField(value, 'title') ?? titleOf(menuItem) ?? `Option ${externalId}`,
    externalData: externalId,
    quantity: wholeField(value, 'quantity', 1, 1),
    unitPrice: wholeField(value, 'price', menuItem === undefined ? 0 : store.priceOf(menuItem)),
    group: {
      id: groupId,
      title: titleOf(menuGroup) ?? 'Options',
      externalData: typeof menuGroup?.external_data === 'string' ? menuGroup.external_data : groupId,
    },
  };
}

function titleOf(entity: Record<string, unknown> | undefined): string | undefined {
  const title = entity?.title;
  const translations = isObject(title) ? title.translations : undefined;
  if (!isObject(translations)) return undefined;
  const first = Object.values(translations).find((text) => typeof text === 'string');
  return typeof first === 'string' ? first : undefined;
}
