import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { forUpdate } from '../core/db/locks';
import { TICKET_STATUS } from '../core/db/ticket-status';
import { newId } from '../core/ids';
import { type NewPacReceipt, type Pac, type PacReceipt, PacRefusal, PacUnavailable } from '../core/pac';
import { toIsoUtc } from '../core/time';
import { recordEvent } from '../events/events.api';
import { loadSettings } from '../settings/settings.api';
import { findBillModifiers, findBillPlates } from '../tickets/tickets.api';
import * as repo from './fiscal.repo';
import { type FiscalSettings, isFiscalOn, loadFiscalSettings } from './fiscal-settings';
import { explainRefusal } from './pac-refusals';
import { visitReceipts } from './pac-windows';
import { itemsTaxCents, type Plate, receiptItems } from './receipt-items';

/** Longer than a call to the PAC may take; after it, a crashed instance's claim lapses. */
export const CLAIM_MS = 60_000;
/** How far back each run looks for paid bills and refunds: longer than any transaction that writes one. */
export const SCAN_MARGIN_MS = 10 * 60_000;
const BATCH = 20;
export const IDEMPOTENCY_KEY_IN_USE = 'idempotency_key_in_use';

/** The context's PAC: callers check first that e-invoicing is on, which needs POS_PAC_KEY. */
export function pacOf(ctx: AppContext): Pac {
  if (ctx.pac === undefined) throw new Error('pacOf called without POS_PAC_KEY');
  return ctx.pac;
}

/** Doubling from 5 s, at most 30 minutes; a 429's Retry-After when it asks for longer. */
export function retryDelayMs(attempts: number, asked?: number): number {
  return Math.max(Math.min(5000 * 2 ** Math.max(attempts - 1, 0), 30 * 60_000), asked ?? 0);
}

/**
 * New work since the last run: a document for each newly paid bill, and the credit notes that
 * refunds of invoiced bills owe. The scan starts a margin before where the last one stopped, so a
 * payment committed late is still seen; inserts are idempotent.
 */
export async function enqueueNewWork(ctx: AppContext, settings: FiscalSettings): Promise<void> {
  const now = ctx.clock.now();
  const since = Math.max(settings.enabledSince ?? now, (settings.scannedThrough ?? now) - SCAN_MARGIN_MS);
  await repo.enqueuePaidBills(ctx.db, { since }, now);
  await recordOwedCredits(ctx.db, since, [], now);
  await repo.setScannedThrough(ctx.db, now);
}

/**
 * A credit note for what a bill in an invoice had refunded beyond its receipt and earlier credit
 * notes. The document is locked while it is counted, so two instances never both owe the same money.
 */
export async function recordOwedCredits(
  db: Db,
  since: number,
  ticketIds: readonly string[],
  now: number,
): Promise<void> {
  for (const candidate of await repo.billsOwingCredit(db, since, ticketIds)) {
    if (Number(candidate.owed) <= 0) continue;
    await db.transaction().execute(async (trx) => {
      await forUpdate(
        trx,
        trx.selectFrom('fiscal_documents').select('ticket_id').where('ticket_id', '=', candidate.ticket_id),
      ).execute();
      const [fresh] = await repo.billsOwingCredit(trx, Number.MAX_SAFE_INTEGER, [candidate.ticket_id]);
      const owed = Number(fresh?.owed ?? 0);
      if (owed <= 0) return;
      await repo.insertCreditNote(trx, {
        id: newId(),
        ticket_id: candidate.ticket_id,
        cents: owed,
        state: 'pending',
        invoice_id: null,
        next_attempt_at: now,
        claimed_until: null,
        last_error: null,
        created_at: now,
      });
      await repo.addCredited(trx, candidate.ticket_id, owed, now);
    });
  }
}

export async function createDueReceipts(ctx: AppContext, pac: Pac, settings: FiscalSettings): Promise<void> {
  for (const doc of await repo.dueDocuments(ctx.db, 'pending', ctx.clock.now(), BATCH)) {
    await makeReceipt(ctx, pac, settings, doc);
  }
}

/**
 * Turns a pending document into its receipt at the PAC, exactly once: the bill's id is the receipt's
 * idempotency key, and when the PAC says the key is taken (our earlier call did the work but its
 * answer was lost, or the process died before the commit) the receipt is found by its `external_id`
 * among the receipts of the payment's date and adopted. True when the document has its receipt.
 */
export async function makeReceipt(
  ctx: AppContext,
  pac: Pac,
  settings: FiscalSettings,
  doc: repo.FiscalDocumentRow,
): Promise<boolean> {
  const now = ctx.clock.now();
  const claimed = await repo.claimDocument(
    ctx.db,
    { ticketId: doc.ticket_id, state: 'pending' },
    { now, until: now + CLAIM_MS },
  );
  if (!claimed) return false;
  const attempts = Number(doc.attempts) + 1;
  try {
    const built = await buildReceipt(ctx.db, settings, doc.ticket_id);
    if (built === 'voided') {
      await repo.updateDocument(ctx.db, doc.ticket_id, {
        state: 'canceled',
        claimed_until: null,
        updated_at: now,
      });
      return false;
    }
    const receipt = await createOrAdopt(pac, built.body, Number(doc.paid_at));
    if (!receipt) {
      await retryLater(ctx, doc.ticket_id, attempts, 'The PAC holds the key but lists no receipt yet');
      return false;
    }
    await ctx.db.transaction().execute(async (trx) => {
      await repo.updateDocument(trx, doc.ticket_id, {
        state: 'receipt',
        receipt_id: receipt.id,
        payment_form: built.body.payment_form,
        self_invoice_url: receipt.self_invoice_url ?? null,
        expires_at: receipt.expires_at ? Date.parse(receipt.expires_at) : null,
        receipt_cents: Math.round(receipt.total * 100),
        attempts,
        claimed_until: null,
        last_error: null,
        updated_at: ctx.clock.now(),
      });
      await recordEvent(trx, {
        type: 'fiscal.receipt_created',
        data: {
          ticket_id: doc.ticket_id,
          receipt_id: receipt.id,
          total: receipt.total,
          self_invoice_url: receipt.self_invoice_url ?? null,
        },
        at: ctx.clock.now(),
      });
    });
    return true;
  } catch (error) {
    if (error instanceof PacUnavailable) {
      await retryLater(ctx, doc.ticket_id, attempts, error.message, error.retryAfterMs);
      return false;
    }
    const reason = error instanceof PacRefusal ? explainRefusal(error) : (error as Error).message;
    if (!(error instanceof PacRefusal || error instanceof ReceiptBlocked)) throw error;
    await failDocument(ctx, doc.ticket_id, attempts, reason);
    return false;
  }
}

/** How long printing a paid receipt waits for its receipt at the PAC, so paper can carry its link. */
const BEFORE_PAPER_TIMEOUT_MS = 3000;

/**
 * Makes a just-paid bill's receipt now rather than at the job's next run, so the paid receipt printed
 * right after the payment carries the self-invoice link. Paper never waits longer than a moment for it,
 * and never fails for it: the job makes the receipt anyway.
 */
export async function receiptBeforePaper(ctx: AppContext, ticketId: string): Promise<void> {
  const settings = await loadFiscalSettings(ctx.db);
  if (!isFiscalOn(ctx, settings) || settings.enabledSince === null) return;
  await repo.enqueuePaidBills(ctx.db, { since: settings.enabledSince, ticketId }, ctx.clock.now());
  const doc = await repo.findDocument(ctx.db, ticketId);
  if (doc?.state !== 'pending') return;
  const pac = pacOf(ctx).withTimeout(Math.min(ctx.config.pac.timeoutMs, BEFORE_PAPER_TIMEOUT_MS));
  // A receipt that could not be made now is the job's again; the ticket prints without its link.
  await makeReceipt(ctx, pac, settings, doc).catch(() => undefined);
}

/**
 * The card terminal knows whether the card was credit or debit, and SAT's catalogue tells them apart:
 * 04 tarjeta de crédito, 28 tarjeta de débito. Where the type is unknown the method's setting decides.
 */
const CARD_TYPE_FORMS: Readonly<Record<string, string>> = { credit: '04', debit: '28' };

/** A setting stands in the way (a payment method without its SAT form): the manager must act. */
class ReceiptBlocked extends Error {}

export async function buildReceipt(
  db: Db,
  settings: FiscalSettings,
  ticketId: string,
): Promise<{ body: NewPacReceipt } | 'voided'> {
  const bill = await repo.findBill(db, ticketId);
  if (!bill) throw new Error(`The bill ${ticketId} of a fiscal document is missing`);
  const paidCents = Number(bill.paid_cents);
  if (Number(bill.status) === TICKET_STATUS.canceled || paidCents <= 0) return 'voided';
  const shares = await repo.findBillPaymentShares(db, ticketId);
  const largest = [...shares].sort(
    (a, b) => Number(b.cents) - Number(a.cents) || a.method.localeCompare(b.method),
  )[0];
  const method = largest?.method ?? 'cash';
  const paymentForm = CARD_TYPE_FORMS[largest?.card_type ?? ''] ?? settings.paymentForms[method];
  if (paymentForm === undefined) {
    throw new ReceiptBlocked(
      `The payment method ${method} has no SAT payment form: choose one in the fiscal settings (payment_forms)`,
    );
  }
  const plates = await billPlates(db, settings.productKey, ticketId);
  const business = await loadSettings(db);
  return {
    body: {
      items: receiptItems(plates, paidCents, {
        taxRate: business.taxRateBasisPoints / 10_000,
        unitKey: settings.unitKey,
        defaultProductKey: settings.productKey,
        sku: ticketId,
      }),
      payment_form: paymentForm,
      date: toIsoUtc(Number(bill.paid_at)),
      external_id: ticketId,
      idempotency_key: ticketId,
    },
  };
}

/** The bill's plates as its CFDI's items see them: voided ones left off, options named, product keys. */
async function billPlates(db: Db, defaultProductKey: string, ticketId: string): Promise<Plate[]> {
  const optionsOf = new Map<string, string[]>();
  for (const option of await findBillModifiers(db, ticketId)) {
    optionsOf.set(option.order_dish_id, [...(optionsOf.get(option.order_dish_id) ?? []), option.name]);
  }
  return (await findBillPlates(db, ticketId))
    .filter((plate) => plate.status !== 'voided')
    .map((plate) => ({
      id: plate.id,
      name: plate.name,
      priceCents: Number(plate.price_cents),
      productKey: plate.dish_product_key ?? plate.category_product_key ?? defaultProductKey,
      options: optionsOf.get(plate.id) ?? [],
    }));
}

/**
 * The IVA within `totalCents` of a bill whose prices include it, as its CFDI will state it: line by
 * line, as the PAC breaks tax-included prices down, so the ticket and the invoice show the same figure
 * (the IVA of the total alone can differ by a cent from the sum of the lines').
 */
export async function includedTaxCents(
  db: Db,
  ticketId: string,
  totalCents: number,
  taxRateBasisPoints: number,
): Promise<number> {
  const { productKey, unitKey } = await loadFiscalSettings(db);
  const items = receiptItems(await billPlates(db, productKey, ticketId), totalCents, {
    taxRate: taxRateBasisPoints / 10_000,
    unitKey,
    defaultProductKey: productKey,
    sku: ticketId,
  });
  return itemsTaxCents(items, taxRateBasisPoints);
}

async function createOrAdopt(pac: Pac, body: NewPacReceipt, paidAt: number): Promise<PacReceipt | undefined> {
  try {
    return await pac.createReceipt(body);
  } catch (error) {
    if (!(error instanceof PacRefusal && error.code === IDEMPOTENCY_KEY_IN_USE)) throw error;
    return findReceipt(pac, body.external_id, paidAt);
  }
}

/** Our receipt of a bill among the PAC's receipts of the day around its payment. */
export async function findReceipt(
  pac: Pac,
  ticketId: string,
  paidAt: number,
): Promise<PacReceipt | undefined> {
  const day = 24 * 60 * 60_000;
  let mine: PacReceipt | undefined;
  await visitReceipts(pac, { from: paidAt - day, to: paidAt + day }, 'UTC', (receipt) => {
    if (receipt.external_id === ticketId) mine = receipt;
    return mine !== undefined;
  });
  return mine;
}

async function retryLater(
  ctx: AppContext,
  ticketId: string,
  attempts: number,
  error: string,
  askedMs?: number,
): Promise<void> {
  const now = ctx.clock.now();
  await repo.updateDocument(ctx.db, ticketId, {
    attempts,
    next_attempt_at: now + retryDelayMs(attempts, askedMs),
    claimed_until: null,
    last_error: error,
    updated_at: now,
  });
}

async function failDocument(
  ctx: AppContext,
  ticketId: string,
  attempts: number,
  reason: string,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    await repo.updateDocument(trx, ticketId, {
      state: 'failed',
      attempts,
      claimed_until: null,
      last_error: reason,
      updated_at: now,
    });
    await recordEvent(trx, { type: 'fiscal.failed', data: { ticket_id: ticketId, error: reason }, at: now });
  });
}

/** A bill canceled or refunded in full before it was invoiced: its receipt is canceled at the PAC. */
export async function cancelVoidedReceipts(ctx: AppContext, pac: Pac): Promise<void> {
  for (const doc of await repo.receiptsOfVoidedBills(ctx.db, BATCH)) {
    const now = ctx.clock.now();
    const claimed = await repo.claimDocument(
      ctx.db,
      { ticketId: doc.ticket_id, state: 'receipt' },
      { now, until: now + CLAIM_MS },
    );
    if (!claimed || doc.receipt_id === null) continue;
    try {
      await pac.cancelReceipt(doc.receipt_id);
    } catch (error) {
      // Canceled already (our answer was lost) or taken into an invoice meanwhile: read what it is.
      if (!(error instanceof PacRefusal)) {
        await repo.updateDocument(ctx.db, doc.ticket_id, { claimed_until: null, last_error: String(error) });
        continue;
      }
    }
    const receipt = await pac.getReceipt(doc.receipt_id).catch(() => undefined);
    await repo.updateDocument(ctx.db, doc.ticket_id, {
      state: receipt?.status === 'canceled' ? 'canceled' : 'receipt',
      claimed_until: receipt?.status === 'canceled' ? null : now + retryDelayMs(1),
      updated_at: now,
    });
  }
}
