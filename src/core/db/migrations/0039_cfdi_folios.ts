import type { Kysely } from 'kysely';

/**
 * The folio each CFDI was stamped with (series and number, as printed on it): the till lists a bill's
 * CFDIs (its invoice, a corrected one, credit notes) by the folio a customer reads on their paper.
 * Earlier CFDIs keep none; their UUID still names them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('fiscal_invoices').addColumn('folio', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('fiscal_invoices').dropColumn('folio').execute();
}
