import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../core/db/database';
import { prepared } from '../core/db/prepared';
import type { Database } from '../core/db/schema';
import { TICKET_STATUS } from '../core/db/ticket-status';
import type { OrderRow } from '../orders/orders.api';
import { refreshRefundedAfterSale, type TicketRow } from '../tickets/tickets.api';

export type PaymentRow = Selectable<Database['payments']>;
export type PaymentMethodRow = Selectable<Database['payment_methods']>;

const paymentById = prepared((db, { id }: { id: string }) =>
  db.selectFrom('payments').selectAll().where('id', '=', id),
);

export function findPayment(db: Db, id: string): Promise<PaymentRow | undefined> {
  return paymentById.first(db, { id });
}

export function findPaymentsOfTicket(db: Db, ticketId: string): Promise<PaymentRow[]> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('ticket_id', '=', ticketId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

const newPayment = prepared((db, payment: Insertable<Database['payments']>) =>
  db.insertInto('payments').values(payment).returningAll(),
);

/** The stored row, with the columns the database filled in. */
export function insertPayment(db: Db, payment: Insertable<Database['payments']>): Promise<PaymentRow> {
  return newPayment.one(db, payment);
}

type SettledMoney = { id: string; orderId: string; amountCents: number; tipCents: number; now: number };

const ticketSettled = prepared((db, { id, amountCents, tipCents, now }: SettledMoney) =>
  db
    .updateTable('tickets')
    .set({
      paid_cents: sql`paid_cents + ${amountCents}`,
      tips_cents: sql`tips_cents + ${tipCents}`,
      status: sql`case when status = 1 and paid_cents + ${amountCents} >= total_cents then 2 else status end`,
      paid_at: sql`case when status = 1 and paid_cents + ${amountCents} >= total_cents then ${now} else paid_at end`,
      updated_at: now,
    })
    .where('id', '=', id)
    .returningAll(),
);

const orderSettled = prepared((db, { orderId, amountCents, now }: SettledMoney) =>
  db
    .updateTable('orders')
    .set({ paid_cents: sql`paid_cents + ${amountCents}`, updated_at: now })
    .where('id', '=', orderId)
    .returningAll(),
);

/**
 * Moves settled money onto the bill and its order, and answers both rows as they now stand; the
 * caller holds both rows' locks. A bill whose balance reaches 0 becomes Paid in the same statement.
 * What refunds gave back after the sale counts only Paid bills short of their total: money reaching
 * a bill that was not Paid leaves it either not Paid or paid in full, so only money reaching a bill
 * that already was (a Lightning payment settling late) can change it.
 */
export async function addSettledToTicket(
  db: Db,
  ticket: Pick<TicketRow, 'id' | 'order_id' | 'status'>,
  amounts: { amountCents: number; tipCents: number },
  now: number,
): Promise<{ ticket: TicketRow; order: OrderRow }> {
  const money = { id: ticket.id, orderId: ticket.order_id, ...amounts, now };
  const settledTicket = await ticketSettled.one(db, money);
  const order = await orderSettled.one(db, money);
  if (Number(ticket.status) === TICKET_STATUS.paid) await refreshRefundedAfterSale(db, ticket.order_id);
  return { ticket: settledTicket, order };
}

export function listPaymentMethods(db: Db): Promise<PaymentMethodRow[]> {
  return db.selectFrom('payment_methods').selectAll().orderBy('created_at').orderBy('code').execute();
}

const paymentMethodByCode = prepared((db, { code }: { code: string }) =>
  db.selectFrom('payment_methods').selectAll().where('code', '=', code),
);

export function findPaymentMethodByCode(db: Db, code: string): Promise<PaymentMethodRow | undefined> {
  return paymentMethodByCode.first(db, { code });
}

export async function insertPaymentMethod(
  db: Db,
  method: Insertable<Database['payment_methods']>,
): Promise<void> {
  await db.insertInto('payment_methods').values(method).execute();
}

/** False when there is no such method. */
export async function updatePaymentMethod(
  db: Db,
  id: string,
  changes: { name?: string; is_active?: number; updated_at: number },
): Promise<boolean> {
  const result = await db.updateTable('payment_methods').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function insertRefund(db: Db, refund: Insertable<Database['refunds']>): Promise<void> {
  await db.insertInto('refunds').values(refund).execute();
}

/**
 * Takes a refund off the payment, its bill and its order; the caller holds the order's lock. A bill
 * keeps its status: a Paid bill refunded in full stays Paid with `paid` 0, as the contract says.
 */
export async function subtractRefund(
  db: Db,
  payment: { id: string; ticketId: string; orderId: string },
  refund: { cents: number; status: 'refunded' | 'partially_refunded' },
  now: number,
): Promise<void> {
  const { cents, status } = refund;
  await db
    .updateTable('payments')
    .set({ refunded_cents: sql`refunded_cents + ${cents}`, status })
    .where('id', '=', payment.id)
    .execute();
  await db
    .updateTable('tickets')
    .set({ paid_cents: sql`paid_cents - ${cents}`, updated_at: now })
    .where('id', '=', payment.ticketId)
    .execute();
  await db
    .updateTable('orders')
    .set({ paid_cents: sql`paid_cents - ${cents}`, updated_at: now })
    .where('id', '=', payment.orderId)
    .execute();
  await refreshRefundedAfterSale(db, payment.orderId);
}

/** A refund whose money never left: the payment, its bill and its order get it back. */
export async function undoRefund(
  db: Db,
  refund: { id: string; paymentId: string; ticketId: string; orderId: string; cents: number },
  now: number,
): Promise<void> {
  const { cents } = refund;
  await db.deleteFrom('refunds').where('id', '=', refund.id).execute();
  await db
    .updateTable('payments')
    .set({
      refunded_cents: sql`refunded_cents - ${cents}`,
      status: sql`case when refunded_cents - ${cents} = 0 then 'settled' else 'partially_refunded' end`,
    })
    .where('id', '=', refund.paymentId)
    .execute();
  await db
    .updateTable('tickets')
    .set({ paid_cents: sql`paid_cents + ${cents}`, updated_at: now })
    .where('id', '=', refund.ticketId)
    .execute();
  await db
    .updateTable('orders')
    .set({ paid_cents: sql`paid_cents + ${cents}`, updated_at: now })
    .where('id', '=', refund.orderId)
    .execute();
  await refreshRefundedAfterSale(db, refund.orderId);
}

export async function completeLightningRefund(
  db: Db,
  id: string,
  sent: { nodePaymentId: string; paymentHash: string; feesSat: number },
): Promise<void> {
  await db
    .updateTable('refunds')
    .set({ node_payment_id: sent.nodePaymentId, payment_hash: sent.paymentHash, fees_sat: sent.feesSat })
    .where('id', '=', id)
    .execute();
}
