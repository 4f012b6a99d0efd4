import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { BadRequestError } from '../core/errors';
import { newId } from '../core/ids';
import { recordEvent } from '../events/events.api';
import { escposOf } from './escpos';
import * as jobs from './print-jobs.repo';
import { findPrinter, lockReceiptPrinter } from './printers.repo';
import { statusOfPrinter } from './printers.service';

/** The background job that sends print jobs, run every second. */
export const PRINT_JOBS = 'print-jobs';
export const PRINT_JOBS_INTERVAL_MS = 1000;

/** Removes finished jobs once nobody will look for them, hourly. */
export const PRUNE_PRINT_JOBS = 'print-jobs-prune';
export const PRUNE_PRINT_JOBS_INTERVAL_MS = 60 * 60_000;
/** Finished jobs stay listed for a month; their bytes would otherwise pile up for ever. */
export const FINISHED_JOB_RETENTION_MS = 30 * 24 * 60 * 60_000;
const PRUNED_PER_BATCH = 500;

/** Long enough for one send to finish or time out; after it, a crashed instance's claim lapses. */
const CLAIM_MS = 30_000;
const FIRST_RETRY_MS = 2000;
const MAX_RETRY_MS = 5 * 60_000;
/** About 8 hours of retries at the longest delay: a printer off overnight still gets the morning's jobs. */
const MAX_ATTEMPTS = 100;
/** Per printer and run, so one long queue does not hold the run forever. */
const MAX_JOBS_PER_RUN = 50;

export type NewPrintJob = {
  printerId: string;
  kind: 'receipt' | 'kitchen_chit';
  bytes: Uint8Array;
  /** A receipt's bill and the state it printed it in. */
  ticket?: { id: string; status: number };
  orderId?: string;
};

/**
 * Queues bytes for a printer inside the caller's transaction: the job exists exactly when the change
 * that asked for it commits, and the request never waits for (or fails because of) the printer.
 */
export async function enqueuePrintJob(trx: Db, job: NewPrintJob, now: number): Promise<string> {
  const id = newId();
  await jobs.insertPrintJob(trx, {
    id,
    printer_id: job.printerId,
    kind: job.kind,
    ticket_id: job.ticket?.id ?? null,
    ticket_status: job.ticket?.status ?? null,
    order_id: job.orderId ?? null,
    bytes: job.bytes,
    state: 'pending',
    next_attempt_at: now,
    claimed_until: null,
    last_error: null,
    created_at: now,
    printed_at: null,
  });
  return id;
}

export const NO_RECEIPT_PRINTER = 'No receipt printer is set up';

/**
 * Queues a report's paper (a Z report, a day report) on the receipt printer, laid out at that
 * printer's width. The printer stays locked until the caller's transaction commits, so it is not
 * deleted under the job.
 */
export async function enqueueOnReceiptPrinter(
  trx: Db,
  linesAt: (width: number) => string[],
  now: number,
): Promise<string> {
  const printer = await lockReceiptPrinter(trx);
  if (!printer) throw new BadRequestError(NO_RECEIPT_PRINTER);
  const width = Number(printer.width);
  return enqueuePrintJob(
    trx,
    { printerId: printer.id, kind: 'receipt', bytes: escposOf(linesAt(width), width) },
    now,
  );
}

/** Delay before attempt `attempts + 1`: doubling from 2 s, at most 5 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(attempts - 1, 0), MAX_RETRY_MS);
}

/** Sends every due job, printers in parallel, each printer's jobs in order. */
export async function sendDuePrintJobs(ctx: AppContext): Promise<void> {
  const printerIds = await jobs.printersWithUnfinishedJobs(ctx.db);
  await Promise.all(printerIds.map((printerId) => drainPrinter(ctx, printerId)));
}

async function drainPrinter(ctx: AppContext, printerId: string): Promise<void> {
  for (let sent = 0; sent < MAX_JOBS_PER_RUN; sent += 1) {
    const head = await jobs.findQueueHead(ctx.db, printerId);
    if (!head || !isClaimable(head, ctx.clock.now())) return;
    const attempts = Number(head.attempts);
    if (!(await jobs.claimJob(ctx.db, { id: head.id, attempts }, ctx.clock.now() + CLAIM_MS))) return;
    try {
      await ctx.printers({ host: head.host, port: Number(head.port) }, head.bytes);
    } catch (error) {
      await recordOutcome(ctx, printerId, (trx) =>
        recordFailure(trx, ctx, { id: head.id, attempts: attempts + 1 }, error),
      );
      // The printer is down: the rest of its queue waits behind this job.
      return;
    }
    await recordOutcome(ctx, printerId, (trx) => jobs.markPrinted(trx, head.id, ctx.clock.now()));
  }
}

/**
 * Stores an attempt's outcome and, when it turns the printer failing, ok again, or failing for another
 * reason, says so on the live stream in the same transaction: the kitchen and the till show it at once.
 */
async function recordOutcome(
  ctx: AppContext,
  printerId: string,
  record: (trx: Db) => Promise<void>,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const printer = await findPrinter(trx, printerId);
    if (!printer) return record(trx);
    const before = await statusOfPrinter(trx, printer);
    await record(trx);
    const after = await statusOfPrinter(trx, printer);
    if (before.state === after.state && before.problem === after.problem) return;
    await recordEvent(trx, { type: 'printer.status_changed', data: after, at: ctx.clock.now() });
  });
}

/** Due and not being sent, or being sent by an instance whose claim has lapsed. */
function isClaimable(head: jobs.QueueHead, now: number): boolean {
  if (head.state === 'sending') return Number(head.claimed_until) <= now;
  return Number(head.next_attempt_at) <= now;
}

async function recordFailure(
  trx: Db,
  ctx: AppContext,
  job: { id: string; attempts: number },
  error: unknown,
): Promise<void> {
  const isGivenUp = job.attempts >= MAX_ATTEMPTS;
  await jobs.markAttemptFailed(trx, job, {
    state: isGivenUp ? 'failed' : 'pending',
    nextAttemptAt: ctx.clock.now() + retryDelayMs(job.attempts),
    error: error instanceof Error ? error.message : String(error),
  });
}

/** Deletes finished jobs older than the retention, in small batches so no transaction runs long. */
export async function pruneFinishedPrintJobs(ctx: AppContext): Promise<void> {
  const before = ctx.clock.now() - FINISHED_JOB_RETENTION_MS;
  while ((await jobs.deleteFinishedJobs(ctx.db, before, PRUNED_PER_BATCH)) === PRUNED_PER_BATCH);
}
