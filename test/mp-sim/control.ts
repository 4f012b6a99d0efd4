import type { DeliveryFaults } from '../helpers/webhook-delivery';
import { badRequest, isObject, notFound } from './errors';
import type { ApiFaults } from './faults';
import type { Card, PointOrder } from './point';
import type { MercadoPagoSimulator } from './simulator';

/**
 * The simulator's own controls, JSON in and out, no token (it listens on loopback); tests in this
 * process may call the class instead. What happens at a terminal acts on the order it is busy with.
 *
 *   GET  /sim/state                              terminals (and the order each is busy with), orders with
 *                                                their history, payments, notifications, faults, requests
 *   GET  /sim/notifications                      every notification POST (waits for those under way)
 *   POST /sim/terminals/{id}/show                the terminal shows its order (created → at_terminal)
 *   POST /sim/terminals/{id}/tap                 { brand? = "visa", type? = "credit"|"debit",
 *                                                  last_four? = "4242", first_six?, installments? = 1 }
 *                                                the card is approved: processed, a Payments-API payment
 *   POST /sim/terminals/{id}/decline             { reason? = "rejected_by_issuer" }   failed
 *   POST /sim/terminals/{id}/action-required     still working after 40 s: action_required
 *   POST /sim/terminals/{id}/cancel              canceled on the terminal itself
 *   POST /sim/terminals/{id}/expire              the order expires now
 *   POST /sim/orders/{id}/refunds/{refund_id}    { status: "processed"|"failed" }   settle a refund now
 *   POST /sim/faults                             { fail5xx?, slow?, delayMs?, loseAnswer?, only? }  next API calls
 *   POST /sim/notifications                      { twice?, never?, outOfOrder? }   next notifications
 *   POST /sim/notifications/flush                send those held back by outOfOrder now
 *   POST /sim/notification-url                   { url }   where notifications go
 *   POST /sim/clock                              { advanceMs }   move the clock (expiry)
 *   POST /sim/reset                              forget orders, payments, keys, faults, deliveries; terminals back
 */
export async function handleControl(
  simulator: MercadoPagoSimulator,
  method: string,
  path: string,
  body: Record<string, unknown>,
): Promise<unknown> {
  if (method === 'GET' && path === '/sim/state') return simulator.snapshot();
  if (method === 'GET' && path === '/sim/notifications') {
    await simulator.notificationsSettled();
    return simulator.notifier.deliveries;
  }
  if (method !== 'POST') throw notFound('not_found', 'Unknown simulator control.');
  const { point } = simulator;
  const atTerminal = /^\/sim\/terminals\/([^/]+)\/(show|tap|decline|action-required|cancel|expire)$/.exec(
    path,
  );
  if (atTerminal) {
    const [, terminalId = '', action] = atTerminal;
    const order = busyOrder(simulator, decodeURIComponent(terminalId));
    switch (action) {
      case 'show':
        point.showOnTerminal(order);
        break;
      case 'tap': {
        const payment = point.approve(order, readCard(body));
        return { order: point.orderJson(order), payment: point.paymentJson(payment) };
      }
      case 'decline':
        point.decline(order, optionalString(body, 'reason') ?? 'rejected_by_issuer');
        break;
      case 'action-required':
        point.requireAction(order);
        break;
      case 'cancel':
        point.cancelOnTerminal(order);
        break;
      default:
        point.expire(order);
    }
    return { order: point.orderJson(order) };
  }
  const refund = /^\/sim\/orders\/([^/]+)\/refunds\/([^/]+)$/.exec(path);
  if (refund) {
    const status = body.status;
    if (status !== 'processed' && status !== 'failed')
      throw badRequest('invalid', 'status must be processed or failed');
    const order = point.settleRefund(refund[1] ?? '', refund[2] ?? '', status);
    return { order: point.orderJson(order) };
  }
  switch (path) {
    case '/sim/faults':
      simulator.setFaults(body as Partial<ApiFaults>);
      return { ok: true };
    case '/sim/notifications':
      simulator.setNotificationFaults(body as Partial<DeliveryFaults>);
      return { ok: true };
    case '/sim/notifications/flush':
      simulator.notifier.flush();
      return { ok: true };
    case '/sim/notification-url': {
      const url = optionalString(body, 'url');
      if (url === undefined || !URL.canParse(url)) throw badRequest('invalid', 'url must be a URL');
      simulator.notifier.url = url;
      return { ok: true };
    }
    case '/sim/clock': {
      const advanceMs = body.advanceMs;
      if (typeof advanceMs !== 'number' || !Number.isInteger(advanceMs) || advanceMs < 0)
        throw badRequest('invalid', 'advanceMs must be a whole number of milliseconds ≥ 0');
      simulator.advanceClock(advanceMs);
      return { ok: true, now: new Date(simulator.now()).toISOString() };
    }
    case '/sim/reset':
      simulator.reset();
      return { ok: true };
    default:
      throw notFound('not_found', 'Unknown simulator control.');
  }
}

function busyOrder(simulator: MercadoPagoSimulator, terminalId: string): PointOrder {
  simulator.point.terminal(terminalId);
  const order = simulator.point.openOrderOn(terminalId);
  if (!order) throw notFound('order_not_found', `Terminal ${terminalId} has no order waiting.`);
  return order;
}

const FIRST_SIX: Record<string, string> = {
  visa: '411111',
  master: '555555',
  amex: '378282',
  debvisa: '400000',
  debmaster: '520000',
};

/** The card tapped: brand as Mercado Pago names payment methods (visa, master, amex, debvisa …). */
export function readCard(body: Record<string, unknown>): Card {
  const brand = optionalString(body, 'brand') ?? 'visa';
  if (!/^[a-z_]{2,20}$/.test(brand))
    throw badRequest('invalid', 'brand must be a payment method id such as visa');
  const type = body.type ?? (brand.startsWith('deb') ? 'debit' : 'credit');
  if (type !== 'credit' && type !== 'debit') throw badRequest('invalid', 'type must be credit or debit');
  const lastFour = optionalString(body, 'last_four') ?? '4242';
  if (!/^\d{4}$/.test(lastFour)) throw badRequest('invalid', 'last_four must be four digits');
  const firstSix = optionalString(body, 'first_six') ?? FIRST_SIX[brand] ?? '400000';
  if (!/^\d{6}$/.test(firstSix)) throw badRequest('invalid', 'first_six must be six digits');
  const installments = body.installments ?? 1;
  if (typeof installments !== 'number' || !Number.isInteger(installments) || installments < 1)
    throw badRequest('invalid', 'installments must be a whole number ≥ 1');
  return { brand, type, lastFour, firstSix, installments };
}

function optionalString(body: Record<string, unknown>, name: string): string | undefined {
  if (!isObject(body)) return undefined;
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest('invalid', `${name} must be a string`);
  return value;
}
