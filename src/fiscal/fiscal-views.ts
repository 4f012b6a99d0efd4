import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { TICKET_STATUS } from '../core/db/ticket-status';
import { NotFoundError, ServiceUnavailableError } from '../core/errors';
import { fromCents } from '../core/money';
import { PacUnavailable } from '../core/pac';
import * as repo from './fiscal.repo';
import type { GuestInvoiceOffer, TicketFiscalView } from './fiscal.schemas';
import { PAC_UNAVAILABLE, requireFiscal } from './fiscal-common';
import { pacOf } from './fiscal-receipts';
import { isFiscalOn, loadFiscalSettings } from './fiscal-settings';

export async function getTicketFiscal(ctx: AppContext, ticketId: string): Promise<TicketFiscalView> {
  const bill = await repo.findBill(ctx.db, ticketId);
  if (!bill) throw new NotFoundError();
  return fiscalViewOf(ctx.db, ticketId);
}

type Cfdi = TicketFiscalView['cfdis'][number];

function cfdiOf(row: repo.FiscalInvoiceRow): Cfdi {
  return {
    invoice_id: row.id,
    kind: row.kind,
    folio: row.folio,
    uuid: row.uuid,
    status: row.status,
    total: fromCents(Number(row.total_cents)),
    cancel_motive: row.cancel_motive,
    error: null,
    created_at: Number(row.created_at),
  };
}

/** Every CFDI of the bill: its own, the global invoice it is in, and credit notes the PAC has not stamped. */
async function cfdisOf(
  db: Db,
  doc: repo.FiscalDocumentRow,
  current?: repo.FiscalInvoiceRow,
): Promise<Cfdi[]> {
  const own = (await repo.invoicesOfBill(db, doc.ticket_id)).map(cfdiOf);
  const global = current?.kind === 'global' ? [cfdiOf(current)] : [];
  const unstamped = (await repo.unstampedCreditNotes(db, doc.ticket_id)).map(
    (note): Cfdi => ({
      invoice_id: null,
      kind: 'credit_note',
      folio: null,
      uuid: null,
      status: note.state === 'failed' ? 'failed' : 'stamping',
      total: fromCents(Number(note.cents)),
      cancel_motive: null,
      error: note.last_error,
      created_at: Number(note.created_at),
    }),
  );
  return [...global, ...own, ...unstamped].sort((a, b) => a.created_at - b.created_at);
}

async function fiscalViewOf(db: Db, ticketId: string): Promise<TicketFiscalView> {
  const doc = await repo.findDocument(db, ticketId);
  if (!doc) {
    return {
      status: 'none',
      receipt_id: null,
      self_invoice_url: null,
      expires_at: null,
      invoice: null,
      error: null,
      cfdis: [],
    };
  }
  const invoice = doc.invoice_id ? await repo.findInvoice(db, doc.invoice_id) : undefined;
  const cfdis = await cfdisOf(db, doc, invoice);
  const failedNote = cfdis.find((cfdi) => cfdi.status === 'failed');
  return {
    status: invoice?.status === 'canceled' ? 'canceled' : doc.state === 'invoicing' ? 'receipt' : doc.state,
    receipt_id: doc.receipt_id,
    // The PAC's portal invoices open receipts only.
    self_invoice_url: doc.state === 'receipt' ? doc.self_invoice_url : null,
    expires_at: doc.expires_at === null ? null : Number(doc.expires_at),
    invoice: invoice
      ? {
          id: invoice.id,
          uuid: invoice.uuid,
          status: invoice.status,
          customer_rfc: invoice.customer_rfc,
          total: fromCents(Number(invoice.total_cents)),
        }
      : null,
    error: doc.state === 'failed' ? doc.last_error : (failedNote?.error ?? null),
    cfdis,
  };
}

export async function invoiceFile(
  ctx: AppContext,
  invoiceId: string,
  format: 'pdf' | 'xml',
): Promise<{ bytes: Buffer; filename: string }> {
  const invoice = await repo.findInvoice(ctx.db, invoiceId);
  if (!invoice) throw new NotFoundError();
  await requireFiscal(ctx);
  try {
    return {
      bytes: await pacOf(ctx).download(invoice.pac_id, format),
      filename: `${invoice.uuid}.${format}`,
    };
  } catch (error) {
    if (error instanceof PacUnavailable) throw new ServiceUnavailableError(PAC_UNAVAILABLE);
    throw error;
  }
}

/**
 * The key that opens a guest's invoice files, given only to the phone that asked for the invoice: a guest
 * link is a paper QR anyone at the table may scan, and the invoice carries the customer's RFC and name.
 */
export function guestDownloadKey(ctx: AppContext, invoiceId: string): string {
  return createHmac('sha256', ctx.secrets.pinKey).update(`guest-invoice:${invoiceId}`).digest('base64url');
}

/** The bill's own invoice (not a global one), for the holder of its download key only. */
export async function ticketInvoiceFile(
  ctx: AppContext,
  ticketId: string,
  format: 'pdf' | 'xml',
  key: string | undefined,
): Promise<{ bytes: Buffer; filename: string }> {
  const doc = await repo.findDocument(ctx.db, ticketId);
  const invoice = doc?.invoice_id ? await repo.findInvoice(ctx.db, doc.invoice_id) : undefined;
  if (invoice?.kind !== 'customer' || key === undefined) throw new NotFoundError();
  const expected = Buffer.from(guestDownloadKey(ctx, invoice.id));
  const given = Buffer.from(key);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new NotFoundError();
  return invoiceFile(ctx, invoice.id, format);
}

type OfferStatus = NonNullable<GuestInvoiceOffer>['status'];

/** What the guest may do by the bill's fiscal state. */
const GUEST_OFFER: Readonly<Record<TicketFiscalView['status'], OfferStatus>> = {
  none: 'pending',
  pending: 'pending',
  failed: 'pending',
  receipt: 'available',
  invoiced: 'invoiced',
  in_global: 'unavailable',
  canceled: 'canceled',
};

/**
 * What the guest page offers for a paid bill: the PAC's self-invoice page, our form, or that it is
 * invoiced. An invoice canceled to be corrected (motive 02) may be asked for again, on our form only:
 * the PAC keeps the receipt as invoiced, so its portal will not take it.
 */
export async function guestInvoiceOffer(ctx: AppContext, ticketId: string): Promise<GuestInvoiceOffer> {
  const settings = await loadFiscalSettings(ctx.db);
  if (!isFiscalOn(ctx, settings)) return null;
  const bill = await repo.findBill(ctx.db, ticketId);
  if (!bill || Number(bill.status) !== TICKET_STATUS.paid) return null;
  const view = await fiscalViewOf(ctx.db, ticketId);
  const correctable =
    view.status === 'canceled' &&
    view.invoice !== null &&
    Number(bill.paid_cents) > 0 &&
    (await isCorrectable(ctx.db, view.invoice.id));
  const status = correctable ? 'available' : GUEST_OFFER[view.status];
  return {
    status,
    self_invoice_url: view.self_invoice_url,
    expires_at: view.expires_at,
    uuid: status === 'invoiced' ? (view.invoice?.uuid ?? null) : null,
  };
}

/** A customer's invoice canceled for errors (02): the sale stands and wants its corrected invoice. */
export async function isCorrectable(db: Db, invoiceId: string): Promise<boolean> {
  const invoice = await repo.findInvoice(db, invoiceId);
  return invoice?.kind === 'customer' && invoice.status === 'canceled' && invoice.cancel_motive === '02';
}
