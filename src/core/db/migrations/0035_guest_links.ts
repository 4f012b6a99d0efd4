import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * The guest's phone (issue 38): links a guest opens from the QR of a check, stored only as the hash
 * of their token; tip settings for the guest page; and payments a guest makes, which no staff user
 * recorded (`created_by` null, `source` 'guest'). The till's rule of one pending Lightning invoice
 * per bill stays for staff payments only: several guests may each have an invoice of their own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('guest_links')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('ticket_id', 'text', (col) => col.notNull().references('tickets.id'))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('guest_links_ticket').on('guest_links').column('ticket_id').execute();

  await db.schema
    .alterTable('business_settings')
    .addColumn('tip_suggestions', 'text', (col) => col.notNull().defaultTo('[10,15,20]'))
    .execute();
  await db.schema
    .alterTable('business_settings')
    .addColumn('max_tip_percent', 'integer', (col) => col.notNull().defaultTo(100))
    .execute();

  await db.schema.dropIndex('payments_one_pending_lightning_per_ticket').execute();
  if (isPostgres) {
    await sql`alter table payments alter column created_by drop not null`.execute(db);
    await sql`alter table payments add column source text not null default 'staff' check (source in ('staff', 'guest'))`.execute(
      db,
    );
  } else {
    await rebuildSqlitePayments(db);
  }
  await db.schema
    .createIndex('payments_one_pending_lightning_per_ticket')
    .on('payments')
    .column('ticket_id')
    .unique()
    .where(sql<boolean>`status = 'pending' and method = 'lightning' and source = 'staff'`)
    .execute();
}

/**
 * SQLite cannot drop a NOT NULL: the table is made anew, its rows copied, and its indexes made again,
 * with foreign keys off meanwhile (refunds point at payments) and checked before they are back on.
 */
async function rebuildSqlitePayments(db: Kysely<unknown>): Promise<void> {
  await sql`pragma foreign_keys = off`.execute(db);
  await db.transaction().execute(async (trx) => {
    await sql`create table "payments_rebuilt" ("id" text primary key, "ticket_id" text not null references "tickets" ("id"), "method" text not null references "payment_methods" ("code"), "amount_cents" bigint not null check (amount_cents > 0), "tip_cents" bigint default 0 not null check (tip_cents >= 0), "tendered_cents" bigint, "change_cents" bigint, "refunded_cents" bigint default 0 not null, "status" text not null check (status in ('pending', 'settled', 'expired', 'refunded', 'partially_refunded')), "created_by" text references "users" ("id"), "created_at" bigint not null, "settled_at" bigint, "amount_sat" bigint, "rate" double precision, "payment_hash" text unique, "invoice" text, "expires_at" bigint, "received_sat" bigint, "swept_until" bigint, "shift_id" text references "shifts" ("id"), "fees_msat" bigint, "source" text default 'staff' not null check (source in ('staff', 'guest')), constraint "payments_refunds_within_amount" check (refunded_cents >= 0 and refunded_cents <= amount_cents))`.execute(
      trx,
    );
    await sql`insert into payments_rebuilt (id, ticket_id, method, amount_cents, tip_cents, tendered_cents, change_cents, refunded_cents, status, created_by, created_at, settled_at, amount_sat, rate, payment_hash, invoice, expires_at, received_sat, swept_until, shift_id, fees_msat)
      select id, ticket_id, method, amount_cents, tip_cents, tendered_cents, change_cents, refunded_cents, status, created_by, created_at, settled_at, amount_sat, rate, payment_hash, invoice, expires_at, received_sat, swept_until, shift_id, fees_msat from payments`.execute(
      trx,
    );
    await sql`drop table payments`.execute(trx);
    await sql`alter table payments_rebuilt rename to payments`.execute(trx);
    await sql`create index "payments_ticket_id" on "payments" ("ticket_id")`.execute(trx);
    await sql`create index "payments_pending" on "payments" ("expires_at") where "status" = 'pending'`.execute(
      trx,
    );
    await sql`create index "payments_shift" on "payments" ("shift_id")`.execute(trx);
    // The keys of payments and of refunds, which point at it: the only ones the copy could break.
    // Checking every table instead made this transaction last 75 s at 1M orders, not 21 s.
    for (const table of ['payments', 'refunds']) {
      const broken = await sql`pragma foreign_key_check(${sql.raw(table)})`.execute(trx);
      if (broken.rows.length > 0) throw new Error('payments rebuilt with broken foreign keys');
    }
  });
  await sql`pragma foreign_keys = on`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payments_one_pending_lightning_per_ticket').execute();
  await db.schema.alterTable('payments').dropColumn('source').execute();
  await db.schema
    .createIndex('payments_one_pending_lightning_per_ticket')
    .on('payments')
    .column('ticket_id')
    .unique()
    .where(sql<boolean>`status = 'pending' and method = 'lightning'`)
    .execute();
  await db.schema.alterTable('business_settings').dropColumn('max_tip_percent').execute();
  await db.schema.alterTable('business_settings').dropColumn('tip_suggestions').execute();
  await db.schema.dropTable('guest_links').execute();
}
