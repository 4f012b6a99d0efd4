import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { toCsv } from '../core/csv';
import { fromBase } from '../inventory/inventory.api';
import { authorize } from '../permissions/permissions.api';
import { inventoryRows } from './inventory-report.repo';
import type { InventoryQuery, InventoryReport, InventoryRow } from './reports.schemas';
import { reportPeriod } from './reports.service';

const FIGURES = [
  'opening',
  'sales',
  'void_returns',
  'waste',
  'receiving',
  'adjustments',
  'counts',
  'closing',
] as const;

/**
 * Each item's stock at the start and end of the local days and its movements between, by reason. The
 * figures add up in base units and are converted last, so opening + movements = closing exactly in
 * the item's unit too.
 */
export async function inventoryReport(
  ctx: AppContext,
  principal: Principal,
  query: InventoryQuery,
): Promise<InventoryReport> {
  authorize(principal, 'inventory.read');
  const period = await reportPeriod(ctx, query);
  const rows = await inventoryRows(ctx.db, period);
  return {
    from: query.from,
    to: query.to,
    items: rows.map((row) => {
      const item: InventoryRow = { ...row };
      for (const figure of FIGURES) item[figure] = fromBase(row.item_type, row[figure]);
      return item;
    }),
  };
}

const CSV_COLUMNS = ['item_type', 'item_id', 'name', 'unit', ...FIGURES] as const;

export function inventoryCsv(report: InventoryReport): string {
  return toCsv(report.items, CSV_COLUMNS);
}
