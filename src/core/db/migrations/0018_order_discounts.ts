import { type Kysely, sql } from 'kysely';

/**
 * The discounts of an order's live bills, kept on the order row beside `billed_cents` and moved in the
 * same statement, so an order's balance (`total − discount − paid`) counts a discounted bill as settled
 * when it is paid in full. Existing orders are filled from their live bills.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('orders')
    .addColumn('discount_cents', 'bigint', (col) =>
      col.notNull().defaultTo(0).check(sql`discount_cents >= 0 and discount_cents <= billed_cents`),
    )
    .execute();
  await sql`
    update orders set discount_cents = (
      select coalesce(sum(t.discount_cents), 0) from tickets t where t.order_id = orders.id and t.status <> 3
    )
  `.execute(db);
}
