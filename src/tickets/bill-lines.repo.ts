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
 * The bill's plates in the order they were ordered, with the options chosen for each (grouped into
 * lines by the service). A cancelled bill keeps its links (no longer live), so its receipt still shows
 * what it covered. The SAT product keys of the dish and of its category are for its e-invoice.
 */
export function findBillPlates(db: Db, ticketId: string) {
  return db
    .selectFrom('ticket_dishes')
    .innerJoin('order_dishes', 'order_dishes.id', 'ticket_dishes.order_dish_id')
    .innerJoin('dishes', 'dishes.id', 'order_dishes.dish_id')
    .innerJoin('categories', 'categories.id', 'dishes.category_id')
    .select([
      'order_dishes.id',
      'dishes.id as dish_id',
      'dishes.name',
      'order_dishes.price_at_order_cents as price_cents',
      'order_dishes.seat',
      'order_dishes.status',
      'dishes.product_key as dish_product_key',
      'categories.product_key as category_product_key',
    ])
    .where('ticket_dishes.ticket_id', '=', ticketId)
    .orderBy('order_dishes.created_at')
    .orderBy('order_dishes.ordinal')
    .orderBy('order_dishes.id')
    .execute();
}

/** The options of the bill's plates, each plate's in order. */
export function findBillModifiers(db: Db, ticketId: string) {
  return db
    .selectFrom('ticket_dishes')
    .innerJoin('order_dish_modifiers', 'order_dish_modifiers.order_dish_id', 'ticket_dishes.order_dish_id')
    .select([
      'order_dish_modifiers.order_dish_id',
      'order_dish_modifiers.name',
      'order_dish_modifiers.price_delta_cents',
    ])
    .where('ticket_dishes.ticket_id', '=', ticketId)
    .orderBy('order_dish_modifiers.order_dish_id')
    .orderBy('order_dish_modifiers.position')
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
      'payments.tendered_cents',
      'payments.change_cents',
      'payments.refunded_cents',
      'payments.amount_sat',
      'payments.rate',
    ])
    .where('payments.ticket_id', '=', ticketId)
    .where('payments.status', 'in', ['settled', 'refunded', 'partially_refunded'])
    .orderBy('payments.created_at')
    .orderBy('payments.id')
    .execute();
}
