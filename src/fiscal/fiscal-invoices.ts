import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { TICKET_STATUS } from '../core/db/ticket-status';
import { BadRequestError, ConflictError, NotFoundError, ServiceUnavailableError } from '../core/errors';
import { type Pac, type PacCustomer, PacRefusal, PacUnavailable } from '../core/pac';
import { authorize } from '../permissions/permissions.api';
import * as repo from './fiscal.repo';
import type { InvoiceBody, InvoiceView } from './fiscal.schemas';
import { customerOf, PAC_UNAVAILABLE, recordCustomerInvoice, requireFiscal } from './fiscal-common';
import { invoiceDirectly, recoverDirectInvoice } from './fiscal-direct-invoices';
import { CLAIM_MS, makeReceipt, pacOf } from './fiscal-receipts';
import type { FiscalSettings } from './fiscal-settings';
import { isCorrectable } from './fiscal-views';
import { explainRefusal } from './pac-refusals';
import { CFDI_USES, isValidRfc, regimeFitsRfc, TAX_REGIMES } from './sat-catalogs';

const ALREADY_INVOICED = 'This bill is already invoiced';

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
  const replaced = await invoiceToReplace(ctx, principal, ticketId, body.replaces);
  if (replaced) {
    return invoiceDirectly(ctx, pac, settings, principal, { ticketId, customer, use: body.use, replaced });
  }
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

/**
 * The bill's invoice a new one takes the place of: the one named by `replaces` (a substitute, motive 01,
 * which only those who may cancel may ask for), or one canceled for errors (motive 02) that wants its
 * corrected invoice.
 */
async function invoiceToReplace(
  ctx: AppContext,
  principal: Principal | null,
  ticketId: string,
  replaces: string | undefined,
): Promise<repo.FiscalInvoiceRow | undefined> {
  const doc = await repo.findDocument(ctx.db, ticketId);
  const current =
    doc?.state === 'invoiced' && doc.invoice_id ? await repo.findInvoice(ctx.db, doc.invoice_id) : undefined;
  if (replaces !== undefined) {
    if (!principal) throw new BadRequestError('Only the staff may replace an invoice');
    authorize(principal, 'invoices.cancel');
    if (current?.id !== replaces || current.status !== 'valid') {
      throw new BadRequestError("Only the bill's valid invoice can be replaced");
    }
    return current;
  }
  return current && (await isCorrectable(ctx.db, current.id)) ? current : undefined;
}

async function documentWithReceipt(
  ctx: AppContext,
  pac: Pac,
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
      throw await invoicedRefusal(ctx.db, doc);
    case 'invoicing':
      throw new ConflictError('This bill is being invoiced');
    case 'in_global':
      throw new BadRequestError(await inGlobalMessage(ctx.db, doc));
    case 'canceled':
      throw new BadRequestError('This bill was canceled or refunded: there is nothing to invoice');
    default:
      throw new ServiceUnavailableError(doc.last_error ?? PAC_UNAVAILABLE);
  }
}

/** Why a bill with an invoice cannot have another: it is valid, being canceled, or the sale was undone. */
async function invoicedRefusal(db: Db, doc: repo.FiscalDocumentRow): Promise<Error> {
  const invoice = doc.invoice_id ? await repo.findInvoice(db, doc.invoice_id) : undefined;
  if (invoice?.status === 'canceled') {
    return new BadRequestError(
      'The invoice of this bill was canceled as a sale that did not happen (motive 03)',
    );
  }
  if (invoice?.status === 'canceling' || invoice?.status === 'cancel_pending') {
    return new ConflictError('A cancellation of this invoice is under way');
  }
  return new ConflictError(ALREADY_INVOICED);
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
  pac: Pac,
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

/**
 * An invoicing whose caller died before it heard the PAC: the receipt says whether it was invoiced.
 * Also picks up receipts the guest invoiced on the PAC's self-invoice portal, when asked for them.
 */
export async function recoverInvoicing(ctx: AppContext, pac: Pac): Promise<void> {
  const stuck = await repo.dueDocuments(ctx.db, 'invoicing', Number.MAX_SAFE_INTEGER, 20);
  for (const doc of stuck) {
    const now = ctx.clock.now();
    if (doc.claimed_until !== null && Number(doc.claimed_until) > now) continue;
    if (doc.receipt_id === null) continue;
    try {
      if (doc.invoice_id !== null) {
        await recoverDirectInvoice(ctx, pac, { ...doc, invoice_id: doc.invoice_id });
        continue;
      }
      const adopted = await adoptInvoiceOfReceipt(ctx, pac, doc.ticket_id, doc.receipt_id);
      if (!adopted) await releaseInvoicing(ctx.db, doc.ticket_id);
    } catch (error) {
      if (!(error instanceof PacUnavailable || error instanceof PacRefusal)) throw error;
    }
  }
}
