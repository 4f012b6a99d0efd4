import { mergeApiFaults, mergeWebhookFaults } from './faults';
import { type PlaceOrder, RappiError, type SimOrder } from './model';
import type { Answer } from './routes';
import type { RappiSimulator } from './simulator';

/**
 * The simulator's own controls, JSON in and out, no token (it listens on loopback):
 *
 *   POST /sim/orders               PlaceOrder (items by SKU with toppings and comments, client)  a customer orders
 *   POST /sim/orders/{id}/cancel   { event? = "cancel_by_user" }      Rappi cancels; ORDER_EVENT_CANCEL is sent
 *   GET  /sim/orders/{id}          what the store did with it: status, cooking time taken, rejection
 *   GET  /sim/state                every store (on/off, items and toppings turned off) and order
 *   GET  /sim/deliveries           every webhook attempt: event, url, attempt, status, body, signature
 *   POST /sim/faults               { fail5xx?, slow?, delayMs?, loseAnswer?, only? }   the next API calls
 *   POST /sim/webhook-faults       { twice?, outOfOrder?, never? }    the next webhook events
 *   POST /sim/clock                { advanceMs }                      moves the platform's time forward
 */
export async function handleControl(
  simulator: RappiSimulator,
  method: string,
  path: string,
  body: unknown,
): Promise<Answer> {
  const input = (body ?? {}) as Record<string, unknown>;
  const { platform } = simulator;
  const orderPath = /^\/sim\/orders\/([^/]+)(\/cancel)?$/.exec(path);
  if (method === 'POST' && path === '/sim/orders') {
    const order = platform.place(input as PlaceOrder);
    return {
      status: 201,
      json: { order_id: order.orderId, status: order.status, order: platform.json(order) },
    };
  }
  if (orderPath && method === 'POST' && orderPath[2]) {
    const event = typeof input.event === 'string' ? input.event : 'cancel_by_user';
    // Not awaited: a webhook held back to arrive out of order would otherwise hold this answer too.
    void platform.cancel(orderPath[1] ?? '', event);
    return { status: 200, json: { order_id: orderPath[1], event } };
  }
  if (orderPath && method === 'GET' && !orderPath[2]) {
    platform.sweep();
    const order = platform.orders.get(orderPath[1] ?? '');
    if (!order) throw new RappiError(404, `Order ${orderPath[1]} not found`);
    return { status: 200, json: orderState(order) };
  }
  if (method === 'GET' && path === '/sim/state') {
    platform.sweep();
    return {
      status: 200,
      json: {
        stores: platform.stores.map((store) => ({
          id: store.id,
          integration_id: store.integrationId,
          enabled: store.enabled,
          unavailable_products: [...store.unavailable.products],
          unavailable_toppings: [...store.unavailable.toppings],
        })),
        orders: [...platform.orders.values()].map(orderState),
      },
    };
  }
  if (method === 'GET' && path === '/sim/deliveries') {
    await simulator.hub.settled();
    return { status: 200, json: simulator.hub.deliveries };
  }
  if (method === 'POST' && path === '/sim/faults') {
    simulator.faults = asBadRequest(() => mergeApiFaults(simulator.faults, input));
    return { status: 200, json: simulator.faults };
  }
  if (method === 'POST' && path === '/sim/webhook-faults') {
    simulator.hub.faults = asBadRequest(() => mergeWebhookFaults(simulator.hub.faults, input));
    return { status: 200, json: simulator.hub.faults };
  }
  if (method === 'POST' && path === '/sim/clock') {
    const advanceMs = input.advanceMs;
    if (typeof advanceMs !== 'number' || !Number.isFinite(advanceMs) || advanceMs < 0) {
      throw new RappiError(400, 'advanceMs must be a number ≥ 0');
    }
    simulator.advance(advanceMs);
    platform.sweep();
    return { status: 200, json: { now: new Date(simulator.now()).toISOString() } };
  }
  throw new RappiError(404, 'Unknown simulator control');
}

/** A malformed fault setting is the caller's mistake, answered 400 rather than 500. */
function asBadRequest<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    throw new RappiError(400, error instanceof Error ? error.message : String(error));
  }
}

function orderState(order: SimOrder) {
  return {
    order_id: order.orderId,
    store_id: order.storeId,
    status: order.status,
    cooking_time: order.takenCookingTime ?? null,
    rejection: order.rejection
      ? {
          cancel_type: order.rejection.cancelType,
          reason: order.rejection.reason,
          items_skus: order.rejection.itemSkus,
        }
      : null,
    cancel_event: order.cancelEvent ?? null,
    history: order.history.map((step) => ({ status: step.status, at: new Date(step.at).toISOString() })),
  };
}
