import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { isUniqueViolation } from '../core/db/locks';
import { BadRequestError, ConflictError, NotFoundError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import { newId } from '../core/ids';
import { totalFromLastPage } from '../core/paging';
import { toIsoUtc, toIsoUtcOrNull } from '../core/time';
import { authorize } from '../permissions/permissions.api';
import * as jobs from './print-jobs.repo';
import { OUT_OF_PAPER } from './printer-socket';
import * as printers from './printers.repo';
import type {
  PrinterBody,
  PrinterStatusView,
  PrinterView,
  PrintJobsQuery,
  PrintJobView,
} from './printers.schemas';

export const PRINTER_NAME_TAKEN = 'A printer with this name already exists';
export const STATION_NEEDS_KITCHEN = 'Only kitchen printers have a station';

export async function listPrinters(ctx: AppContext, principal: Principal): Promise<PrinterView[]> {
  authorize(principal, 'printers.manage');
  return (await printers.listPrinters(ctx.db)).map(toPrinterView);
}

export async function getPrinter(ctx: AppContext, principal: Principal, id: string): Promise<PrinterView> {
  authorize(principal, 'printers.manage');
  const row = await printers.findPrinter(ctx.db, id);
  if (!row) throw new NotFoundError();
  return toPrinterView(row);
}

export function createPrinter(
  ctx: AppContext,
  principal: Principal,
  input: PrinterBody,
  claim: IdempotencyClaim | undefined,
): Promise<string> {
  authorize(principal, 'printers.manage');
  const fields = printerFields(input);
  const id = newId();
  const now = ctx.clock.now();
  return inIdempotentTransaction(ctx.db, { claim, statusCode: 201, now }, async (trx) => {
    await refuseTakenName(() =>
      printers.insertPrinter(trx, { id, ...fields, created_at: now, updated_at: now }),
    );
    return id;
  });
}

export async function updatePrinter(
  ctx: AppContext,
  principal: Principal,
  id: string,
  input: PrinterBody,
): Promise<void> {
  authorize(principal, 'printers.manage');
  const fields = printerFields(input);
  const isFound = await refuseTakenName(() =>
    printers.updatePrinter(ctx.db, id, { ...fields, updated_at: ctx.clock.now() }),
  );
  if (!isFound) throw new NotFoundError();
}

/** Its queue goes with it: jobs for a printer that no longer exists have nowhere to go. */
export async function deletePrinter(ctx: AppContext, principal: Principal, id: string): Promise<void> {
  authorize(principal, 'printers.manage');
  if (!(await printers.deletePrinter(ctx.db, id))) throw new NotFoundError();
}

export async function listPrinterJobs(
  ctx: AppContext,
  principal: Principal,
  printerId: string,
  query: PrintJobsQuery,
): Promise<{ items: PrintJobView[]; totalCount: number }> {
  authorize(principal, 'printers.manage');
  if (!(await printers.findPrinter(ctx.db, printerId))) throw new NotFoundError();
  const rows = await jobs.listPrinterJobs(ctx.db, printerId, query);
  const totalCount =
    totalFromLastPage(query, rows.length) ?? (await jobs.countPrinterJobs(ctx.db, printerId));
  return { items: rows.map(toPrintJobView), totalCount };
}

/**
 * Whether each printer prints, for the screens of the kitchen and the till (who may not read the jobs):
 * failing while its latest attempt failed and that job still waits or was given up; ok again once a
 * job prints. The route's permission (any of the kitchen's, the till's) is the whole access check.
 */
export async function listPrinterStatus(ctx: AppContext): Promise<PrinterStatusView[]> {
  const rows = await printers.listPrinters(ctx.db);
  return Promise.all(rows.map((row) => statusOfPrinter(ctx.db, row)));
}

export async function statusOfPrinter(db: Db, row: printers.PrinterRow): Promise<PrinterStatusView> {
  const queue = await jobs.printerQueueState(db, row.id);
  const failure = queue.latest?.state === 'printed' ? null : (queue.latest?.last_error ?? null);
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    station: row.station,
    state: failure === null ? 'ok' : 'failing',
    problem: failure === null ? null : failure === OUT_OF_PAPER ? 'out_of_paper' : 'unreachable',
    last_error: failure,
    pending_jobs: queue.waiting,
    since: failure === null ? null : toIsoUtcOrNull(queue.oldestWaitingAt),
  };
}

function printerFields(input: PrinterBody) {
  const station = input.station?.trim() || null;
  if (station !== null && input.role !== 'kitchen') throw new BadRequestError(STATION_NEEDS_KITCHEN);
  return {
    name: input.name.trim(),
    host: input.host,
    port: input.port,
    role: input.role,
    station,
    width: input.width ?? 48,
  };
}

async function refuseTakenName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(PRINTER_NAME_TAKEN);
    throw error;
  }
}

function toPrinterView(row: printers.PrinterRow): PrinterView {
  return {
    id: row.id,
    name: row.name,
    host: row.host,
    port: Number(row.port),
    role: row.role,
    station: row.station,
    width: Number(row.width) as PrinterView['width'],
    created_at: toIsoUtc(Number(row.created_at)),
    updated_at: toIsoUtc(Number(row.updated_at)),
  };
}

function toPrintJobView(row: jobs.PrintJobSummary): PrintJobView {
  const isUnfinished = row.state === 'pending' || row.state === 'sending';
  return {
    id: row.id,
    printer_id: row.printer_id,
    kind: row.kind,
    ticket_id: row.ticket_id,
    order_id: row.order_id,
    state: row.state,
    attempts: Number(row.attempts),
    size: Number(row.size),
    next_attempt_at: isUnfinished ? toIsoUtc(Number(row.next_attempt_at)) : null,
    last_error: row.last_error,
    created_at: toIsoUtc(Number(row.created_at)),
    printed_at: toIsoUtcOrNull(row.printed_at),
  };
}
