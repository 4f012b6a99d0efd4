import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Db } from '../core/db/database';
import { forUpdate } from '../core/db/locks';
import { prepared } from '../core/db/prepared';
import type { Database } from '../core/db/schema';
import { TICKET_STATUS } from '../core/db/ticket-status';
import type { Page } from '../core/paging';
import type { TicketFilter } from './tickets.schemas';

export type TicketRow = Selectable<Database['tickets']>;
/** A bill with the order dishes it covers (for a cancelled bill, the ones it covered). */
export type TicketWithDishes = TicketRow & { order_dish_ids: string[] };

const ticketById = prepared((db, { id }: { id: string }) =>
  db.selectFrom('tickets').selectAll().where('id', '=', id),
);

export function findTicket(db: Db, id: string): Promise<TicketRow | undefined> {
  return ticketById.first(db, { id });
}

const lockedTicket = prepared((db, { id }: { id: string }) =>
  forUpdate(db, db.selectFrom('tickets').selectAll().where('id', '=', id)),
);

/** Callers lock the bill's order first, so every writer of one order's bills queues in the same order. */
export function lockTicket(db: Db, id: string): Promise<TicketRow | undefined> {
  return lockedTicket.first(db, { id });
}

const newTicket = prepared((db, ticket: Insertable<Database['tickets']>) =>
  db.insertInto('tickets').values(ticket),
);

export async function insertTicket(db: Db, ticket: Insertable<Database['tickets']>): Promise<void> {
  await newTicket.run(db, ticket);
}

export async function updateTicket(
  db: Db,
  id: string,
  changes: Updateable<Database['tickets']>,
): Promise<void> {
  await db.updateTable('tickets').set(changes).where('id', '=', id).execute();
}

const newTicketDishes = prepared((db, { rows }: { rows: { ticket_id: string; order_dish_id: string }[] }) =>
  db.insertInto('ticket_dishes').values(rows),
);

export async function insertTicketDishes(db: Db, ticketId: string, orderDishIds: string[]): Promise<void> {
  if (orderDishIds.length === 0) return;
  const rows = orderDishIds.map((orderDishId) => ({ ticket_id: ticketId, order_dish_id: orderDishId }));
  await newTicketDishes.run(db, { rows });
}

/** A cancelled bill keeps its links for the record; only live links hold a dish. */
export async function releaseTicketDishes(db: Db, ticketId: string): Promise<void> {
  await db.updateTable('ticket_dishes').set({ is_live: 0 }).where('ticket_id', '=', ticketId).execute();
}

const orderBilledChange = prepared(
  (
    db,
    {
      orderId,
      cents,
      discountCents,
      now,
    }: { orderId: string; cents: number; discountCents: number; now: number },
  ) =>
    db
      .updateTable('orders')
      .set({
        billed_cents: sql`billed_cents + ${cents}`,
        discount_cents: sql`discount_cents + ${discountCents}`,
        updated_at: now,
      })
      .where('id', '=', orderId),
);

/**
 * Adds a bill's subtotal and discount to (or, negative, takes them from) the order's billed and
 * discounted sums; the order row is already locked.
 */
export async function addToOrderBilled(
  db: Db,
  orderId: string,
  change: { subtotalCents: number; discountCents: number },
  now: number,
): Promise<void> {
  await orderBilledChange.run(db, {
    orderId,
    cents: change.subtotalCents,
    discountCents: change.discountCents,
    now,
  });
}

const refundedAfterSale = prepared((db, { orderId }: { orderId: string }) =>
  db
    .updateTable('orders')
    .set({
      refunded_after_sale_cents: sql<number>`(
        select coalesce(sum(case when t.total_cents > t.paid_cents then t.total_cents - t.paid_cents else 0 end), 0)
        from tickets t where t.order_id = ${orderId} and t.status = ${TICKET_STATUS.paid}
      )`,
    })
    .where('id', '=', orderId),
);

/**
 * Stores what the order's Paid bills fall short of their totals: money refunds gave back after the
 * sale, which the order's balance does not ask for again. Run after any change to a bill's money or
 * status; the order row is already locked.
 */
export async function refreshRefundedAfterSale(db: Db, orderId: string): Promise<void> {
  await refundedAfterSale.run(db, { orderId });
}

const payableInvoice = prepared((db, { ticketId, now }: { ticketId: string; now: number }) =>
  db
    .selectFrom('payments')
    .select('id')
    .where('ticket_id', '=', ticketId)
    .where('method', '=', sql.lit('lightning'))
    .where('status', '=', sql.lit('pending'))
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .limit(1),
);

/**
 * Whether a Lightning invoice of the bill can still be paid: pending and not past its expiry, or a
 * reservation whose invoice the node is making right now (no expiry yet).
 */
export async function hasPayableInvoice(db: Db, ticketId: string, now: number): Promise<boolean> {
  return (await payableInvoice.first(db, { ticketId, now })) !== undefined;
}

const dishLinksOfTickets = prepared((db, { ticketIds }: { ticketIds: string[] }) =>
  db
    .selectFrom('ticket_dishes')
    .innerJoin('order_dishes', 'order_dishes.id', 'ticket_dishes.order_dish_id')
    .select(['ticket_dishes.ticket_id', 'ticket_dishes.order_dish_id'])
    .where('ticket_dishes.ticket_id', 'in', ticketIds)
    .orderBy('order_dishes.created_at')
    .orderBy('order_dishes.ordinal')
    .orderBy('order_dishes.id'),
);

export async function withDishes(db: Db, tickets: TicketRow[]): Promise<TicketWithDishes[]> {
  if (tickets.length === 0) return [];
  const links = await dishLinksOfTickets.all(db, { ticketIds: tickets.map((ticket) => ticket.id) });
  return tickets.map((ticket) => ({
    ...ticket,
    order_dish_ids: links.filter((link) => link.ticket_id === ticket.id).map((link) => link.order_dish_id),
  }));
}

export function findTicketsOfOrder(db: Db, orderId: string): Promise<TicketRow[]> {
  return db
    .selectFrom('tickets')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

function filteredTickets(db: Db, filter: TicketFilter) {
  let query = db.selectFrom('tickets');
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.orderId !== undefined) query = query.where('order_id', '=', filter.orderId);
  if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('created_at', '<=', filter.to);
  return query;
}

/** Newest first; the id breaks ties within a millisecond, so pages never overlap. */
export function listTickets(db: Db, filter: TicketFilter, page: Page): Promise<TicketRow[]> {
  return filteredTickets(db, filter)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countTickets(db: Db, filter: TicketFilter): Promise<number> {
  const row = await filteredTickets(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
