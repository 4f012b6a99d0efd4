import { type Kysely, sql } from 'kysely';

/**
 * What refunds gave back on the order's Paid bills (issue 35): a refund is money returned after the
 * sale, not a new debt, so the order's balance (`total − discount − paid − refunded_after_sale`)
 * does not rise with it and a refunded table can still be closed. It is what each Paid bill's
 * payments fall short of its total; existing orders are filled from their bills. The status is
 * compared as `status + 0` so that no index on it can serve: SQLite, without statistics, otherwise
 * read every Paid bill of all time for each order through (status, paid_at) instead of the order's
 * bills through tickets_order_id (29 s at 20,000 orders, quadratic: days at a year of orders).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('orders')
    .addColumn('refunded_after_sale_cents', 'bigint', (col) =>
      col.notNull().defaultTo(0).check(sql`refunded_after_sale_cents >= 0`),
    )
    .execute();
  await sql`
    update orders set refunded_after_sale_cents = (
      select coalesce(sum(case when t.total_cents > t.paid_cents then t.total_cents - t.paid_cents else 0 end), 0)
      from tickets t where t.order_id = orders.id and t.status + 0 = 2
    )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('refunded_after_sale_cents').execute();
}
