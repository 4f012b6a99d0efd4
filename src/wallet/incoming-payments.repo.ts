import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../core/db/database';
import type { Database } from '../core/db/schema';

export type StoredIncomingPayment = Selectable<Database['incoming_payments']>;
export type NewIncomingPayment = Insertable<Database['incoming_payments']>;

/** Both engines allow far more bound values per statement; 200 rows keep each insert small. */
const INSERT_CHUNK = 200;

/** Records payments once: a payment already stored (by the webhook or an earlier listing) is left as it is. */
export async function insertIncomingPayments(db: Db, payments: NewIncomingPayment[]): Promise<number> {
  let inserted = 0;
  for (let start = 0; start < payments.length; start += INSERT_CHUNK) {
    const result = await db
      .insertInto('incoming_payments')
      .values(payments.slice(start, start + INSERT_CHUNK))
      .onConflict((conflict) => conflict.column('payment_hash').doNothing())
      .executeTakeFirst();
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return inserted;
}

export function findIncomingPayment(db: Db, paymentHash: string): Promise<StoredIncomingPayment | undefined> {
  return db
    .selectFrom('incoming_payments')
    .selectAll()
    .where('payment_hash', '=', paymentHash)
    .executeTakeFirst();
}

/**
 * Newest first by the time phoenixd's own listing goes by (completion for its default list of paid
 * payments, creation for `all`), a millisecond's payments by hash, so the two merge page by page.
 */
export function listIncomingPayments(
  db: Db,
  filter: {
    from?: number | undefined;
    to?: number | undefined;
    externalId?: string | undefined;
    limit?: number;
    byCompletion: boolean;
  },
): Promise<StoredIncomingPayment[]> {
  const time = filter.byCompletion ? 'completed_at' : 'created_at';
  let query = db.selectFrom('incoming_payments').selectAll().orderBy(time, 'desc').orderBy('payment_hash');
  if (filter.from !== undefined) query = query.where(time, '>=', filter.from);
  if (filter.to !== undefined) query = query.where(time, '<=', filter.to);
  if (filter.externalId !== undefined) query = query.where('external_id', '=', filter.externalId);
  if (filter.limit !== undefined) query = query.limit(filter.limit);
  return query.execute();
}
