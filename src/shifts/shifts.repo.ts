import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../core/db/database';
import { forShare, forUpdate } from '../core/db/locks';
import { prepared } from '../core/db/prepared';
import type { Database } from '../core/db/schema';
import { FACT_COVERS } from '../orders/orders.api';
import { liquidityFeeColumns } from './lightning-fees';

export type ShiftRow = Selectable<Database['shifts']> & { user_name: string };
export type MovementRow = Selectable<Database['shift_cash_movements']>;

/** Payments that count: settled, including those refunded since (their refunds are counted apart). */
export const COUNTED_PAYMENT_STATUSES = ['settled', 'partially_refunded', 'refunded'] as const;

export async function insertShift(db: Db, shift: Insertable<Database['shifts']>): Promise<void> {
  await db.insertInto('shifts').values(shift).execute();
}

function shiftsWithUser(db: Db) {
  return db
    .selectFrom('shifts')
    .innerJoin('users', 'users.id', 'shifts.user_id')
    .selectAll('shifts')
    .select('users.name as user_name');
}

export function findShift(db: Db, id: string): Promise<ShiftRow | undefined> {
  return shiftsWithUser(db).where('shifts.id', '=', id).executeTakeFirst();
}

export function findOpenShiftOf(db: Db, userId: string): Promise<ShiftRow | undefined> {
  return shiftsWithUser(db)
    .where('shifts.user_id', '=', userId)
    .where('shifts.closed_at', 'is', null)
    .executeTakeFirst();
}

/** The user's open shift, share-locked: a close waits for this transaction, or it sees no open shift. */
const openShiftIdOf = prepared((db, { userId }: { userId: string }) =>
  forShare(
    db,
    db.selectFrom('shifts').select('id').where('user_id', '=', userId).where('closed_at', 'is', null),
  ),
);

export async function lockOpenShiftIdOf(db: Db, userId: string): Promise<string | undefined> {
  return (await openShiftIdOf.first(db, { userId }))?.id;
}

export async function isAnyShiftOpen(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('shifts')
    .select('id')
    .where('closed_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Locks the shift row until commit, so no payment can attach to it while it closes. */
export async function lockShift(db: Db, id: string): Promise<Selectable<Database['shifts']> | undefined> {
  return forUpdate(db, db.selectFrom('shifts').selectAll().where('id', '=', id)).executeTakeFirst();
}

export type ShiftFilter = { userId?: string | undefined; from?: number | undefined; to?: number | undefined };

export function findShifts(
  db: Db,
  filter: ShiftFilter,
  page: { limit: number; offset: number },
): Promise<ShiftRow[]> {
  let query = shiftsWithUser(db);
  if (filter.userId !== undefined) query = query.where('shifts.user_id', '=', filter.userId);
  if (filter.from !== undefined) query = query.where('shifts.opened_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('shifts.opened_at', '<=', filter.to);
  return query
    .orderBy('shifts.opened_at', 'desc')
    .orderBy('shifts.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function insertMovement(
  db: Db,
  movement: Insertable<Database['shift_cash_movements']>,
): Promise<void> {
  await db.insertInto('shift_cash_movements').values(movement).execute();
}

export function findMovements(db: Db, shiftId: string): Promise<MovementRow[]> {
  return db
    .selectFrom('shift_cash_movements')
    .selectAll()
    .where('shift_id', '=', shiftId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function closeShift(
  db: Db,
  id: string,
  close: {
    closedAt: number;
    closedBy: string;
    countedCents: number;
    expectedCents: number;
    notes: string | null;
  },
): Promise<void> {
  await db
    .updateTable('shifts')
    .set({
      closed_at: close.closedAt,
      closed_by: close.closedBy,
      counted_cash_cents: close.countedCents,
      expected_cash_cents: close.expectedCents,
      notes: close.notes,
    })
    .where('id', '=', id)
    .execute();
}

/** What moved through the drawer: cash taken (amount + tip), cash given back, pay-ins minus pay-outs. */
export async function drawerTotals(
  db: Db,
  shiftId: string,
): Promise<{ cashInCents: number; cashRefundsCents: number; movementsCents: number }> {
  const [cashIn, cashRefunds, movements] = await Promise.all([
    db
      .selectFrom('payments')
      .select((eb) =>
        eb.fn
          .coalesce(eb.fn.sum<number>(eb('amount_cents', '+', eb.ref('tip_cents'))), eb.lit(0))
          .as('cents'),
      )
      .where('shift_id', '=', shiftId)
      .where('method', '=', 'cash')
      .where('status', 'in', COUNTED_PAYMENT_STATUSES)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('refunds')
      .innerJoin('payments', 'payments.id', 'refunds.payment_id')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('refunds.amount_cents'), eb.lit(0)).as('cents'))
      .where('refunds.shift_id', '=', shiftId)
      .where('payments.method', '=', 'cash')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('shift_cash_movements')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_cents'), eb.lit(0)).as('cents'))
      .where('shift_id', '=', shiftId)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    cashInCents: Number(cashIn.cents),
    cashRefundsCents: Number(cashRefunds.cents),
    movementsCents: Number(movements.cents),
  };
}

export type MethodTotalRow = {
  method: string;
  payments: number;
  amount_cents: number;
  tips_cents: number;
  sats: number;
  fees_msat: number;
  fees_msat_value: number;
};

/** The shift's counted payments by method, with the sats Lightning received and the fees it cost. */
export function paymentsByMethod(db: Db, shiftId: string): Promise<MethodTotalRow[]> {
  return db
    .selectFrom('payments')
    .select((eb) => [
      'method',
      eb.fn.countAll<number>().as('payments'),
      eb.fn.sum<number>('amount_cents').as('amount_cents'),
      eb.fn.sum<number>('tip_cents').as('tips_cents'),
      eb.fn.coalesce(eb.fn.sum<number>('received_sat'), eb.lit(0)).as('sats'),
      ...liquidityFeeColumns(),
    ])
    .where('shift_id', '=', shiftId)
    .where('status', 'in', COUNTED_PAYMENT_STATUSES)
    .groupBy('method')
    .orderBy('method')
    .execute();
}

/** A card whose brand the provider did not say is grouped as ''; a literal, so both databases group the same. */
const BRAND = sql<string>`coalesce(card_brand, '')`;

/** The shift's card-terminal payments by card brand, with the provider's fees. */
export function cardPaymentsByBrand(db: Db, shiftId: string) {
  return db
    .selectFrom('payments')
    .select((eb) => [
      BRAND.as('brand'),
      eb.fn.countAll<number>().as('payments'),
      eb.fn.sum<number>('amount_cents').as('amount_cents'),
      eb.fn.sum<number>('tip_cents').as('tips_cents'),
      eb.fn.coalesce(eb.fn.sum<number>('provider_fee_cents'), eb.lit(0)).as('fee_cents'),
    ])
    .where('shift_id', '=', shiftId)
    .where('method', '=', 'card_terminal')
    .where('status', 'in', COUNTED_PAYMENT_STATUSES)
    .groupBy(BRAND)
    .orderBy('brand')
    .execute();
}

/** Tips of the shift's payments, by the waiter of each bill's order. */
export function tipsByWaiter(
  db: Db,
  shiftId: string,
): Promise<{ user_id: string; name: string; tips_cents: number }[]> {
  return db
    .selectFrom('payments')
    .innerJoin('tickets', 'tickets.id', 'payments.ticket_id')
    .innerJoin('orders', 'orders.id', 'tickets.order_id')
    .innerJoin('users', 'users.id', 'orders.user_id')
    .select((eb) => [
      'users.id as user_id',
      'users.name',
      eb.fn.sum<number>('payments.tip_cents').as('tips_cents'),
    ])
    .where('payments.shift_id', '=', shiftId)
    .where('payments.status', 'in', COUNTED_PAYMENT_STATUSES)
    .where('payments.tip_cents', '>', 0)
    .groupBy(['users.id', 'users.name'])
    .orderBy('users.name')
    .execute();
}

export async function refundsOfShift(db: Db, shiftId: string): Promise<number> {
  const row = await db
    .selectFrom('refunds')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_cents'), eb.lit(0)).as('cents'))
    .where('shift_id', '=', shiftId)
    // A card-terminal refund counts once the provider has given the money back.
    .where('status', '=', 'processed')
    .executeTakeFirstOrThrow();
  return Number(row.cents);
}

/**
 * The bills the shift closed: Paid bills whose last counted payment is the shift's. A bill paid over
 * two shifts is a sale of the one that cleared it, so no sale is counted twice across shifts.
 */
export async function billsClosedIn(
  db: Db,
  shiftId: string,
): Promise<{
  bills: number;
  orders: number;
  subtotal_cents: number;
  discount_cents: number;
  covers: number;
}> {
  const row = await db
    .selectFrom('tickets')
    .select((eb) => [
      eb.fn.countAll<number>().as('bills'),
      eb.fn.count<number>('tickets.order_id').distinct().as('orders'),
      eb.fn.coalesce(eb.fn.sum<number>('tickets.subtotal_cents'), eb.lit(0)).as('subtotal_cents'),
      eb.fn.coalesce(eb.fn.sum<number>('tickets.discount_cents'), eb.lit(0)).as('discount_cents'),
      // The bill's own fact, by its key (kind, paid_at, ticket_id).
      sql<number>`coalesce(sum((select ${FACT_COVERS} from sales_facts f
        where f.kind = 'bill' and f.paid_at = tickets.paid_at and f.ticket_id = tickets.id)), 0)`.as(
        'covers',
      ),
    ])
    .where('tickets.status', '=', 2)
    .where('tickets.id', 'in', (eb) =>
      eb
        .selectFrom('payments')
        .select('ticket_id')
        .where('shift_id', '=', shiftId)
        .where('status', 'in', COUNTED_PAYMENT_STATUSES),
    )
    .where((eb) =>
      eb(
        eb
          .selectFrom('payments')
          .select('payments.shift_id')
          .whereRef('payments.ticket_id', '=', 'tickets.id')
          .where('payments.status', 'in', COUNTED_PAYMENT_STATUSES)
          .orderBy('payments.settled_at', 'desc')
          .orderBy('payments.id', 'desc')
          .limit(1),
        '=',
        shiftId,
      ),
    )
    .executeTakeFirstOrThrow();
  return {
    bills: Number(row.bills),
    orders: Number(row.orders),
    subtotal_cents: Number(row.subtotal_cents),
    discount_cents: Number(row.discount_cents),
    covers: Number(row.covers),
  };
}
