import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../core/db/database';
import type { Database, FiscalDocumentState } from '../core/db/schema';
import { TICKET_STATUS } from '../core/db/ticket-status';
import { newId } from '../core/ids';

const SETTINGS_ID = 1;

export type FiscalDocumentRow = Selectable<Database['fiscal_documents']>;
export type FiscalInvoiceRow = Selectable<Database['fiscal_invoices']>;
export type CreditNoteRow = Selectable<Database['fiscal_credit_notes']>;
export type GlobalPeriodRow = Selectable<Database['fiscal_global_periods']>;

export function findFiscalSettings(db: Db) {
  return db.selectFrom('fiscal_settings').selectAll().where('id', '=', SETTINGS_ID).executeTakeFirst();
}

export async function saveFiscalSettings(
  db: Db,
  values: Omit<Insertable<Database['fiscal_settings']>, 'id'>,
): Promise<void> {
  await db
    .insertInto('fiscal_settings')
    .values({ id: SETTINGS_ID, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}

export async function setScannedThrough(db: Db, at: number): Promise<void> {
  await db
    .updateTable('fiscal_settings')
    .set({ scanned_through: at })
    .where('id', '=', SETTINGS_ID)
    .execute();
}

export async function retryFailedDocuments(db: Db, now: number): Promise<void> {
  await db
    .updateTable('fiscal_documents')
    .set({ state: 'pending', next_attempt_at: now, attempts: 0, updated_at: now })
    .where('state', '=', 'failed')
    .execute();
  await db
    .updateTable('fiscal_credit_notes')
    .set({ state: 'pending', next_attempt_at: now, attempts: 0, last_error: null })
    .where('state', '=', 'failed')
    .execute();
}

/**
 * Every bill paid from `since` on (or that one bill) gets its document, once: the primary key makes a
 * second instance's insert of the same bill a no-op.
 */
export async function enqueuePaidBills(
  db: Db,
  which: { since: number; ticketId?: string },
  now: number,
): Promise<void> {
  await db
    .insertInto('fiscal_documents')
    .columns(['ticket_id', 'state', 'paid_at', 'next_attempt_at', 'created_at', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('tickets')
        .select((s) => [
          'tickets.id',
          s.val('pending').as('state'),
          s.ref('tickets.paid_at').$notNull().as('paid_at'),
          s.val(now).as('next_attempt_at'),
          s.val(now).as('created_at'),
          s.val(now).as('updated_at'),
        ])
        .where('tickets.status', '=', TICKET_STATUS.paid)
        .where('tickets.paid_at', '>=', which.since)
        .$if(which.ticketId !== undefined, (query) =>
          query.where('tickets.id', '=', which.ticketId as string),
        )
        .where((w) =>
          w.not(
            w.exists(
              w
                .selectFrom('fiscal_documents as d')
                .select('d.ticket_id')
                .whereRef('d.ticket_id', '=', 'tickets.id'),
            ),
          ),
        ),
    )
    .execute();
}

export function findDocument(db: Db, ticketId: string): Promise<FiscalDocumentRow | undefined> {
  return db.selectFrom('fiscal_documents').selectAll().where('ticket_id', '=', ticketId).executeTakeFirst();
}

export function findDocumentByReceipt(db: Db, receiptId: string): Promise<FiscalDocumentRow | undefined> {
  return db.selectFrom('fiscal_documents').selectAll().where('receipt_id', '=', receiptId).executeTakeFirst();
}

/** Documents in `state` whose next attempt is due and which no live claim holds. */
export async function dueDocuments(
  db: Db,
  state: FiscalDocumentState,
  now: number,
  limit: number,
): Promise<FiscalDocumentRow[]> {
  return db
    .selectFrom('fiscal_documents')
    .selectAll()
    .where('state', '=', state)
    .where('next_attempt_at', '<=', now)
    .where((w) => w.or([w('claimed_until', 'is', null), w('claimed_until', '<=', now)]))
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
}

/**
 * Takes the document for one call to the PAC: true for the one instance or request whose update
 * matched, so two never call for the same bill at once. `toState` lets the till mark it invoicing.
 */
export async function claimDocument(
  db: Db,
  doc: { ticketId: string; state: FiscalDocumentState },
  claim: { now: number; until: number; toState?: FiscalDocumentState },
): Promise<boolean> {
  const result = await db
    .updateTable('fiscal_documents')
    .set({ claimed_until: claim.until, state: claim.toState ?? doc.state, updated_at: claim.now })
    .where('ticket_id', '=', doc.ticketId)
    .where('state', '=', doc.state)
    .where((w) => w.or([w('claimed_until', 'is', null), w('claimed_until', '<=', claim.now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function updateDocument(
  db: Db,
  ticketId: string,
  changes: Updateable<Database['fiscal_documents']>,
): Promise<void> {
  await db.updateTable('fiscal_documents').set(changes).where('ticket_id', '=', ticketId).execute();
}

/** What a receipt needs of the bill. */
export function findBill(db: Db, ticketId: string) {
  return db
    .selectFrom('tickets')
    .select(['id', 'status', 'total_cents', 'paid_cents', 'discount_cents', 'subtotal_cents', 'paid_at'])
    .where('id', '=', ticketId)
    .executeTakeFirst();
}

/** What each payment method kept of the bill: settled payments less their refunds, tips apart. */
export function findBillPaymentShares(db: Db, ticketId: string) {
  return db
    .selectFrom('payments')
    .select([
      'method',
      'card_type',
      (eb) => eb.fn.sum<number>(eb(eb.ref('amount_cents'), '-', eb.ref('refunded_cents'))).as('cents'),
    ])
    .where('ticket_id', '=', ticketId)
    .where('status', 'in', ['settled', 'partially_refunded', 'refunded'])
    .groupBy(['method', 'card_type'])
    .execute();
}

/** Receipts whose bill has since been canceled or refunded in full: they are canceled at the PAC. */
export function receiptsOfVoidedBills(db: Db, limit: number) {
  return db
    .selectFrom('fiscal_documents')
    .innerJoin('tickets', 'tickets.id', 'fiscal_documents.ticket_id')
    .select(['fiscal_documents.ticket_id', 'fiscal_documents.receipt_id'])
    .where('fiscal_documents.state', '=', 'receipt')
    .where((w) => w.or([w('tickets.status', '=', TICKET_STATUS.canceled), w('tickets.paid_cents', '=', 0)]))
    .limit(limit)
    .execute();
}

/**
 * Bills in an invoice (alone or global) whose refunds exceed what their receipt counted and their
 * credit notes cover: `owed` is what a new credit note must give back. Only bills with a refund since
 * `since` are read, so the run stays small however many bills were ever invoiced.
 */
export function billsOwingCredit(db: Db, since: number, ticketIds: readonly string[] = []) {
  return (
    db
      .selectFrom('fiscal_documents')
      .innerJoin('tickets', 'tickets.id', 'fiscal_documents.ticket_id')
      .select([
        'fiscal_documents.ticket_id',
        (eb) =>
          eb(
            eb(eb.ref('fiscal_documents.receipt_cents'), '-', eb.ref('fiscal_documents.credited_cents')),
            '-',
            eb.ref('tickets.paid_cents'),
          ).as('owed'),
      ])
      .where('fiscal_documents.state', 'in', ['invoiced', 'in_global'])
      // A canceled invoice is void as a whole: nothing on it is left to give back.
      .where((w) =>
        w.not(
          w.exists(
            w
              .selectFrom('fiscal_invoices')
              .select('fiscal_invoices.id')
              .whereRef('fiscal_invoices.id', '=', 'fiscal_documents.invoice_id')
              .where('fiscal_invoices.status', '=', 'canceled'),
          ),
        ),
      )
      .where((w) =>
        w.or([
          w.exists(
            w
              .selectFrom('refunds')
              .innerJoin('payments', 'payments.id', 'refunds.payment_id')
              .select('refunds.id')
              .whereRef('payments.ticket_id', '=', 'fiscal_documents.ticket_id')
              .where('refunds.created_at', '>=', since),
          ),
          ...(ticketIds.length > 0 ? [w('fiscal_documents.ticket_id', 'in', ticketIds)] : []),
        ]),
      )
      .execute()
  );
}

export async function insertCreditNote(
  db: Db,
  row: Insertable<Database['fiscal_credit_notes']>,
): Promise<void> {
  await db.insertInto('fiscal_credit_notes').values(row).execute();
}

export async function addCredited(db: Db, ticketId: string, cents: number, now: number): Promise<void> {
  await db
    .updateTable('fiscal_documents')
    .set((eb) => ({ credited_cents: eb(eb.ref('credited_cents'), '+', cents), updated_at: now }))
    .where('ticket_id', '=', ticketId)
    .execute();
}

export function dueCreditNotes(db: Db, now: number, limit: number): Promise<CreditNoteRow[]> {
  return db
    .selectFrom('fiscal_credit_notes')
    .selectAll()
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((w) => w.or([w('claimed_until', 'is', null), w('claimed_until', '<=', now)]))
    .limit(limit)
    .execute();
}

export async function claimCreditNote(db: Db, id: string, now: number, until: number): Promise<boolean> {
  const result = await db
    .updateTable('fiscal_credit_notes')
    .set({ claimed_until: until })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .where((w) => w.or([w('claimed_until', 'is', null), w('claimed_until', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function updateCreditNote(
  db: Db,
  id: string,
  changes: Updateable<Database['fiscal_credit_notes']>,
): Promise<void> {
  await db.updateTable('fiscal_credit_notes').set(changes).where('id', '=', id).execute();
}

export type StampedCfdi = {
  kind: Database['fiscal_invoices']['kind'];
  pacId: string;
  uuid: string;
  folio: string | null;
  /** The receiver as the PAC took it. */
  customer: { tax_id: string; legal_name: string };
  totalCents: number;
  ticketId?: string;
  relatedUuid?: string;
  period?: { start: string; end: string };
};

/** Keeps a CFDI the PAC stamped for us, once: the same PAC id again answers the stored row. */
export async function storeInvoice(db: Db, cfdi: StampedCfdi, now: number): Promise<FiscalInvoiceRow> {
  const known = await findInvoiceByPacId(db, cfdi.pacId);
  if (known) return known;
  await db
    .insertInto('fiscal_invoices')
    .values({
      id: newId(),
      kind: cfdi.kind,
      pac_id: cfdi.pacId,
      uuid: cfdi.uuid,
      folio: cfdi.folio,
      status: 'valid',
      customer_rfc: cfdi.customer.tax_id,
      customer_name: cfdi.customer.legal_name,
      customer: JSON.stringify(cfdi.customer),
      total_cents: cfdi.totalCents,
      ticket_id: cfdi.ticketId ?? null,
      related_uuid: cfdi.relatedUuid ?? null,
      period_start: cfdi.period?.start ?? null,
      period_end: cfdi.period?.end ?? null,
      cancel_motive: null,
      substitution: null,
      claimed_until: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const stored = await findInvoiceByPacId(db, cfdi.pacId);
  if (!stored) throw new Error('The CFDI just stored is missing');
  return stored;
}

/** The CFDIs stamped for one bill (its invoices and credit notes), oldest first. */
export function invoicesOfBill(db: Db, ticketId: string): Promise<FiscalInvoiceRow[]> {
  return db
    .selectFrom('fiscal_invoices')
    .selectAll()
    .where('ticket_id', '=', ticketId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Credit notes of a bill the PAC has not stamped (yet, or at all). */
export function unstampedCreditNotes(db: Db, ticketId: string): Promise<CreditNoteRow[]> {
  return db
    .selectFrom('fiscal_credit_notes')
    .selectAll()
    .where('ticket_id', '=', ticketId)
    .where('state', '!=', 'issued')
    .orderBy('created_at')
    .execute();
}

export function findInvoice(db: Db, id: string): Promise<FiscalInvoiceRow | undefined> {
  return db.selectFrom('fiscal_invoices').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findInvoiceByPacId(db: Db, pacId: string): Promise<FiscalInvoiceRow | undefined> {
  return db.selectFrom('fiscal_invoices').selectAll().where('pac_id', '=', pacId).executeTakeFirst();
}

export async function updateInvoice(
  db: Db,
  id: string,
  changes: Updateable<Database['fiscal_invoices']>,
): Promise<void> {
  await db.updateTable('fiscal_invoices').set(changes).where('id', '=', id).execute();
}

/** Takes an invoice for a cancellation call, from `from` to `to`; false when another holds it. */
export async function claimInvoice(
  db: Db,
  id: string,
  change: { from: Database['fiscal_invoices']['status']; to: Database['fiscal_invoices']['status'] },
  claim: { now: number; until: number },
): Promise<boolean> {
  const result = await db
    .updateTable('fiscal_invoices')
    .set({ status: change.to, claimed_until: claim.until, updated_at: claim.now })
    .where('id', '=', id)
    .where('status', '=', change.from)
    .where((w) => w.or([w('claimed_until', 'is', null), w('claimed_until', '<=', claim.now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Cancellations waiting for the receiver, and ones whose caller died before it heard the answer. */
export function invoicesToFollow(db: Db, now: number) {
  return db
    .selectFrom('fiscal_invoices')
    .selectAll()
    .where((w) =>
      w.or([
        w('status', '=', 'cancel_pending'),
        w.and([w('status', '=', 'canceling'), w('claimed_until', '<=', now)]),
      ]),
    )
    .limit(50)
    .execute();
}

export function findPeriod(db: Db, periodStart: string): Promise<GlobalPeriodRow | undefined> {
  return db
    .selectFrom('fiscal_global_periods')
    .selectAll()
    .where('period_start', '=', periodStart)
    .executeTakeFirst();
}

export async function insertPeriodIfMissing(
  db: Db,
  row: Insertable<Database['fiscal_global_periods']>,
): Promise<void> {
  await db
    .insertInto('fiscal_global_periods')
    .values(row)
    .onConflict((oc) => oc.column('period_start').doNothing())
    .execute();
}

export async function claimPeriod(db: Db, periodStart: string, now: number, until: number): Promise<boolean> {
  const result = await db
    .updateTable('fiscal_global_periods')
    .set({ state: 'issuing', claimed_until: until, updated_at: now })
    .where('period_start', '=', periodStart)
    .where((w) =>
      w.or([w('state', '=', 'due'), w.and([w('state', '=', 'issuing'), w('claimed_until', '<=', now)])]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function updatePeriod(
  db: Db,
  periodStart: string,
  changes: Updateable<Database['fiscal_global_periods']>,
): Promise<void> {
  await db
    .updateTable('fiscal_global_periods')
    .set(changes)
    .where('period_start', '=', periodStart)
    .execute();
}

export function duePeriods(db: Db, now: number) {
  return db
    .selectFrom('fiscal_global_periods')
    .selectAll()
    .where((w) =>
      w.or([
        w.and([w('state', '=', 'due'), w('next_attempt_at', '<=', now)]),
        w.and([w('state', '=', 'issuing'), w('claimed_until', '<=', now)]),
      ]),
    )
    .orderBy('period_start')
    .execute();
}

export function listPeriods(db: Db, limit: number) {
  return db
    .selectFrom('fiscal_global_periods')
    .selectAll()
    .orderBy('period_start', 'desc')
    .limit(limit)
    .execute();
}

/** Whether a bill paid in [from, to) still waits for its receipt: the period's global must wait too. */
export async function hasUnsettledDocuments(db: Db, from: number, to: number): Promise<boolean> {
  const row = await db
    .selectFrom('fiscal_documents')
    .select('ticket_id')
    .where('state', 'in', ['pending', 'invoicing'])
    .where('paid_at', '>=', from)
    .where('paid_at', '<', to)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether a bill paid in [from, to) has its receipt open at the PAC: a global invoice would take it. */
export async function hasOpenReceipts(db: Db, from: number, to: number): Promise<boolean> {
  const row = await db
    .selectFrom('fiscal_documents')
    .select('ticket_id')
    .where('state', '=', 'receipt')
    .where('paid_at', '>=', from)
    .where('paid_at', '<', to)
    .executeTakeFirst();
  return row !== undefined;
}

/** The global invoices of one period, in the order they were issued (a busy period has several). */
export function globalInvoicesOfPeriod(db: Db, periodStart: string): Promise<FiscalInvoiceRow[]> {
  return db
    .selectFrom('fiscal_invoices')
    .selectAll()
    .where('kind', '=', 'global')
    .where('period_start', '=', periodStart)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The period names its first global invoice; later parts are found by their period. */
export async function namePeriodInvoice(db: Db, periodStart: string, invoiceId: string): Promise<void> {
  await db
    .updateTable('fiscal_global_periods')
    .set({ invoice_id: invoiceId })
    .where('period_start', '=', periodStart)
    .where('invoice_id', 'is', null)
    .execute();
}

/** Paid bills per local day of [from, to) with their fiscal state, for the fiscal report. */
export function fiscalReportRows(db: Db, from: number, to: number) {
  return db
    .selectFrom('tickets')
    .leftJoin('fiscal_documents', 'fiscal_documents.ticket_id', 'tickets.id')
    .leftJoin('fiscal_invoices', 'fiscal_invoices.id', 'fiscal_documents.invoice_id')
    .select([
      'fiscal_invoices.status as invoice_status',
      'tickets.id',
      'tickets.paid_at',
      'tickets.paid_cents',
      'tickets.tips_cents',
      'fiscal_documents.state',
      'fiscal_documents.receipt_cents',
      'fiscal_documents.credited_cents',
    ])
    .where('tickets.paid_at', '>=', from)
    .where('tickets.paid_at', '<', to)
    .where('tickets.status', 'in', [TICKET_STATUS.paid, TICKET_STATUS.canceled])
    .execute();
}
