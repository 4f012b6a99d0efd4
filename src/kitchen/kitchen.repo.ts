import { sql } from 'kysely';
import type { Db } from '../core/db/database';
import { prepared } from '../core/db/prepared';
import type { DishStatus } from '../core/db/schema';

/** Marks the pending dishes of the order sent, those of one course when given; returns how many moved. */
export function sendPendingDishes(
  db: Db,
  orderId: string,
  course: number | undefined,
  now: number,
): Promise<number> {
  return sendPending.run(db, { orderId, course, now });
}

const sendPending = prepared((db, p: { orderId: string; course: number | undefined; now: number }) => {
  let query = db
    .updateTable('order_dishes')
    .set({ status: 'sent', sent_at: p.now })
    .where('order_id', '=', p.orderId)
    .where('status', '=', 'pending');
  if (p.course !== undefined) query = query.where('course', '=', p.course);
  return query;
});

/**
 * Moves the dish only if it is still in `from`: of two screens that read the same state, the one
 * whose update lands second changes nothing and is told so.
 */
export async function moveDish(
  db: Db,
  move: {
    orderId: string;
    id: string;
    from: DishStatus;
    to: DishStatus;
    now: number;
    reason?: string | undefined;
    /** Who moved it, and the manager who approved a void the mover's role does not allow. */
    by: { userId: string; approvedBy: string | null };
  },
): Promise<boolean> {
  const result = await db
    .updateTable('order_dishes')
    .set({
      status: move.to,
      ...(move.to === 'sent' && { sent_at: move.now }),
      ...(move.to === 'ready' && { ready_at: move.now }),
      ...(move.to === 'voided' && {
        void_reason: move.reason ?? null,
        voided_at: move.now,
        voided_by: move.by.userId,
        voided_approved_by: move.by.approvedBy,
      }),
    })
    .where('id', '=', move.id)
    .where('order_id', '=', move.orderId)
    .where('status', '=', move.from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export type QueueRow = {
  id: string;
  order_id: string;
  status: DishStatus;
  notes: string;
  sent_at: number;
  dish_id: string;
  dish_name: string;
  station: string;
  table_name: string | null;
  waiter: string;
  seat: number | null;
  course: number;
  channel: string;
  channel_code: string | null;
  customer_first_name: string | null;
  pickup_at: number | null;
};

/**
 * Dishes a kitchen screen shows: sent, preparing or ready, of live orders, oldest first. A delivery
 * order's plates go by when its courier comes (`pickup_at`) rather than when they were sent, so the
 * one due first is made first.
 */
export async function listQueue(db: Db, station: string | undefined, limit: number): Promise<QueueRow[]> {
  let query = db
    .selectFrom('order_dishes')
    .innerJoin('orders', 'orders.id', 'order_dishes.order_id')
    .innerJoin('dishes', 'dishes.id', 'order_dishes.dish_id')
    .innerJoin('categories', 'categories.id', 'dishes.category_id')
    .leftJoin('dining_tables', 'dining_tables.id', 'orders.table_id')
    .select([
      'order_dishes.id',
      'order_dishes.order_id',
      'order_dishes.status',
      'order_dishes.notes',
      'order_dishes.sent_at',
      'order_dishes.dish_id',
      'dishes.name as dish_name',
      'categories.station',
      'dining_tables.name as table_name',
      'orders.waiter',
      'order_dishes.seat',
      'order_dishes.course',
      'orders.channel',
      'orders.channel_code',
      'orders.customer_first_name',
      'orders.pickup_at',
    ])
    .where('order_dishes.status', 'in', ['sent', 'preparing', 'ready'])
    .where('orders.is_deleted', '=', sql.lit(0));
  if (station !== undefined) query = query.where('categories.station', '=', station);
  const rows = await query
    .orderBy(sql`coalesce(orders.pickup_at, order_dishes.sent_at)`)
    .orderBy('order_dishes.sent_at')
    .orderBy('order_dishes.ordinal')
    .orderBy('order_dishes.id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    ...row,
    sent_at: Number(row.sent_at),
    seat: row.seat === null ? null : Number(row.seat),
    course: Number(row.course),
    pickup_at: row.pickup_at === null ? null : Number(row.pickup_at),
  }));
}
