import type { Kysely } from 'kysely';

/**
 * A manager's approval names what it approves (the order, and for a void the plates), so one approval
 * typed for one plate cannot void every sent plate of the order. Approvals live two minutes, so the
 * ones made before this migration simply expire unused.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('manager_approvals').addColumn('order_id', 'text').execute();
  await db.schema.alterTable('manager_approvals').addColumn('order_dish_ids', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('manager_approvals').dropColumn('order_dish_ids').execute();
  await db.schema.alterTable('manager_approvals').dropColumn('order_id').execute();
}
