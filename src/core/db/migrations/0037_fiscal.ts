import { type Kysely, sql } from 'kysely';
import { grantSeededRoles } from './grant-seeded-roles';

/**
 * Mexico's e-invoice (issue 39): the restaurant's fiscal settings (one row, off until enabled), the
 * SAT product key a category or dish may carry, what the PAC made for each paid bill (its receipt,
 * then an invoice alone or its place in a global invoice), the CFDIs we asked for (invoices, global
 * invoices, credit notes), the credit notes refunds owe, and the global-invoice periods. Work rows
 * carry their own claim and back-off, as webhook deliveries do, so a restart resumes them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fiscal_settings')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('enabled', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('rfc', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('legal_name', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('tax_regime', 'text', (col) => col.notNull().defaultTo('601'))
    .addColumn('postal_code', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('series', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('product_key', 'text', (col) => col.notNull().defaultTo('90101501'))
    .addColumn('unit_key', 'text', (col) => col.notNull().defaultTo('E48'))
    .addColumn('global_periodicity', 'text', (col) => col.notNull().defaultTo('month'))
    .addColumn('payment_forms', 'text', (col) =>
      col.notNull().defaultTo('{"cash":"01","card":"04","transfer":"03"}'),
    )
    // When it was first enabled: bills paid before never become receipts, periods before have no global.
    .addColumn('enabled_since', 'bigint')
    // Paid bills and refunds are looked for from here on (less a margin), so each run reads a few rows.
    .addColumn('scanned_through', 'bigint')
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();

  await db.schema.alterTable('categories').addColumn('product_key', 'text').execute();
  await db.schema.alterTable('dishes').addColumn('product_key', 'text').execute();

  await db.schema
    .createTable('fiscal_invoices')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('kind', 'text', (col) =>
      col.notNull().check(sqlIn('kind', ['customer', 'global', 'credit_note'])),
    )
    .addColumn('pac_id', 'text', (col) => col.notNull().unique())
    .addColumn('uuid', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sqlIn('status', ['valid', 'canceling', 'cancel_pending', 'canceled'])),
    )
    .addColumn('customer_rfc', 'text', (col) => col.notNull())
    .addColumn('customer_name', 'text', (col) => col.notNull())
    // JSON of the receiver as the PAC took it, so a credit note goes to the same one.
    .addColumn('customer', 'text', (col) => col.notNull())
    .addColumn('total_cents', 'bigint', (col) => col.notNull())
    .addColumn('ticket_id', 'text', (col) => col.references('tickets.id'))
    .addColumn('related_uuid', 'text')
    .addColumn('period_start', 'text')
    .addColumn('period_end', 'text')
    .addColumn('cancel_motive', 'text')
    .addColumn('substitution', 'text')
    .addColumn('claimed_until', 'bigint')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('fiscal_invoices_status').on('fiscal_invoices').column('status').execute();

  await db.schema
    .createTable('fiscal_documents')
    .addColumn('ticket_id', 'text', (col) => col.primaryKey().references('tickets.id'))
    .addColumn('state', 'text', (col) =>
      col
        .notNull()
        .check(
          sqlIn('state', ['pending', 'receipt', 'invoicing', 'invoiced', 'in_global', 'canceled', 'failed']),
        ),
    )
    .addColumn('paid_at', 'bigint', (col) => col.notNull())
    .addColumn('receipt_id', 'text', (col) => col.unique())
    .addColumn('payment_form', 'text')
    .addColumn('self_invoice_url', 'text')
    .addColumn('expires_at', 'bigint')
    // What the receipt says was paid, and what had been refunded when it was made: later refunds owe
    // credit notes once the receipt is in an invoice.
    .addColumn('receipt_cents', 'bigint')
    .addColumn('credited_cents', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('invoice_id', 'text', (col) => col.references('fiscal_invoices.id'))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (col) => col.notNull())
    .addColumn('claimed_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('fiscal_documents_due')
    .on('fiscal_documents')
    .columns(['state', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('fiscal_documents_paid_at')
    .on('fiscal_documents')
    .columns(['paid_at'])
    .execute();

  await db.schema
    .createTable('fiscal_credit_notes')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('ticket_id', 'text', (col) => col.notNull().references('fiscal_documents.ticket_id'))
    .addColumn('cents', 'bigint', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull().check(sqlIn('state', ['pending', 'issued', 'failed'])))
    .addColumn('invoice_id', 'text', (col) => col.references('fiscal_invoices.id'))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (col) => col.notNull())
    .addColumn('claimed_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('fiscal_credit_notes_due')
    .on('fiscal_credit_notes')
    .columns(['state', 'next_attempt_at'])
    .execute();

  await db.schema
    .createTable('fiscal_global_periods')
    .addColumn('period_start', 'text', (col) => col.primaryKey())
    .addColumn('period_end', 'text', (col) => col.notNull())
    .addColumn('periodicity', 'text', (col) => col.notNull())
    .addColumn('from_at', 'bigint', (col) => col.notNull())
    .addColumn('to_at', 'bigint', (col) => col.notNull())
    .addColumn('state', 'text', (col) =>
      col.notNull().check(sqlIn('state', ['due', 'issuing', 'issued', 'empty', 'refused'])),
    )
    .addColumn('invoice_id', 'text', (col) => col.references('fiscal_invoices.id'))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (col) => col.notNull())
    .addColumn('claimed_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();

  // Cashiers invoice at the till; managers also cancel.
  await grantSeededRoles(db, { cashier: ['invoices.write'], manager: ['invoices.write', 'invoices.cancel'] });
}

function sqlIn(column: string, values: readonly string[]) {
  return sql.raw(`${column} in (${values.map((value) => `'${value}'`).join(', ')})`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('fiscal_global_periods').execute();
  await db.schema.dropTable('fiscal_credit_notes').execute();
  await db.schema.dropTable('fiscal_documents').execute();
  await db.schema.dropTable('fiscal_invoices').execute();
  await db.schema.alterTable('dishes').dropColumn('product_key').execute();
  await db.schema.alterTable('categories').dropColumn('product_key').execute();
  await db.schema.dropTable('fiscal_settings').execute();
}
