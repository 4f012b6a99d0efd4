import { type Selectable, sql } from 'kysely';
import type { Principal } from '../core/auth-guard';
import type { Db } from '../core/db/database';
import { forUpdate } from '../core/db/locks';
import { prepared } from '../core/db/prepared';
import type { Database } from '../core/db/schema';
import { TICKET_STATUS } from '../core/db/ticket-status';

/*
 * What an order knows of its bills: the order's rules (no dish removed once billed, no reassigning or
 * moving an order with money on it) read them here, and the bills feature above reads the same.
 */

export type BillRow = Selectable<Database['tickets']>;

/**
 * Before an order is cancelled or deleted, its bills are cancelled with it or the change is refused
 * (a paid bill, a payable invoice): that is the bills feature's rule, a layer above, so buildApp hands
 * it to the orders routes (a port) instead of orders importing it. The caller holds the order's lock.
 */
export type CancelBillsOfOrder = (
  trx: Db,
  principal: Principal,
  orderId: string,
  now: number,
) => Promise<void>;

const liveOrderOfBillLocked = prepared((db, { ticketId }: { ticketId: string }) =>
  forUpdate(
    db,
    db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', (eb) =>
        eb.selectFrom('tickets').select('tickets.order_id').where('tickets.id', '=', ticketId),
      )
      .where('is_deleted', '=', sql.lit(0)),
  ),
);

/**
 * Locks the live order a bill belongs to, found through the bill in the same statement: every writer
 * of a bill takes its order's lock first, and this saves reading the bill once more to learn which.
 */
export function lockLiveOrderOfBill(
  db: Db,
  ticketId: string,
): Promise<Selectable<Database['orders']> | undefined> {
  return liveOrderOfBillLocked.first(db, { ticketId });
}

const billedDishIds = prepared((db, { orderId }: { orderId: string }) =>
  db
    .selectFrom('ticket_dishes')
    .innerJoin('order_dishes', 'order_dishes.id', 'ticket_dishes.order_dish_id')
    .select('ticket_dishes.order_dish_id')
    .where('order_dishes.order_id', '=', orderId)
    // Written into the SQL, not bound, so the partial index on live links is usable (order-dishes.repo.ts).
    .where('ticket_dishes.is_live', '=', sql.lit(1)),
);

/** The ids among the order's dishes that a live bill covers. */
export async function findBilledDishIds(db: Db, orderId: string): Promise<Set<string>> {
  const rows = await billedDishIds.all(db, { orderId });
  return new Set(rows.map((row) => row.order_dish_id));
}

const liveBillsOfOrder = prepared((db, { orderId }: { orderId: string }) =>
  db
    .selectFrom('tickets')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('status', '!=', sql.lit(TICKET_STATUS.canceled))
    .orderBy('created_at')
    .orderBy('id'),
);

/** The order's bills that are not cancelled, oldest first. */
export function findLiveTicketsOfOrder(db: Db, orderId: string): Promise<BillRow[]> {
  return liveBillsOfOrder.all(db, { orderId });
}
