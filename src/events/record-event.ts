import type { Db } from '../core/db/database';
import { insertEvent } from './events.repo';

/** The changes the live stream and outbound webhooks announce (contract-checkout.md, Events). */
export type EventType =
  | 'ticket.created'
  | 'ticket.paid'
  | 'ticket.canceled'
  | 'payment.pending'
  | 'payment.settled'
  | 'payment.expired'
  | 'payment.updated'
  | 'payment.failed'
  | 'payment.canceled'
  | 'payment.refunded'
  | 'fiscal.receipt_created'
  | 'fiscal.invoiced'
  | 'fiscal.failed'
  | 'fiscal.global_invoiced'
  | 'fiscal.canceled'
  | 'order.created'
  | 'order.updated'
  | 'order.deleted'
  | 'order.dishes_changed'
  | 'dish.status_changed'
  | 'dish.availability_changed'
  | 'modifier_group.created'
  | 'modifier_group.updated'
  | 'modifier_group.deleted'
  | 'stock.moved'
  | 'stock.low'
  | 'table.created'
  | 'table.updated'
  | 'table.deleted'
  | 'printer.status_changed';

/** Which stream topic (`GET /events?topics=`) each event belongs to. */
const TOPICS: Record<EventType, string> = {
  'ticket.created': 'tickets',
  'ticket.paid': 'tickets',
  'ticket.canceled': 'tickets',
  'payment.pending': 'payments',
  'payment.settled': 'payments',
  'payment.expired': 'payments',
  // A card-terminal charge: what the terminal does meanwhile, a declined card, a cancel.
  'payment.updated': 'payments',
  'payment.failed': 'payments',
  'payment.canceled': 'payments',
  'payment.refunded': 'payments',
  'fiscal.receipt_created': 'payments',
  'fiscal.invoiced': 'payments',
  'fiscal.failed': 'payments',
  'fiscal.global_invoiced': 'payments',
  'fiscal.canceled': 'payments',
  'order.created': 'orders',
  'order.updated': 'orders',
  'order.deleted': 'orders',
  'order.dishes_changed': 'orders',
  'dish.status_changed': 'kitchen',
  // The kitchen says it and the floor's tablets need it: the stream every screen of service follows.
  'dish.availability_changed': 'kitchen',
  // An option out or back is an 86 too: the order screens read the menu again on the same stream.
  'modifier_group.created': 'kitchen',
  'modifier_group.updated': 'kitchen',
  'modifier_group.deleted': 'kitchen',
  'stock.moved': 'inventory',
  'stock.low': 'inventory',
  'table.created': 'tables',
  'table.updated': 'tables',
  'table.deleted': 'tables',
  'printer.status_changed': 'printers',
};

/** Every event type, for the filters of outbound webhooks. */
export const EVENT_TYPES = Object.keys(TOPICS) as EventType[];

/**
 * Writes an event to the outbox inside the caller's transaction, so it is stored exactly when the
 * change commits and vanishes with it on a rollback. `data` is the record as its GET shows it.
 */
export async function recordEvent(
  trx: Db,
  event: { type: EventType; data: unknown; at: number },
): Promise<void> {
  await insertEvent(trx, {
    type: event.type,
    topic: TOPICS[event.type],
    payload: JSON.stringify({ type: event.type, at: event.at, data: event.data }),
    created_at: event.at,
  });
}
