import { DateTime } from 'luxon';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { BadRequestError, ConflictError, ServiceUnavailableError } from '../core/errors';
import { type Pac, type PacInvoice, PacRefusal, PacUnavailable } from '../core/pac';
import { localDaysToRange } from '../core/time';
import { recordEvent } from '../events/events.api';
import { authorize } from '../permissions/permissions.api';
import { loadSettings } from '../settings/settings.api';
import * as repo from './fiscal.repo';
import type { GlobalInvoiceBody, GlobalPeriodView, InvoiceView } from './fiscal.schemas';
import {
  customerOf,
  folioOf,
  PAC_UNAVAILABLE,
  recordCustomerInvoice,
  requireFiscal,
  stampedUuid,
  toInvoiceView,
} from './fiscal-common';
import { CLAIM_MS, pacOf, recordOwedCredits, retryDelayMs } from './fiscal-receipts';
import type { FiscalSettings } from './fiscal-settings';
import { explainRefusal } from './pac-refusals';
import { pacInstant, visitReceipts, type Window, windowsOf } from './pac-windows';
import { type GlobalPeriodicity, generalPublic } from './sat-catalogs';

/** The SAT's limit for a global invoice after its period closes (RMF 2022, rule 2.7.1.21). */
export const GLOBAL_DEADLINE_MS = 72 * 60 * 60_000;
/** A period waits this long after it closes for its last receipts before it is invoiced anyway. */
const RECEIPTS_GRACE_MS = 48 * 60 * 60_000;
/** Periods whose close is this recent are created by the job; older ones are past the SAT's limit. */
const LOOK_BACK_MS = 8 * 24 * 60 * 60_000;
export const NO_OPEN_RECEIPTS = 'No open receipts in this period';

export type Period = { start: string; end: string; fromAt: number; toAt: number };

/** The period of `periodicity` that holds the instant, in the restaurant's zone: [fromAt, toAt). */
export function periodAt(periodicity: GlobalPeriodicity, at: number, timeZone: string): Period {
  const local = DateTime.fromMillis(at, { zone: timeZone });
  let first: DateTime;
  let next: DateTime;
  switch (periodicity) {
    case 'day':
      first = local.startOf('day');
      next = first.plus({ days: 1 });
      break;
    case 'week':
      first = local.startOf('week');
      next = first.plus({ weeks: 1 });
      break;
    case 'fortnight':
      first = local.day <= 15 ? local.startOf('month') : local.startOf('month').set({ day: 16 });
      next =
        local.day <= 15
          ? local.startOf('month').set({ day: 16 })
          : local.startOf('month').plus({ months: 1 });
      break;
    default:
      first = local.startOf('month');
      next = first.plus({ months: 1 });
  }
  return {
    start: first.toISODate() ?? '',
    end: next.minus({ days: 1 }).toISODate() ?? '',
    fromAt: first.toMillis(),
    toAt: next.toMillis(),
  };
}

/** Periods that closed after `since` and by `now`, oldest first. */
export function closedPeriods(
  periodicity: GlobalPeriodicity,
  since: number,
  now: number,
  timeZone: string,
): Period[] {
  const periods: Period[] = [];
  for (let period = periodAt(periodicity, since, timeZone); period.toAt <= now; ) {
    if (period.toAt > since) periods.push(period);
    period = periodAt(periodicity, period.toAt, timeZone);
  }
  return periods;
}

function lateMessage(period: { period_end: string }): string {
  return `The SAT allows a global invoice until 72 hours after its period closes; this period closed on ${period.period_end}`;
}

/** The job's part: each closed period gets its row, and due ones are invoiced (a late start catches up at once). */
export async function runGlobalInvoices(ctx: AppContext, pac: Pac, settings: FiscalSettings): Promise<void> {
  const now = ctx.clock.now();
  const { timeZone } = await loadSettings(ctx.db);
  const since = Math.max(settings.enabledSince ?? now, now - LOOK_BACK_MS);
  for (const period of closedPeriods(settings.globalPeriodicity, since, now, timeZone)) {
    const isLate = now > period.toAt + GLOBAL_DEADLINE_MS;
    await repo.insertPeriodIfMissing(ctx.db, {
      period_start: period.start,
      period_end: period.end,
      periodicity: settings.globalPeriodicity,
      from_at: period.fromAt,
      to_at: period.toAt,
      state: isLate ? 'refused' : 'due',
      invoice_id: null,
      next_attempt_at: now,
      claimed_until: null,
      last_error: isLate ? lateMessage({ period_end: period.end }) : null,
      updated_at: now,
    });
  }
  for (const row of await repo.duePeriods(ctx.db, now)) {
    await issuePeriod(ctx, pac, settings, row, false);
  }
}

type Issued = { kind: 'issued'; invoice: InvoiceView } | { kind: 'empty' } | { kind: 'waiting' | 'busy' };

/** What one global invoice may take (Facturapi's `global_invoice_too_many_items`: 5,000 concepts). */
const GLOBAL_MAX_RECEIPTS = 5000;

/**
 * Asks the PAC for the period's global invoice, in as many parts as its receipts need: each part a
 * date range inside the period holding at most 5,000 receipts. Nothing is asked when none of our
 * receipts of the period is open. That call takes no idempotency key, so a retry first reads the
 * part's receipts back: one invoiced globally by an invoice we have not recorded names it.
 */
async function issuePeriod(
  ctx: AppContext,
  pac: Pac,
  settings: FiscalSettings,
  row: repo.GlobalPeriodRow,
  byHand: boolean,
): Promise<Issued> {
  const now = ctx.clock.now();
  const toAt = Number(row.to_at);
  const fromAt = Number(row.from_at);
  if (now > toAt + GLOBAL_DEADLINE_MS) {
    await repo.updatePeriod(ctx.db, row.period_start, {
      state: 'refused',
      last_error: lateMessage(row),
      updated_at: now,
    });
    throw new BadRequestError(lateMessage(row));
  }
  if (!(await repo.claimPeriod(ctx.db, row.period_start, now, now + CLAIM_MS))) return { kind: 'busy' };
  if (!byHand && now < toAt + RECEIPTS_GRACE_MS && (await repo.hasUnsettledDocuments(ctx.db, fromAt, toAt))) {
    await repo.updatePeriod(ctx.db, row.period_start, {
      state: 'due',
      claimed_until: null,
      next_attempt_at: now + 60_000,
    });
    return { kind: 'waiting' };
  }
  const attempts = Number(row.attempts) + 1;
  const { timeZone } = await loadSettings(ctx.db);
  try {
    const issued: InvoiceView[] = [];
    if (await repo.hasOpenReceipts(ctx.db, fromAt, toAt)) {
      const window = { from: fromAt, to: toAt - 1 };
      for (const part of await windowsOf(pac, window, GLOBAL_MAX_RECEIPTS, timeZone)) {
        if (!(await repo.hasOpenReceipts(ctx.db, part.from, part.to + 1))) continue;
        const claimedAt = ctx.clock.now();
        await repo.updatePeriod(ctx.db, row.period_start, { claimed_until: claimedAt + CLAIM_MS });
        const range = { from: pacInstant(part.from, timeZone), to: pacInstant(part.to, timeZone) };
        const earlier =
          Number(row.attempts) > 0 ? await unrecordedGlobalOf(ctx, pac, part, timeZone) : undefined;
        const invoice =
          earlier ??
          (await pac.globalInvoice({
            periodicity: row.periodicity,
            ...range,
            ...(settings.series !== '' && { series: settings.series }),
          }));
        if (invoice === null) continue;
        const view = await recordGlobal(ctx, row, invoice, settings);
        await takeReceipts(ctx, pac, part, timeZone, invoice.id, view.id);
        issued.push(view);
      }
    }
    const [first] =
      issued.length > 0
        ? issued
        : await repo.globalInvoicesOfPeriod(ctx.db, row.period_start).then((rows) => rows.map(toInvoiceView));
    await repo.updatePeriod(ctx.db, row.period_start, {
      state: first ? 'issued' : 'empty',
      attempts,
      claimed_until: null,
      last_error: null,
      updated_at: ctx.clock.now(),
    });
    return first ? { kind: 'issued', invoice: first } : { kind: 'empty' };
  } catch (error) {
    const isRefusal = error instanceof PacRefusal;
    if (!(isRefusal || error instanceof PacUnavailable)) throw error;
    const reason = isRefusal ? explainRefusal(error) : error.message;
    await repo.updatePeriod(ctx.db, row.period_start, {
      state: 'due',
      attempts,
      claimed_until: null,
      next_attempt_at: now + (isRefusal ? 60 * 60_000 : retryDelayMs(attempts, error.retryAfterMs)),
      last_error: reason,
      updated_at: now,
    });
    if (byHand) throw isRefusal ? new BadRequestError(reason) : new ServiceUnavailableError(PAC_UNAVAILABLE);
    return { kind: 'waiting' };
  }
}

/** A global invoice an earlier call made for this part, found through its receipts; none we know already. */
async function unrecordedGlobalOf(
  ctx: AppContext,
  pac: Pac,
  part: Window,
  timeZone: string,
): Promise<PacInvoice | undefined> {
  let found: string | undefined;
  await visitReceipts(pac, part, timeZone, async (receipt) => {
    if (receipt.status !== 'invoiced_globally' || !receipt.invoice) return false;
    if (await repo.findInvoiceByPacId(ctx.db, receipt.invoice)) return false;
    found = receipt.invoice;
    return true;
  });
  return found === undefined ? undefined : pac.getInvoice(found);
}

/** One global invoice of the period, kept; the period names its first. */
async function recordGlobal(
  ctx: AppContext,
  row: repo.GlobalPeriodRow,
  invoice: PacInvoice,
  settings: FiscalSettings,
): Promise<InvoiceView> {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const stored = await repo.storeInvoice(
      trx,
      {
        kind: 'global',
        pacId: invoice.id,
        uuid: stampedUuid(invoice),
        folio: folioOf(invoice),
        customer: generalPublic(settings.postalCode),
        totalCents: Math.round(invoice.total * 100),
        period: { start: row.period_start, end: row.period_end },
      },
      now,
    );
    await repo.namePeriodInvoice(trx, row.period_start, stored.id);
    const view = toInvoiceView(stored);
    await recordEvent(trx, { type: 'fiscal.global_invoiced', data: view, at: now });
    return view;
  });
}

/**
 * The part's receipts as the PAC now has them: those in this global invoice, and those the guest
 * invoiced on the self-invoice portal, change state here; refunds they had owe their credit notes. A
 * bill already invoiced to a customer keeps that invoice, whatever list the PAC puts its receipt in.
 */
async function takeReceipts(
  ctx: AppContext,
  pac: Pac,
  part: Window,
  timeZone: string,
  pacInvoiceId: string,
  invoiceId: string,
): Promise<void> {
  const taken: string[] = [];
  await visitReceipts(pac, part, timeZone, async (receipt) => {
    const doc = await repo.findDocumentByReceipt(ctx.db, receipt.id);
    if (!doc || (doc.state !== 'receipt' && doc.state !== 'invoicing')) return false;
    if (receipt.status === 'invoiced_globally' && receipt.invoice === pacInvoiceId) {
      await repo.updateDocument(ctx.db, doc.ticket_id, {
        state: 'in_global',
        invoice_id: invoiceId,
        claimed_until: null,
        updated_at: ctx.clock.now(),
      });
      taken.push(doc.ticket_id);
    } else if (receipt.status === 'invoiced_to_customer' && receipt.invoice) {
      const invoice = await pac.getInvoice(receipt.invoice);
      await recordCustomerInvoice(ctx, doc.ticket_id, invoice, customerOf(invoice));
      taken.push(doc.ticket_id);
    }
    return false;
  });
  if (taken.length > 0) await recordOwedCredits(ctx.db, Number.MAX_SAFE_INTEGER, taken, ctx.clock.now());
}

/** `POST /invoices/global`: the global invoice of the given local dates, now. */
export async function issueGlobalByHand(
  ctx: AppContext,
  principal: Principal,
  body: GlobalInvoiceBody,
): Promise<InvoiceView> {
  authorize(principal, 'invoices.write');
  const settings = await requireFiscal(ctx);
  if (body.from > body.to) throw new BadRequestError('from must not be after to');
  const { timeZone } = await loadSettings(ctx.db);
  const range = localDaysToRange(body.from, body.to, timeZone);
  const now = ctx.clock.now();
  if (range.to > now) throw new BadRequestError('The period has not closed yet');
  await repo.insertPeriodIfMissing(ctx.db, {
    period_start: body.from,
    period_end: body.to,
    periodicity: settings.globalPeriodicity,
    from_at: range.from,
    to_at: range.to,
    state: 'due',
    invoice_id: null,
    next_attempt_at: now,
    claimed_until: null,
    last_error: null,
    updated_at: now,
  });
  const row = await repo.findPeriod(ctx.db, body.from);
  if (!row || row.period_end !== body.to) {
    throw new ConflictError(`Another global-invoice period starts on ${body.from}`);
  }
  if (row.state === 'issued') throw new ConflictError('This period already has its global invoice');
  if (row.state === 'empty') await repo.updatePeriod(ctx.db, row.period_start, { state: 'due' });
  const issued = await issuePeriod(ctx, pacOf(ctx), settings, { ...row, state: 'due' }, true);
  if (issued.kind === 'issued') return issued.invoice;
  if (issued.kind === 'empty') throw new BadRequestError(NO_OPEN_RECEIPTS);
  throw new ConflictError('The global invoice of this period is being issued');
}

export async function listGlobalPeriods(ctx: AppContext): Promise<GlobalPeriodView[]> {
  const rows = await repo.listPeriods(ctx.db, 24);
  return Promise.all(
    rows.map(async (row) => {
      const invoices = (await repo.globalInvoicesOfPeriod(ctx.db, row.period_start)).map(toInvoiceView);
      const invoice = row.invoice_id ? await repo.findInvoice(ctx.db, row.invoice_id) : undefined;
      return {
        period_start: row.period_start,
        period_end: row.period_end,
        periodicity: row.periodicity,
        state: row.state,
        invoice: invoice ? toInvoiceView(invoice) : null,
        invoices,
        error: row.last_error,
      };
    }),
  );
}
