import { randomUUID as newId } from 'node:crypto';
import type { Kysely } from 'kysely';

/**
 * The customer display (issue 38): a screen facing the guest at the counter, signed in with the
 * seeded `display` role (no permission but `display.view`), paired to one cashier's till by a short
 * code the till shows. The till keeps what it is showing (the bill being paid, the Lightning payment
 * if any) in one row per cashier, which the paired display reads.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const now = Date.now();
  const roles = db as unknown as Kysely<{ roles: { name: string } }>;
  // A role an administrator already named `display` is theirs: it stays as they made it.
  const taken = await roles
    .selectFrom('roles')
    .select('name')
    .where('name', '=', 'display')
    .executeTakeFirst();
  if (!taken) await insertDisplayRole(db, now);
  await db.schema
    .createTable('display_pairing_codes')
    .addColumn('code', 'text', (col) => col.primaryKey())
    .addColumn('cashier_id', 'text', (col) => col.notNull().unique().references('users.id'))
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('display_pairings')
    .addColumn('display_user_id', 'text', (col) => col.primaryKey().references('users.id'))
    .addColumn('cashier_id', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('paired_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('till_displays')
    .addColumn('cashier_id', 'text', (col) => col.primaryKey().references('users.id'))
    .addColumn('ticket_id', 'text', (col) => col.references('tickets.id'))
    .addColumn('payment_id', 'text', (col) => col.references('payments.id'))
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
}

async function insertDisplayRole(db: Kysely<unknown>, now: number): Promise<void> {
  await db
    .insertInto('roles' as never)
    .values({
      id: newId(),
      name: 'display',
      description: "The customer display at the counter: shows the paired till's bill and its QR",
      permissions: JSON.stringify(['display.view']),
      is_seeded: 1,
      created_at: now,
      updated_at: now,
    } as never)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('till_displays').execute();
  await db.schema.dropTable('display_pairings').execute();
  await db.schema.dropTable('display_pairing_codes').execute();
  // The role stays: users may have been given it.
}
