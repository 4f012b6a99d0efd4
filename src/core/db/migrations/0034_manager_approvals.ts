import type { Kysely } from 'kysely';

/**
 * Issue 35: a manager approves a void or a comp on the waiter's tablet with their PIN. The approval
 * is a single-use token kept only as its hash, bound to the user it was issued to. Who voided a plate
 * and who approved it, and who approved a bill's discount, are kept for the day report (null on rows
 * from before: nobody recorded it then).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('manager_approvals')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('approver_id', 'text', (col) => col.notNull())
    .addColumn('permission', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('manager_approvals_expires_at')
    .on('manager_approvals')
    .column('expires_at')
    .execute();
  await db.schema.alterTable('order_dishes').addColumn('voided_by', 'text').execute();
  await db.schema.alterTable('order_dishes').addColumn('voided_approved_by', 'text').execute();
  await db.schema.alterTable('tickets').addColumn('discount_approved_by', 'text').execute();
  // The day report reads a day's voids by when they happened.
  await db.schema.createIndex('order_dishes_voided_at').on('order_dishes').column('voided_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('order_dishes_voided_at').execute();
  await db.schema.alterTable('tickets').dropColumn('discount_approved_by').execute();
  await db.schema.alterTable('order_dishes').dropColumn('voided_approved_by').execute();
  await db.schema.alterTable('order_dishes').dropColumn('voided_by').execute();
  await db.schema.dropTable('manager_approvals').execute();
}
