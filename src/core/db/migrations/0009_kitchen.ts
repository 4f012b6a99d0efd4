import { type Kysely, sql } from 'kysely';

/**
 * The kitchen flow per dish (contract-live.md, Dishes through the kitchen) and the station each dish
 * category's dishes go to. Voided dishes stay on the order for the record but out of its total.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('order_dishes')
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'sent', 'preparing', 'ready', 'served', 'voided')`),
    )
    .execute();
  await db.schema.alterTable('order_dishes').addColumn('sent_at', 'bigint').execute();
  await db.schema.alterTable('order_dishes').addColumn('ready_at', 'bigint').execute();
  await db.schema.alterTable('order_dishes').addColumn('void_reason', 'text').execute();
  await db.schema.alterTable('order_dishes').addColumn('voided_at', 'bigint').execute();

  // Dishes already on orders follow their order's own status: a completed order's dishes were
  // served, a ready order's are ready; the rest (pending or cancelled orders) are not yet sent.
  await sql`
    update order_dishes set status = case
      (select o.status from orders o where o.id = order_dishes.order_id)
      when 'completed' then 'served'
      when 'ready' then 'ready'
      when 'preparing' then 'preparing'
      else 'pending' end
  `.execute(db);
  await sql`update order_dishes set sent_at = created_at where status <> 'pending'`.execute(db);
  await sql`update order_dishes set ready_at = created_at where status in ('ready', 'served')`.execute(db);

  // The kitchen queue reads active dishes oldest first.
  await db.schema
    .createIndex('order_dishes_status_sent')
    .on('order_dishes')
    .columns(['status', 'sent_at', 'id'])
    .execute();

  await db.schema
    .alterTable('categories')
    .addColumn('station', 'text', (col) => col.notNull().defaultTo('kitchen'))
    .execute();
}
