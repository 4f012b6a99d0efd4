import { createHmac, timingSafeEqual } from 'node:crypto';
import { recordAudit } from '../audit/record-audit';
import type { AppContext } from '../context';
import type { Principal } from '../core/auth-guard';
import type { Db } from '../core/db/database';
import { BadRequestError, ConflictError, NotFoundError, ServiceUnavailableError } from '../core/errors';
import { fromCents } from '../core/money';
import { recordEvent } from '../events/record-event';
import { authorize } from '../roles/permissions';
import { TICKET_STATUS } from '../tickets/tickets.schemas';
import * as repo from './fiscal.repo';
import type {
  CancelInvoiceBody,
  GuestInvoiceOffer,
  InvoiceBody,
  InvoiceView,
  TicketFiscalView,
} from './fiscal.schemas';
import { CLAIM_MS, makeReceipt, pacOf } from './fiscal-receipts';
import { type FiscalSettings, isFiscalOn, loadFiscalSettings } from './fiscal-settings';
import type { PacClient, PacCustomer, PacInvoice } from './pac.client';
import { PacRefusal, PacUnavailable } from './pac.client';
import { explainRefusal } from './pac-refusals';
import { CFDI_USES, isValidRfc, regimeFitsRfc, TAX_REGIMES } from './sat-catalogs';

export const FISCAL_OFF = 'E-invoicing is not enabled';
export const PAC_UNAVAILABLE = 'The e-invoicing provider is unavailable: try again in a moment';
const ALREADY_INVOICED = 'This bill is already invoiced';

/** E-invoicing's settings, or 400 while it is off. */
export async function requireFiscal(ctx: AppContext): Promise<FiscalSettings> {
  const settings = await loadFiscalSettings(ctx.db);
  if (!isFiscalOn(ctx, settings)) throw new BadRequestError(FISCAL_OFF);
  return settings;
}

export function toInvoiceView(row: repo.FiscalInvoiceRow): InvoiceView {
  return {
    id: row.id,
    uuid: row.uuid,
    kind: row.kind,
    status: row.status,
    customer_rfc: row.customer_rfc,
    customer_name: row.customer_name,
    total: fromCents(Number(row.total_cents)),
    ticket_id: row.ticket_id,
    period_start: row.period_start,
    period_end: row.period_end,
    created_at: Number(row.created_at),
  };
}

export async function getTicketFiscal(ctx: AppContext, ticketId: string): Promise<TicketFiscalView> {
  const bill = await repo.findBill(ctx.db, ticketId);
  if (!bill) throw new NotFoundError();
  return fiscalViewOf(ctx.db, ticketId);
}

export async function fiscalViewOf(db: Db, ticketId: string): Promise<TicketFiscalView> {
  const doc = await repo.findDocument(db, ticketId);
  if (!doc) {
    return {
      status: 'none',
      receipt_id: null,
      self_invoice_url: null,
      expires_at: null,
      invoice: null,
      error: null,
    };
  }
  const invoice = doc.invoice_id ? await repo.findInvoice(db, doc.invoice_id) : undefined;
  const status =
    invoice?.kind === 'customer' && invoice.status === 'canceled'
      ? 'canceled'
      : doc.state === 'invoicing'
        ? 'receipt'
        : doc.state;
  return {
    status,
    receipt_id: doc.receipt_id,
    self_invoice_url: doc.self_invoice_url,
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
    error: doc.state === 'failed' ? doc.last_error : null,
  };
}

/** The till's and the guest's checks, before anything is asked of the PAC. */
function checkCustomer(body: InvoiceBody): PacCustomer {
  const rfc = body.customer.rfc.toUpperCase();
  if (!isValidRfc(rfc, { allowGeneric: false })) {
    throw new BadRequestError('The RFC is not valid (its shape or check digit is wrong)');
  }
  const regime = body.customer.tax_regime;
  if (!Object.hasOwn(TAX_REGIMES, regime))
    throw new BadRequestError(`Tax regime ${regime} is not in the SAT catalogue`);
  if (!regimeFitsRfc(regime, rfc)) {
    throw new BadRequestError(
      rfc.length === 13
        ? `Tax regime ${regime} is for companies, and this RFC is a person's`
        : `Tax regime ${regime} is for persons, and this RFC is a company's`,
    );
  }
  const use = CFDI_USES[body.use];
  if (!use) throw new BadRequestError(`CFDI use ${body.use} is not in the SAT catalogue`);
  if (!use.regimes.includes(regime)) {
    throw new BadRequestError(`CFDI use ${body.use} is not allowed for tax regime ${regime}`);
  }
  return {
    legal_name: body.customer.legal_name.trim().toUpperCase(),
    tax_id: rfc,
    tax_system: regime,
    address: { zip: body.customer.postal_code },
    ...(body.customer.email !== undefined && { email: body.customer.email }),
  };
}

/**
 * Invoices a paid bill to a customer: its receipt (made now if the job has not yet) becomes an
 * invoice at the PAC. The document is marked invoicing under a claim first, so two tills cannot both
 * ask; that call takes no idempotency key, so after an unclear outcome the receipt is read back (it
 * names its invoice once invoiced) before anything is asked again.
 */
export async function invoiceTicket(
  ctx: AppContext,
  principal: Principal | null,
  ticketId: string,
  body: InvoiceBody,
): Promise<InvoiceView> {
  if (principal) authorize(principal, 'invoices.write');
  const settings = await requireFiscal(ctx);
  const customer = checkCustomer(body);
  const bill = await repo.findBill(ctx.db, ticketId);
  if (!bill) throw new NotFoundError();
  if (Number(bill.status) !== TICKET_STATUS.paid)
    throw new BadRequestError('Only a paid bill can be invoiced');
  const pac = pacOf(ctx);
  const doc = await documentWithReceipt(ctx, pac, settings, ticketId);
  const now = ctx.clock.now();
  const claimed = await repo.claimDocument(
    ctx.db,
    { ticketId, state: 'receipt' },
    { now, until: now + CLAIM_MS, toState: 'invoicing' },
  );
  if (!claimed || doc.receipt_id === null) throw new ConflictError('This bill is being invoiced');
  try {
    const invoice = await pac.invoiceReceipt(doc.receipt_id, {
      customer,
      use: body.use,
      ...(settings.series !== '' && { series: settings.series }),
    });
    return await recordCustomerInvoice(ctx, ticketId, invoice, customer);
  } catch (error) {
    if (error instanceof PacRefusal) {
      await releaseInvoicing(ctx.db, ticketId);
      throw new BadRequestError(explainRefusal(error));
    }
    if (!(error instanceof PacUnavailable)) throw error;
    const adopted = await adoptInvoiceOfReceipt(ctx, pac, ticketId, doc.receipt_id, customer).catch(
      () => undefined,
    );
    if (adopted) return adopted;
    await releaseInvoicing(ctx.db, ticketId);
    throw new ServiceUnavailableError(PAC_UNAVAILABLE);
  }
}

async function documentWithReceipt(
  ctx: AppContext,
  pac: PacClient,
  settings: FiscalSettings,
  ticketId: string,
): Promise<repo.FiscalDocumentRow> {
  let doc = await repo.findDocument(ctx.db, ticketId);
  if (!doc) {
    // A bill paid before e-invoicing was on has no receipt yet: the guest may still ask for its invoice.
    await repo.enqueuePaidBills(ctx.db, { since: 0, ticketId }, ctx.clock.now());
    doc = await repo.findDocument(ctx.db, ticketId);
  }
  if (doc?.state === 'pending' || doc?.state === 'failed') {
    if (doc.state === 'failed') await repo.updateDocument(ctx.db, ticketId, { state: 'pending' });
    await makeReceipt(ctx, pac, settings, { ...doc, state: 'pending' });
    doc = await repo.findDocument(ctx.db, ticketId);
  }
  if (!doc) throw new BadRequestError('Only a paid bill can be invoiced');
  switch (doc.state) {
    case 'receipt':
      return doc;
    case 'invoiced':
    case 'invoicing':
      throw new ConflictError(doc.state === 'invoiced' ? ALREADY_INVOICED : 'This bill is being invoiced');
    case 'in_global':
      throw new BadRequestError(await inGlobalMessage(ctx.db, doc));
    case 'canceled':
      throw new BadRequestError('This bill was canceled or refunded: there is nothing to invoice');
    default:
      throw new ServiceUnavailableError(doc.last_error ?? PAC_UNAVAILABLE);
  }
}

async function inGlobalMessage(db: Db, doc: repo.FiscalDocumentRow): Promise<string> {
  const invoice = doc.invoice_id ? await repo.findInvoice(db, doc.invoice_id) : undefined;
  return `This bill is in the global invoice of ${invoice?.period_start ?? 'its period'}`;
}

async function releaseInvoicing(db: Db, ticketId: string): Promise<void> {
  await db
    .updateTable('fiscal_documents')
    .set({ state: 'receipt', claimed_until: null })
    .where('ticket_id', '=', ticketId)
    .where('state', '=', 'invoicing')
    .execute();
}

/** The receipt read back: invoiced meanwhile (by our lost call, or by the guest's self-invoice)? */
async function adoptInvoiceOfReceipt(
  ctx: AppContext,
  pac: PacClient,
  ticketId: string,
  receiptId: string,
  customer?: PacCustomer,
): Promise<InvoiceView | undefined> {
  const receipt = await pac.getReceipt(receiptId);
  if (receipt.status === 'invoiced_to_customer' && receipt.invoice) {
    const invoice = await pac.getInvoice(receipt.invoice);
    return recordCustomerInvoice(ctx, ticketId, invoice, customer ?? customerOf(invoice));
  }
  return undefined;
}

/** The receiver of an invoice the PAC made without us (the guest's self-invoice), as it answers it. */
export function customerOf(invoice: PacInvoice): PacCustomer {
  return {
    legal_name: invoice.customer?.legal_name ?? '',
    tax_id: invoice.customer?.tax_id ?? '',
    tax_system: (invoice.customer as { tax_system?: string } | null)?.tax_system ?? '',
    address: { zip: (invoice.customer as { address?: { zip?: string } } | null)?.address?.zip ?? '' },
  };
}

export async function recordCustomerInvoice(
  ctx: AppContext,
  ticketId: string,
  invoice: PacInvoice,
  customer: PacCustomer,
): Promise<InvoiceView> {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const known = await repo.findInvoiceByPacId(trx, invoice.id);
    if (known) return toInvoiceView(known);
    const stored = await repo.storeInvoice(
      trx,
      {
        kind: 'customer',
        pacId: invoice.id,
        uuid: invoice.uuid,
        customer,
        totalCents: Math.round(invoice.total * 100),
        ticketId,
      },
      now,
    );
    await repo.updateDocument(trx, ticketId, {
      state: 'invoiced',
      invoice_id: stored.id,
      claimed_until: null,
      updated_at: now,
    });
    const view = toInvoiceView(stored);
    await recordEvent(trx, { type: 'fiscal.invoiced', data: view, at: now });
    return view;
  });
}

/**
 * An invoicing whose caller died before it heard the PAC: the receipt says whether it was invoiced.
 * Also picks up receipts the guest invoiced on the PAC's self-invoice portal, when asked for them.
 */
export async function recoverInvoicing(ctx: AppContext, pac: PacClient): Promise<void> {
  const stuck = await repo.dueDocuments(ctx.db, 'invoicing', Number.MAX_SAFE_INTEGER, 20);
  for (const doc of stuck) {
    const now = ctx.clock.now();
    if (doc.claimed_until !== null && Number(doc.claimed_until) > now) continue;
    if (doc.receipt_id === null) continue;
    try {
      const adopted = await adoptInvoiceOfReceipt(ctx, pac, doc.ticket_id, doc.receipt_id);
      if (!adopted) await releaseInvoicing(ctx.db, doc.ticket_id);
    } catch (error) {
      if (!(error instanceof PacUnavailable || error instanceof PacRefusal)) throw error;
    }
  }
}

/**
 * Cancels a CFDI at the PAC with the SAT's motive. 200 when canceled at once; 202 `cancel_pending`
 * while the receiver must accept (the job follows it); 409 while one is under way or once canceled.
 */
export async function cancelInvoice(
  ctx: AppContext,
  principal: Principal,
  invoiceId: string,
  body: CancelInvoiceBody,
): Promise<{ statusCode: 200 | 202; view: InvoiceView }> {
  authorize(principal, 'invoices.cancel');
  await requireFiscal(ctx);
  if (body.motive === '01' && body.substitution === undefined) {
    throw new BadRequestError('Motive 01 needs the UUID of the invoice that replaces it (substitution)');
  }
  if (body.motive !== '01' && body.substitution !== undefined) {
    throw new BadRequestError('Only motive 01 takes a substitution');
  }
  const invoice = await repo.findInvoice(ctx.db, invoiceId);
  if (!invoice) throw new NotFoundError();
  if (invoice.status === 'canceled') throw new ConflictError('This invoice is already canceled');
  const now = ctx.clock.now();
  const claimed = await repo.claimInvoice(
    ctx.db,
    invoiceId,
    { from: 'valid', to: 'canceling' },
    { now, until: now + CLAIM_MS },
  );
  if (!claimed) throw new ConflictError('A cancellation of this invoice is under way');
  await repo.updateInvoice(ctx.db, invoiceId, {
    cancel_motive: body.motive,
    substitution: body.substitution ?? null,
  });
  const pac = pacOf(ctx);
  try {
    const answer = await pac.cancelInvoice(invoice.pac_id, body.motive, body.substitution);
    await applyCancellation(ctx, invoiceId, answer, principal);
  } catch (error) {
    if (error instanceof PacRefusal) {
      await repo.updateInvoice(ctx.db, invoiceId, { status: 'valid', claimed_until: null });
      throw new BadRequestError(explainRefusal(error));
    }
    if (!(error instanceof PacUnavailable)) throw error;
    const readBack = await pac.getInvoice(invoice.pac_id).catch(() => undefined);
    if (!readBack) throw new ServiceUnavailableError(PAC_UNAVAILABLE);
    await applyCancellation(ctx, invoiceId, readBack, principal);
  }
  const after = await repo.findInvoice(ctx.db, invoiceId);
  if (!after) throw new NotFoundError();
  if (after.status === 'valid') throw new ServiceUnavailableError(PAC_UNAVAILABLE);
  return { statusCode: after.status === 'canceled' ? 200 : 202, view: toInvoiceView(after) };
}

const PENDING_CANCELLATION = new Set(['pending', 'verifying']);

/** What the PAC says of an invoice's cancellation, stored; a refused or expired one leaves it valid. */
async function applyCancellation(
  ctx: AppContext,
  invoiceId: string,
  answer: PacInvoice,
  principal: Principal | null,
): Promise<void> {
  const now = ctx.clock.now();
  const status =
    answer.status === 'canceled'
      ? 'canceled'
      : PENDING_CANCELLATION.has(answer.cancellation_status ?? '')
        ? 'cancel_pending'
        : 'valid';
  await ctx.db.transaction().execute(async (trx) => {
    await repo.updateInvoice(trx, invoiceId, { status, claimed_until: null, updated_at: now });
    const row = await repo.findInvoice(trx, invoiceId);
    if (!row || status !== 'canceled') return;
    await recordEvent(trx, { type: 'fiscal.canceled', data: toInvoiceView(row), at: now });
    if (principal) {
      await recordAudit(trx, {
        at: now,
        actor: principal,
        action: 'invoice.canceled',
        target: { type: 'invoice', id: invoiceId },
        after: { uuid: row.uuid, motive: row.cancel_motive, substitution: row.substitution },
      });
    }
  });
}

/** Cancellations the receiver has yet to accept, and ones whose caller died mid-call. */
export async function followCancellations(ctx: AppContext, pac: PacClient): Promise<void> {
  for (const invoice of await repo.invoicesToFollow(ctx.db, ctx.clock.now())) {
    try {
      await applyCancellation(ctx, invoice.id, await pac.getInvoice(invoice.pac_id), null);
    } catch (error) {
      if (!(error instanceof PacUnavailable || error instanceof PacRefusal)) throw error;
    }
  }
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

/** What the guest page offers for a paid bill: the PAC's self-invoice page, our form, or the files. */
export async function guestInvoiceOffer(ctx: AppContext, ticketId: string): Promise<GuestInvoiceOffer> {
  const settings = await loadFiscalSettings(ctx.db);
  if (!isFiscalOn(ctx, settings)) return null;
  const bill = await repo.findBill(ctx.db, ticketId);
  if (!bill || Number(bill.status) !== TICKET_STATUS.paid) return null;
  const view = await fiscalViewOf(ctx.db, ticketId);
  const status =
    view.status === 'invoiced'
      ? 'invoiced'
      : view.status === 'receipt'
        ? 'available'
        : view.status === 'none' || view.status === 'pending' || view.status === 'failed'
          ? 'pending'
          : 'unavailable';
  return {
    status,
    self_invoice_url: view.self_invoice_url,
    expires_at: view.expires_at,
    uuid: view.invoice?.uuid ?? null,
  };
}
