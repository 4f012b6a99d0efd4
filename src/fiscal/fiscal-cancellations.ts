import { recordAudit } from '../audit/audit.api';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { TICKET_STATUS } from '../core/db/ticket-status';
import { BadRequestError, ConflictError, NotFoundError, ServiceUnavailableError } from '../core/errors';
import { type Pac, type PacInvoice, PacRefusal, PacUnavailable } from '../core/pac';
import { recordEvent } from '../events/events.api';
import { authorize } from '../permissions/permissions.api';
import * as repo from './fiscal.repo';
import type { CancelInvoiceBody, InvoiceView } from './fiscal.schemas';
import { PAC_UNAVAILABLE, requireFiscal, toInvoiceView } from './fiscal-common';
import { CLAIM_MS, pacOf } from './fiscal-receipts';
import { explainRefusal } from './pac-refusals';

const SUBSTITUTE_NEEDED = 'Motive 01 needs the UUID of the invoice that replaces it (substitution)';

/**
 * The SAT's motives, checked before anything reaches the PAC: 01 names a valid invoice of the same bill
 * that substitutes this one (issued first, related to it by 04: POST /tickets/{id}/invoice with
 * `replaces`); 02 leaves the bill to be invoiced again, correctly; 03 says the sale did not happen, so
 * the bill must be canceled or refunded first; 04 is for a global invoice, one of whose sales a
 * customer's invoice now covers.
 */
async function checkMotive(
  ctx: AppContext,
  invoice: repo.FiscalInvoiceRow,
  body: CancelInvoiceBody,
): Promise<void> {
  if (body.motive !== '01' && body.substitution !== undefined) {
    throw new BadRequestError('Only motive 01 takes a substitution');
  }
  if (body.motive === '01') {
    if (body.substitution === undefined) throw new BadRequestError(SUBSTITUTE_NEEDED);
    const uuid = body.substitution.toLowerCase();
    const substitute = invoice.ticket_id
      ? (await repo.invoicesOfBill(ctx.db, invoice.ticket_id)).find(
          (other) => other.uuid.toLowerCase() === uuid && other.id !== invoice.id,
        )
      : undefined;
    if (substitute?.kind !== invoice.kind || substitute.status !== 'valid') {
      throw new BadRequestError(
        'The substitute must be a valid invoice of the same bill: issue it first (Invoice, replacing this one)',
      );
    }
  }
  if (body.motive === '03' && invoice.ticket_id) {
    const bill = await repo.findBill(ctx.db, invoice.ticket_id);
    if (bill && Number(bill.status) !== TICKET_STATUS.canceled && Number(bill.paid_cents) > 0) {
      throw new BadRequestError(
        'Motive 03 (the sale did not happen) needs the bill canceled or refunded in full first',
      );
    }
  }
  if (body.motive === '04' && invoice.kind !== 'global') {
    throw new BadRequestError('Motive 04 is only for a global invoice');
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
  const invoice = await repo.findInvoice(ctx.db, invoiceId);
  if (!invoice) throw new NotFoundError();
  if (invoice.status === 'canceled') throw new ConflictError('This invoice is already canceled');
  await checkMotive(ctx, invoice, body);
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
export async function followCancellations(ctx: AppContext, pac: Pac): Promise<void> {
  for (const invoice of await repo.invoicesToFollow(ctx.db, ctx.clock.now())) {
    try {
      await applyCancellation(ctx, invoice.id, await pac.getInvoice(invoice.pac_id), null);
    } catch (error) {
      if (!(error instanceof PacUnavailable || error instanceof PacRefusal)) throw error;
    }
  }
}
