import type { AppContext } from '../core/context';
import { followCancellations } from './fiscal-cancellations';
import { issueDueCreditNotes } from './fiscal-credit-notes';
import { runGlobalInvoices } from './fiscal-globals';
import { recoverInvoicing } from './fiscal-invoices';
import { cancelVoidedReceipts, createDueReceipts, enqueueNewWork, pacOf } from './fiscal-receipts';
import { isFiscalOn, loadFiscalSettings } from './fiscal-settings';

/** The background job of e-invoicing: every few seconds, nothing at all while it is off. */
export const FISCAL_JOB = 'fiscal';
export const FISCAL_JOB_INTERVAL_MS = 3000;

/**
 * One run: paid bills become receipts, voided bills' receipts are canceled, refunds after invoicing
 * become credit notes, cancellations awaiting the receiver are followed, and closed periods get their
 * global invoice. Every step is a row with its own claim and back-off, so any instance may run it and
 * a restart picks up where the last run stopped.
 */
export async function runFiscalJob(ctx: AppContext): Promise<void> {
  const settings = await loadFiscalSettings(ctx.db);
  if (!isFiscalOn(ctx, settings)) return;
  const pac = pacOf(ctx);
  await enqueueNewWork(ctx, settings);
  await createDueReceipts(ctx, pac, settings);
  await recoverInvoicing(ctx, pac);
  await cancelVoidedReceipts(ctx, pac);
  await issueDueCreditNotes(ctx, pac, settings);
  await followCancellations(ctx, pac);
  await runGlobalInvoices(ctx, pac, settings);
}
