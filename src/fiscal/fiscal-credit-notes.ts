import type { AppContext } from '../core/context';
import { fromCents } from '../core/money';
import { type Pac, type PacCustomer, type PacInvoice, PacRefusal, PacUnavailable } from '../core/pac';
import { recordEvent } from '../events/events.api';
import { loadSettings } from '../settings/settings.api';
import * as repo from './fiscal.repo';
import { folioOf } from './fiscal-common';
import { CLAIM_MS, IDEMPOTENCY_KEY_IN_USE, retryDelayMs } from './fiscal-receipts';
import type { FiscalSettings } from './fiscal-settings';
import { explainRefusal } from './pac-refusals';
import { creditNoteUse } from './sat-catalogs';

const BATCH = 20;
const NOT_STAMPED =
  'The SAT did not stamp this credit note: it is asked for again when the fiscal settings are saved';
/** Facturapi tries the SAT again every 10 minutes after a 202 (five times): asking sooner learns nothing. */
const STAMPING_RECOVERY_MS = 10 * 60_000;

/**
 * Credit notes (CFDI of type E) for refunds after invoicing: to the invoice's receiver, the bill's
 * payment form, related by 01 to the invoice's UUID (the global invoice's when the bill is in one). The
 * note's id is its idempotency key and external id, so a lost answer is found, not repeated; a note the
 * PAC is still stamping (its 202 `pending`) is read back until it is `valid` or `failed`.
 */
export async function issueDueCreditNotes(
  ctx: AppContext,
  pac: Pac,
  settings: FiscalSettings,
): Promise<void> {
  for (const note of await repo.dueCreditNotes(ctx.db, ctx.clock.now(), BATCH)) {
    const now = ctx.clock.now();
    if (!(await repo.claimCreditNote(ctx.db, note.id, now, now + CLAIM_MS))) continue;
    const attempts = Number(note.attempts) + 1;
    const doc = await repo.findDocument(ctx.db, note.ticket_id);
    const invoice = doc?.invoice_id ? await repo.findInvoice(ctx.db, doc.invoice_id) : undefined;
    if (!doc || !invoice) throw new Error(`Credit note ${note.id} has no invoice to relate to`);
    // The receiver the invoice went to: a guest, or the general public of a global invoice.
    const customer = JSON.parse(invoice.customer) as PacCustomer;
    try {
      const earlier = await pac.findInvoiceByExternalId(note.id).catch(() => undefined);
      // One the SAT never stamped is asked for again only once someone sets the note going again.
      if (earlier?.status === 'failed' && Number(note.attempts) > 0) {
        await failCreditNote(ctx, note, attempts, NOT_STAMPED);
        continue;
      }
      const issued =
        earlier && earlier.status !== 'failed'
          ? earlier
          : await pac.createInvoice({
              type: 'E',
              customer,
              use: creditNoteUse(customer.tax_system),
              payment_form: doc.payment_form ?? '01',
              items: [
                {
                  quantity: 1,
                  product: {
                    description: 'Devolución',
                    product_key: settings.productKey,
                    unit_key: settings.unitKey,
                    price: fromCents(Number(note.cents)),
                    tax_included: true,
                    taxes: [{ type: 'IVA', rate: (await loadSettings(ctx.db)).taxRateBasisPoints / 10_000 }],
                  },
                },
              ],
              related_documents: [{ relationship: '01', documents: [invoice.uuid] }],
              ...(settings.series !== '' && { series: settings.series }),
              external_id: note.id,
              // A new try after one the SAT never stamped: a key of its own, still found by the external id.
              idempotency_key: earlier ? `${note.id}.${earlier.id}` : note.id,
            });
      if (issued.status === 'pending') {
        await repo.updateCreditNote(ctx.db, note.id, {
          attempts,
          next_attempt_at: now + STAMPING_RECOVERY_MS,
          claimed_until: null,
          last_error: 'The PAC is still stamping this credit note (the SAT did not answer at once)',
        });
        continue;
      }
      if (issued.status === 'failed' || !issued.uuid) {
        await failCreditNote(ctx, note, attempts, NOT_STAMPED);
        continue;
      }
      await storeCreditNote(ctx, note, issued, customer, invoice.uuid, attempts);
    } catch (error) {
      if (
        error instanceof PacUnavailable ||
        (error instanceof PacRefusal && error.code === IDEMPOTENCY_KEY_IN_USE)
      ) {
        await repo.updateCreditNote(ctx.db, note.id, {
          attempts,
          next_attempt_at:
            now + retryDelayMs(attempts, error instanceof PacUnavailable ? error.retryAfterMs : undefined),
          claimed_until: null,
          last_error: error.message,
        });
        continue;
      }
      if (!(error instanceof PacRefusal)) throw error;
      await failCreditNote(ctx, note, attempts, `Credit note refused: ${explainRefusal(error)}`);
    }
  }
}

async function storeCreditNote(
  ctx: AppContext,
  note: repo.CreditNoteRow,
  issued: PacInvoice,
  customer: PacCustomer,
  relatedUuid: string,
  attempts: number,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const stored = await repo.storeInvoice(
      trx,
      {
        kind: 'credit_note',
        pacId: issued.id,
        uuid: issued.uuid as string,
        folio: folioOf(issued),
        customer,
        totalCents: Number(note.cents),
        ticketId: note.ticket_id,
        relatedUuid,
      },
      now,
    );
    await repo.updateCreditNote(trx, note.id, {
      state: 'issued',
      invoice_id: stored.id,
      attempts,
      claimed_until: null,
      last_error: null,
    });
    await recordEvent(trx, {
      type: 'fiscal.invoiced',
      data: {
        ticket_id: note.ticket_id,
        kind: 'credit_note',
        uuid: issued.uuid,
        total: fromCents(Number(note.cents)),
      },
      at: now,
    });
  });
}

/**
 * A credit note that will not be stamped: the refund is on no CFDI until someone acts, so the manager
 * hears of it on the live stream and sees it in the bill's CFDIs, not only in a column of a row.
 */
async function failCreditNote(
  ctx: AppContext,
  note: repo.CreditNoteRow,
  attempts: number,
  reason: string,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    await repo.updateCreditNote(trx, note.id, {
      state: 'failed',
      attempts,
      claimed_until: null,
      last_error: reason,
    });
    await recordEvent(trx, {
      type: 'fiscal.failed',
      data: { ticket_id: note.ticket_id, kind: 'credit_note', error: reason },
      at: now,
    });
  });
}
