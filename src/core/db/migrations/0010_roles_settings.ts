import { randomUUID as newId } from 'node:crypto';
import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Roles (issue 14): named sets of permissions, stored as a JSON array of names. `users.role` keeps
 * the name clients already see, now a reference to a role. The lists below are frozen as seeded; the
 * `admin` role is granted every permission in code, so new permissions reach it without a migration.
 */
const SEEDED_ROLES: Record<string, { description: string; permissions: string[] }> = {
  admin: { description: 'Everything, including users, roles and settings', permissions: [] },
  manager: {
    description: 'Runs the floor and the money: everything but users, roles, the wallet and webhooks',
    permissions: [
      'menu.write',
      'floor.write',
      'orders.write',
      'orders.cancel',
      'dishes.void',
      'kitchen.advance',
      'tickets.write',
      'tickets.discount',
      'tickets.cancel',
      'payments.take',
      'payments.refund',
      'payment_methods.manage',
      'settings.write',
      'shifts.use',
      'shifts.manage',
      'reports.read',
      'audit.read',
      'printers.manage',
      'receipts.print',
    ],
  },
  cashier: {
    description: 'Takes orders and payments and splits bills',
    permissions: [
      'orders.write',
      'tickets.write',
      'tickets.cancel',
      'payments.take',
      'shifts.use',
      'receipts.print',
    ],
  },
  waiter: {
    description: 'Takes orders, splits bills and takes payments at the table; no discounts or refunds',
    permissions: ['orders.write', 'tickets.write', 'payments.take', 'shifts.use', 'receipts.print'],
  },
  kitchen: { description: 'Moves dishes through the kitchen statuses', permissions: ['kitchen.advance'] },
  staff: {
    description: 'What every signed-in user could do before roles existed',
    permissions: [
      'menu.write',
      'floor.write',
      'orders.write',
      'orders.cancel',
      'dishes.void',
      'kitchen.advance',
      'tickets.write',
      'tickets.cancel',
      'payments.take',
      'shifts.use',
      'receipts.print',
    ],
  },
};

export async function up(db: Kysely<unknown>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const now = Date.now();

  await db.schema
    .createTable('roles')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull().unique())
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('permissions', 'text', (col) => col.notNull())
    .addColumn('is_seeded', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db
    .insertInto('roles' as never)
    .values(
      Object.entries(SEEDED_ROLES).map(([name, role]) => ({
        id: newId(),
        name,
        description: role.description,
        permissions: JSON.stringify(role.permissions),
        is_seeded: 1,
        created_at: now,
        updated_at: now,
      })) as never,
    )
    .execute();

  // The old column's check allowed only admin and staff. SQLite can add a column with a foreign key
  // only when it may be null, so the NOT NULL holds there through the services; PostgreSQL enforces it.
  await db.schema
    .alterTable('users')
    .addColumn('role_name', 'text', (col) => col.references('roles.name').onUpdate('cascade'))
    .execute();
  await sql`update users set role_name = role`.execute(db);
  await db.schema.alterTable('users').dropColumn('role').execute();
  await db.schema.alterTable('users').renameColumn('role_name', 'role').execute();
  if (isPostgres) await sql`alter table users alter column role set not null`.execute(db);
  await db.schema.createIndex('users_role').on('users').column('role').execute();

  // One row, created at start-up with the configured defaults (POS_TIMEZONE, POS_BASE_CURRENCY).
  await db.schema
    .createTable('business_settings')
    .addColumn('id', 'integer', (col) => col.primaryKey().check(sql`id = 1`))
    .addColumn('business_name', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('address', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('tax_id', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('phone', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('receipt_footer', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('tax_rate_bp', 'integer', (col) =>
      col.notNull().defaultTo(0).check(sql`tax_rate_bp >= 0 and tax_rate_bp <= 10000`),
    )
    .addColumn('prices_include_tax', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('timezone', 'text', (col) => col.notNull())
    .addColumn('base_currency', 'text', (col) =>
      col.notNull().check(sql`base_currency in ('MXN', 'USD', 'BTC')`),
    )
    .addColumn('require_shift_for_cash', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
}
