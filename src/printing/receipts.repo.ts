import { sql } from 'kysely';
import type { Db } from '../core/db/database';

/** The bill with what its header names: its order's waiter and table. */
export function findBillHeader(db: Db, ticketId: string) {
  return db
    .selectFrom('tickets')
    .innerJoin('orders', 'orders.id', 'tickets.order_id')
    .leftJoin('dining_tables', 'dining_tables.id', 'orders.table_id')
    .selectAll('tickets')
    .select(['orders.waiter', 'dining_tables.name as table_name'])
    .where('tickets.id', '=', ticketId)
    .executeTakeFirst();
}

/**
 * The bill's dishes grouped by dish and price, in the order they were first ordered. A cancelled bill
 * keeps its links (no longer live), so its receipt still shows what it covered.
 */
export function findBillLines(db: Db, ticketId: string) {
  return db
    .selectFrom('ticket_dishes')
    .innerJoin('order_dishes', 'order_dishes.id', 'ticket_dishes.order_dish_id')
    .innerJoin('dishes', 'dishes.id', 'order_dishes.dish_id')
    .select([
      'dishes.name',
      'order_dishes.price_at_order_cents as price_cents',
      sql<number>`count(*)`.as('quantity'),
      sql<number>`min(order_dishes.created_at)`.as('first_at'),
    ])
    .where('ticket_dishes.ticket_id', '=', ticketId)
    .groupBy(['dishes.id', 'dishes.name', 'order_dishes.price_at_order_cents'])
    .orderBy('first_at')
    .orderBy('dishes.name')
    .execute();
}

/** Money that reached the bill (pending and expired Lightning invoices never did), with method names. */
export function findBillPayments(db: Db, ticketId: string) {
  return db
    .selectFrom('payments')
    .leftJoin('payment_methods', 'payment_methods.code', 'payments.method')
    .select([
      'payments.method',
      'payment_methods.name as method_name',
      'payments.amount_cents',
      'payments.tip_cents',
      'payments.change_cents',
      'payments.refunded_cents',
      'payments.amount_sat',
      'payments.received_sat',
      'payments.rate',
    ])
    .where('payments.ticket_id', '=', ticketId)
    .where('payments.status', 'in', ['settled', 'refunded', 'partially_refunded'])
    .orderBy('payments.created_at')
    .orderBy('payments.id')
    .execute();
}
