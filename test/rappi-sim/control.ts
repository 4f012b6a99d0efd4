import type { ApiFaults } from '../ubereats-sim/faults';
import { badRequest, isObject, notFound } from './http';
import type { NewRappiOrder, Product, Topping } from './orders';
import type { RappiSimulator } from './simulator';
import type { RappiWebhookFaults } from './webhooks';

/**
 * The simulator's own controls (JSON, no credentials: it listens on loopback), for tests in other
 * processes and for trying the POS by hand (`npm run rappi-sim`).
 *
 *   GET  /sim/state               the store (on/off, SKUs turned off), every order and what the store
 *                                 did, the reads of new orders and those less than 45 s apart,
 *                                 webhook registrations (with their secrets) and deliveries, faults
 *   POST /sim/orders              place an order: { products: [{ sku, quantity?, name?, price?,
 *                                 comments?, toppings?: [{ sku, name?, price?, quantity? }] }],
 *                                 customer?: { first_name, last_name?, phone? }, cooking_time?,
 *                                 min_cooking_time?, max_cooking_time? }  → { order_id, state }
 *   POST /sim/orders/{id}/cancel  the platform cancels it { event? } (ORDER_EVENT_CANCEL)
 *   POST /sim/faults              { delayMs?, fail5xx?, loseAnswer?, only? }   next API calls
 *   POST /sim/webhooks            { twice?, never?, outOfOrder? }   next webhook posts
 *   POST /sim/clock               { advanceMs }   move the simulator's clock (the 4-minute deadline)
 *   POST /sim/reset               forget orders, webhooks, tokens, reads and faults
 */
export async function handleControl(
  simulator: RappiSimulator,
  method: string,
  path: string,
  body: unknown,
): Promise<unknown> {
  if (method === 'GET' && path === '/sim/state') return simulator.snapshot();
  if (method !== 'POST') throw notFound('unknown control');
  const fields = isObject(body) ? body : {};
  const cancel = /^\/sim\/orders\/([^/]+)\/cancel$/.exec(path);
  if (cancel !== null) {
    const event = fields.event ?? 'canceled_with_charge';
    if (typeof event !== 'string') throw badRequest('event must be a string');
    simulator.cancelOrder(cancel[1] ?? '', event);
    return { ok: true };
  }
  switch (path) {
    case '/sim/orders': {
      const order = await simulator.placeOrder(readNewOrder(fields));
      return { order_id: order.id, state: order.state };
    }
    case '/sim/faults':
      simulator.setFaults(fields as Partial<ApiFaults>);
      return { ok: true };
    case '/sim/webhooks': {
      const faults: Partial<RappiWebhookFaults> = {};
      for (const name of ['twice', 'never', 'outOfOrder'] as const)
        if (fields[name] !== undefined) faults[name] = whole(fields, name, 0, 0);
      simulator.webhooks.faults = { ...simulator.webhooks.faults, ...faults };
      return { ok: true };
    }
    case '/sim/clock':
      simulator.advanceClock(whole(fields, 'advanceMs', 0, 0));
      return { ok: true, now: new Date(simulator.now()).toISOString() };
    case '/sim/reset':
      simulator.reset();
      return { ok: true };
    default:
      throw notFound('unknown control');
  }
}

function text(fields: Record<string, unknown>, name: string, fallback: string): string {
  const value = fields[name] ?? fallback;
  if (typeof value !== 'string') throw badRequest(`${name} must be a string`);
  return value;
}

function whole(fields: Record<string, unknown>, name: string, fallback: number, minimum: number): number {
  const value = fields[name] ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum)
    throw badRequest(`${name} must be a whole number ≥ ${minimum}`);
  return value;
}

function price(fields: Record<string, unknown>): number {
  const value = fields.price ?? 0;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw badRequest('price must be an amount in pesos ≥ 0');
  return value;
}

function readTopping(value: unknown): Topping {
  if (!isObject(value)) throw badRequest('each topping must be an object');
  const sku = text(value, 'sku', '');
  if (sku === '') throw badRequest('each topping needs a sku');
  return {
    sku,
    name: text(value, 'name', `Topping ${sku}`),
    price: price(value),
    quantity: whole(value, 'quantity', 1, 1),
  };
}

function readProduct(value: unknown): Product {
  if (!isObject(value)) throw badRequest('each product must be an object');
  const sku = text(value, 'sku', '');
  if (sku === '') throw badRequest('each product needs a sku');
  const toppings = value.toppings ?? [];
  if (!Array.isArray(toppings)) throw badRequest('toppings must be a list');
  return {
    sku,
    name: text(value, 'name', `Product ${sku}`),
    price: price(value),
    quantity: whole(value, 'quantity', 1, 1),
    comments: text(value, 'comments', ''),
    toppings: toppings.map(readTopping),
  };
}

export function readNewOrder(fields: Record<string, unknown>): NewRappiOrder {
  const products = fields.products;
  if (!Array.isArray(products) || products.length === 0) throw badRequest('products must list at least one');
  const customer = fields.customer ?? {};
  if (!isObject(customer)) throw badRequest('customer must be an object');
  const cookingTime = whole(fields, 'cooking_time', 15, 1);
  const minCookingTime = whole(fields, 'min_cooking_time', 5, 1);
  const maxCookingTime = whole(fields, 'max_cooking_time', 60, minCookingTime);
  if (cookingTime < minCookingTime || cookingTime > maxCookingTime)
    throw badRequest('cooking_time must lie between min_cooking_time and max_cooking_time');
  return {
    cookingTime,
    minCookingTime,
    maxCookingTime,
    customer: {
      firstName: text(customer, 'first_name', 'Cliente'),
      lastName: text(customer, 'last_name', ''),
      phone: text(customer, 'phone', ''),
    },
    products: products.map(readProduct),
  };
}
