import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { BadRequestError, ConflictError, ServiceUnavailableError } from '../core/errors';
import { type Pac, type PacCustomer, type PacInvoice, PacRefusal, PacUnavailable } from '../core/pac';
import * as repo from './fiscal.repo';
import type { InvoiceView } from './fiscal.schemas';
import { cancelInvoice } from './fiscal-cancellations';
import { customerOf, PAC_UNAVAILABLE, recordCustomerInvoice } from './fiscal-common';
import { buildReceipt, CLAIM_MS } from './fiscal-receipts';
import type { FiscalSettings } from './fiscal-settings';
import { explainRefusal } from './pac-refusals';

const STILL_STAMPING =
  'The PAC is still stamping the invoice (the SAT did not answer at once): it will show here within the hour';
/** Facturapi asks the SAT again every 10 minutes after a 202 `pending`. */
const STAMPING_RECOVERY_MS = 10 * 60_000;

/** The invoice that replaces `replaced`: its external id and idempotency key, so a lost answer is found. */
function directKey(ticketId: string, replacedId: string): string {
  return `${ticketId}.${replacedId}`;
}

type Direct = {
  ticketId: string;
  customer: PacCustomer;
  use: string;
  /** The bill's invoice this one takes the place of: canceled for errors (02), or to substitute (01). */
  replaced: repo.FiscalInvoiceRow;
};

/**
 * A bill's invoice issued with `POST /invoices` rather than from its receipt: Facturapi leaves a
 * receipt `invoiced_to_customer` after its invoice is canceled, so the corrected invoice (after 02) and
 * a substitute (01, related to the old one by 04, which is then canceled naming it) come from the bill's
 * own plates. The document is held `invoicing` meanwhile, as for an invoice of its receipt.
 */
export async function invoiceDirectly(
  ctx: AppContext,
  pac: Pac,
  settings: FiscalSettings,
  principal: Principal | null,
  direct: Direct,
): Promise<InvoiceView> {
  const { ticketId, replaced } = direct;
  const now = ctx.clock.now();
  const claimed = await repo.claimDocument(
    ctx.db,
    { ticketId, state: 'invoiced' },
    { now, until: now + CLAIM_MS, toState: 'invoicing' },
  );
  if (!claimed) throw new ConflictError('This bill is being invoiced');
  const substitutes = replaced.status === 'valid';
  let invoice: PacInvoice;
  try {
    const built = await buildReceipt(ctx.db, settings, ticketId);
    if (built === 'voided') {
      await release(ctx.db, ticketId);
      throw new BadRequestError('This bill was canceled or refunded: there is nothing to invoice');
    }
    const key = directKey(ticketId, replaced.id);
    const earlier = await pac.findInvoiceByExternalId(key);
    invoice =
      earlier && earlier.status !== 'failed'
        ? earlier
        : await pac.createInvoice({
            customer: direct.customer,
            use: direct.use,
            payment_form: built.body.payment_form,
            items: built.body.items,
            ...(substitutes && { related_documents: [{ relationship: '04', documents: [replaced.uuid] }] }),
            ...(settings.series !== '' && { series: settings.series }),
            external_id: key,
            // A new try after one the SAT never stamped: a key of its own, still found by the external id.
            idempotency_key: earlier ? `${key}.${earlier.id}` : key,
          });
  } catch (error) {
    if (error instanceof PacRefusal) {
      await release(ctx.db, ticketId);
      throw new BadRequestError(explainRefusal(error));
    }
    if (!(error instanceof PacUnavailable)) throw error;
    // It may be stamped all the same: the job reads it back by its key before the bill is free again.
    await repo.updateDocument(ctx.db, ticketId, { claimed_until: now });
    throw new ServiceUnavailableError(PAC_UNAVAILABLE);
  }
  if (invoice.status === 'pending') {
    await repo.updateDocument(ctx.db, ticketId, { claimed_until: now + STAMPING_RECOVERY_MS });
    throw new ServiceUnavailableError(STILL_STAMPING);
  }
  if (invoice.status === 'failed') {
    await release(ctx.db, ticketId);
    throw new ServiceUnavailableError('The SAT did not stamp the invoice: try again');
  }
  const view = await recordCustomerInvoice(ctx, ticketId, invoice, direct.customer);
  if (substitutes && principal) {
    // The substitute stands either way; a cancellation the PAC refuses now is asked again from the till.
    await cancelInvoice(ctx, principal, replaced.id, { motive: '01', substitution: view.uuid }).catch(
      (error: unknown) => {
        if (!(error instanceof BadRequestError || error instanceof ServiceUnavailableError)) throw error;
      },
    );
  }
  return view;
}

async function release(db: Db, ticketId: string): Promise<void> {
  await db
    .updateTable('fiscal_documents')
    .set({ state: 'invoiced', claimed_until: null })
    .where('ticket_id', '=', ticketId)
    .where('state', '=', 'invoicing')
    .execute();
}

/**
 * A direct invoice whose caller died or which the PAC was still stamping: found by its key, it is
 * recorded once valid; one that failed or never arrived leaves the bill with the invoice it had.
 */
export async function recoverDirectInvoice(
  ctx: AppContext,
  pac: Pac,
  doc: repo.FiscalDocumentRow & { invoice_id: string },
): Promise<void> {
  const found = await pac.findInvoiceByExternalId(directKey(doc.ticket_id, doc.invoice_id));
  if (found?.status === 'pending') {
    await repo.updateDocument(ctx.db, doc.ticket_id, {
      claimed_until: ctx.clock.now() + STAMPING_RECOVERY_MS,
    });
    return;
  }
  if (found?.status === 'valid') {
    await recordCustomerInvoice(ctx, doc.ticket_id, found, customerOf(found));
    return;
  }
  await release(ctx.db, doc.ticket_id);
}
