import { DateTime } from 'luxon';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { toCsv } from '../core/csv';
import type { Db } from '../core/db/database';
import { BadRequestError } from '../core/errors';
import { fromCents, taxShareCents } from '../core/money';
import { localDaysToRange } from '../core/time';
import { authorize } from '../permissions/permissions.api';
import { loadSettings } from '../settings/settings.api';
import * as repo from './fiscal.repo';
import type { FiscalReportQuery, FiscalReportRow } from './fiscal.schemas';
import { loadFiscalSettings } from './fiscal-settings';

type Sums = {
  bills: number;
  total: number;
  tips: number;
  invoiced: number;
  in_global: number;
  pending: number;
  failed: number;
  untracked: number;
  canceled: number;
};

const BUCKETS: Readonly<Record<string, keyof Sums>> = {
  invoiced: 'invoiced',
  in_global: 'in_global',
  failed: 'failed',
  pending: 'pending',
  receipt: 'pending',
  invoicing: 'pending',
  canceled: 'pending',
};

/**
 * Where a bill's money stands: by its CFDI's state first (an invoice or global invoice canceled and not
 * replaced covers nothing), then by its document's.
 */
function bucketOf(row: { state: string | null; invoice_status: string | null }): keyof Sums {
  if (row.state === null) return 'untracked';
  if (row.invoice_status === 'canceled' && (row.state === 'invoiced' || row.state === 'in_global')) {
    return 'canceled';
  }
  return BUCKETS[row.state] ?? 'pending';
}

/**
 * Per local day of payment: what the bills kept (refunds taken off, tips apart), with IVA backed out
 * at the restaurant's rate, and where each bill's money stands fiscally. Every bill's amount lands in
 * exactly one of the state columns, so they add up to the total.
 */
export async function fiscalReport(
  ctx: AppContext,
  principal: Principal,
  query: FiscalReportQuery,
): Promise<FiscalReportRow[]> {
  authorize(principal, 'reports.read');
  if (query.from > query.to) throw new BadRequestError('from must not be after to');
  return fiscalDays(ctx.db, query.from, query.to);
}

/**
 * The Z report's fiscal line for a day: how its sales stand at the PAC; null while e-invoicing has
 * never been on.
 */
export async function fiscalDay(db: Db, date: string): Promise<FiscalReportRow | null> {
  const fiscal = await loadFiscalSettings(db);
  if (fiscal.enabledSince === null) return null;
  const [row] = await fiscalDays(db, date, date);
  return row ?? { ...EMPTY_ROW, day: date };
}

const EMPTY_ROW = {
  bills: 0,
  total: 0,
  base: 0,
  iva: 0,
  tips: 0,
  invoiced: 0,
  in_global: 0,
  pending: 0,
  failed: 0,
  untracked: 0,
  canceled: 0,
};

async function fiscalDays(db: Db, from: string, to: string): Promise<FiscalReportRow[]> {
  const settings = await loadSettings(db);
  const range = localDaysToRange(from, to, settings.timeZone);
  const days = new Map<string, Sums>();
  for (const row of await repo.fiscalReportRows(db, range.from, range.to)) {
    const day = DateTime.fromMillis(Number(row.paid_at), { zone: settings.timeZone }).toISODate() ?? '';
    const sums = days.get(day) ?? {
      bills: 0,
      total: 0,
      tips: 0,
      invoiced: 0,
      in_global: 0,
      pending: 0,
      failed: 0,
      untracked: 0,
      canceled: 0,
    };
    const kept = Number(row.paid_cents);
    sums.bills += 1;
    sums.total += kept;
    sums.tips += Number(row.tips_cents);
    sums[bucketOf(row)] += kept;
    days.set(day, sums);
  }
  return [...days.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([day, sums]) => {
      const ivaCents = taxShareCents(sums.total, settings.taxRateBasisPoints, true);
      return {
        day,
        bills: sums.bills,
        total: fromCents(sums.total),
        base: fromCents(sums.total - ivaCents),
        iva: fromCents(ivaCents),
        tips: fromCents(sums.tips),
        invoiced: fromCents(sums.invoiced),
        in_global: fromCents(sums.in_global),
        pending: fromCents(sums.pending),
        failed: fromCents(sums.failed),
        untracked: fromCents(sums.untracked),
        canceled: fromCents(sums.canceled),
      };
    });
}

export function fiscalReportCsv(rows: readonly FiscalReportRow[]): string {
  return toCsv(rows, [
    'day',
    'bills',
    'total',
    'base',
    'iva',
    'tips',
    'invoiced',
    'in_global',
    'pending',
    'failed',
    'untracked',
    'canceled',
  ]);
}
