import { sql } from 'kysely';
import type { Db } from '../core/db/database';
import { TICKET_STATUS } from '../core/db/ticket-status';

/** A group of voids or discounts: how many, and the money they took off, in cents. */
type Totals = { count: number | string; amount_cents: number | string | null };
export type ByReasonRow = Totals & { reason: string | null };
export type ByPersonRow = Totals & {
  user_id: string | null;
  user_name: string | null;
  approved_by_id: string | null;
  approved_by_name: string | null;
};
export type AdjustmentRows = { byReason: ByReasonRow[]; byPerson: ByPersonRow[] };

type Range = { from: number; to: number };

/** The plates voided in [from, to) on orders not deleted, at their price, by reason and by who voided and approved. */
export async function dayVoids(db: Db, range: Range): Promise<AdjustmentRows> {
  const voided = db
    .selectFrom('order_dishes')
    .innerJoin('orders', 'orders.id', 'order_dishes.order_id')
    .where('order_dishes.status', '=', 'voided')
    .where('order_dishes.voided_at', '>=', range.from)
    .where('order_dishes.voided_at', '<', range.to)
    .where('orders.is_deleted', '=', sql.lit(0));
  const [byReason, byPerson] = await Promise.all([
    voided
      .select((eb) => [
        'order_dishes.void_reason as reason',
        eb.fn.countAll<number>().as('count'),
        eb.fn.sum<number>('order_dishes.price_at_order_cents').as('amount_cents'),
      ])
      .groupBy('order_dishes.void_reason')
      .execute(),
    voided
      .leftJoin('users as doer', 'doer.id', 'order_dishes.voided_by')
      .leftJoin('users as approver', 'approver.id', 'order_dishes.voided_approved_by')
      .select((eb) => [
        'order_dishes.voided_by as user_id',
        'doer.name as user_name',
        'order_dishes.voided_approved_by as approved_by_id',
        'approver.name as approved_by_name',
        eb.fn.countAll<number>().as('count'),
        eb.fn.sum<number>('order_dishes.price_at_order_cents').as('amount_cents'),
      ])
      .groupBy(['order_dishes.voided_by', 'doer.name', 'order_dishes.voided_approved_by', 'approver.name'])
      .execute(),
  ]);
  return { byReason, byPerson };
}

/**
 * The live bills (pending or paid) made in [from, to) with a discount: the comps (discounted to
 * nothing) or the others, at the amount discounted, by reason and by who billed and who approved.
 */
export async function dayDiscounts(db: Db, range: Range, kind: 'comps' | 'others'): Promise<AdjustmentRows> {
  const discounted = db
    .selectFrom('tickets')
    .where('tickets.status', '!=', TICKET_STATUS.canceled)
    .where('tickets.created_at', '>=', range.from)
    .where('tickets.created_at', '<', range.to)
    // A literal: SQLite sees that it is tickets_discounted_created's condition, a parameter it cannot.
    .where('tickets.discount_cents', '>', sql.lit(0))
    .where((eb) =>
      kind === 'comps'
        ? eb('tickets.discount_cents', '=', eb.ref('tickets.subtotal_cents'))
        : eb('tickets.discount_cents', '<', eb.ref('tickets.subtotal_cents')),
    );
  const [byReason, byPerson] = await Promise.all([
    discounted
      .select((eb) => [
        'tickets.discount_reason as reason',
        eb.fn.countAll<number>().as('count'),
        eb.fn.sum<number>('tickets.discount_cents').as('amount_cents'),
      ])
      .groupBy('tickets.discount_reason')
      .execute(),
    discounted
      .leftJoin('users as doer', 'doer.id', 'tickets.created_by')
      .leftJoin('users as approver', 'approver.id', 'tickets.discount_approved_by')
      .select((eb) => [
        'tickets.created_by as user_id',
        'doer.name as user_name',
        'tickets.discount_approved_by as approved_by_id',
        'approver.name as approved_by_name',
        eb.fn.countAll<number>().as('count'),
        eb.fn.sum<number>('tickets.discount_cents').as('amount_cents'),
      ])
      .groupBy(['tickets.created_by', 'doer.name', 'tickets.discount_approved_by', 'approver.name'])
      .execute(),
  ]);
  return { byReason, byPerson };
}
