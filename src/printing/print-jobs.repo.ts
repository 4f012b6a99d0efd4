import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../core/db/database';
import type { Database, PrintJobState } from '../core/db/schema';
import type { Page } from '../core/paging';

export type PrintJobRow = Selectable<Database['print_jobs']>;
/** A job without its bytes, for lists. */
export type PrintJobSummary = Omit<PrintJobRow, 'bytes' | 'ticket_status'> & { size: number };
/** The first unfinished job of a printer, with where to send it. */
export type QueueHead = PrintJobRow & { host: string; port: number };

/** Written into the SQL (core/db/prepared.ts says why): the unfinished jobs' partial index matches them. */
const UNFINISHED = [sql.lit<PrintJobState>('pending'), sql.lit<PrintJobState>('sending')];

export async function insertPrintJob(db: Db, job: Insertable<Database['print_jobs']>): Promise<void> {
  await db.insertInto('print_jobs').values(job).execute();
}

/** Whether the bill's receipt was already queued for printing while the bill was in `status`. */
export async function hasReceiptJobInStatus(db: Db, ticketId: string, status: number): Promise<boolean> {
  const row = await db
    .selectFrom('print_jobs')
    .select('id')
    .where('ticket_id', '=', ticketId)
    .where('kind', '=', 'receipt')
    .where('ticket_status', '=', status)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export function listPrinterJobs(db: Db, printerId: string, page: Page): Promise<PrintJobSummary[]> {
  return db
    .selectFrom('print_jobs')
    .select([
      'id',
      'printer_id',
      'kind',
      'ticket_id',
      'order_id',
      'state',
      'attempts',
      'next_attempt_at',
      'claimed_until',
      'last_error',
      'created_at',
      'printed_at',
      sql<number>`length(bytes)`.as('size'),
    ])
    .where('printer_id', '=', printerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countPrinterJobs(db: Db, printerId: string): Promise<number> {
  const row = await db
    .selectFrom('print_jobs')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('printer_id', '=', printerId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function printersWithUnfinishedJobs(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('print_jobs')
    .select('printer_id')
    .distinct()
    .where('state', 'in', UNFINISHED)
    .execute();
  return rows.map((row) => row.printer_id);
}

/** A printer prints its jobs in the order they were made: only the oldest unfinished one may go. */
export function findQueueHead(db: Db, printerId: string): Promise<QueueHead | undefined> {
  return db
    .selectFrom('print_jobs')
    .innerJoin('printers', 'printers.id', 'print_jobs.printer_id')
    .selectAll('print_jobs')
    .select(['printers.host', 'printers.port'])
    .where('print_jobs.printer_id', '=', printerId)
    .where('print_jobs.state', 'in', UNFINISHED)
    .orderBy('print_jobs.created_at')
    .orderBy('print_jobs.id')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Takes the job for one sending attempt until `claimedUntil`. The attempt count read with the job is
 * the condition: of several instances that saw the same head, exactly one updates it.
 */
export async function claimJob(
  db: Db,
  job: { id: string; attempts: number },
  claimedUntil: number,
): Promise<boolean> {
  const result = await db
    .updateTable('print_jobs')
    .set({ state: 'sending', attempts: job.attempts + 1, claimed_until: claimedUntil })
    .where('id', '=', job.id)
    .where('attempts', '=', job.attempts)
    .where('state', 'in', UNFINISHED)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function markPrinted(db: Db, id: string, now: number): Promise<void> {
  await db
    .updateTable('print_jobs')
    .set({ state: 'printed', printed_at: now, claimed_until: null, last_error: null })
    .where('id', '=', id)
    .execute();
}

/**
 * After a failed attempt: back in the queue at `nextAttemptAt`, or given up on. Only while the attempt
 * is still the job's latest, so a slow instance never undoes a later claim.
 */
export async function markAttemptFailed(
  db: Db,
  job: { id: string; attempts: number },
  outcome: { state: 'pending' | 'failed'; nextAttemptAt: number; error: string },
): Promise<void> {
  await db
    .updateTable('print_jobs')
    .set({
      state: outcome.state,
      next_attempt_at: outcome.nextAttemptAt,
      last_error: outcome.error,
      claimed_until: null,
    })
    .where('id', '=', job.id)
    .where('state', '=', 'sending')
    .where('attempts', '=', job.attempts)
    .execute();
}

/** Deletes up to `limit` printed or failed jobs made before `before`; returns how many. */
export async function deleteFinishedJobs(db: Db, before: number, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('print_jobs')
    .where(
      'id',
      'in',
      db
        .selectFrom('print_jobs')
        .select('id')
        .where('created_at', '<', before)
        .where('state', 'in', ['printed', 'failed'])
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * What the queue knows of a printer's health: its latest attempt (jobs go in order, so that is the
 * newest job ever tried), how many jobs wait, and when the oldest still waiting was made.
 */
export async function printerQueueState(
  db: Db,
  printerId: string,
): Promise<{
  latest: { state: PrintJobRow['state']; last_error: string | null } | undefined;
  waiting: number;
  oldestWaitingAt: number | null;
}> {
  // A job waiting to be tried again says the printer fails now, whatever else it holds: jobs made in
  // the same millisecond have no order among them, so "the newest attempted job" could be a printed one.
  const retrying = await db
    .selectFrom('print_jobs')
    .select(['state', 'last_error'])
    .where('printer_id', '=', printerId)
    .where('state', 'in', UNFINISHED)
    .where('last_error', 'is not', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  const latest =
    retrying ??
    (await db
      .selectFrom('print_jobs')
      .select(['state', 'last_error'])
      .where('printer_id', '=', printerId)
      .where('attempts', '>', 0)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst());
  const waiting = await db
    .selectFrom('print_jobs')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('created_at').as('oldest')])
    .where('printer_id', '=', printerId)
    .where('state', 'in', UNFINISHED)
    .executeTakeFirstOrThrow();
  return {
    latest,
    waiting: Number(waiting.count),
    oldestWaitingAt: waiting.oldest === null ? null : Number(waiting.oldest),
  };
}
