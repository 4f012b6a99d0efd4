import type { Db } from '../core/db/database';
import { recordEvent } from '../events/events.api';
import { toTableView } from './table-views';
import type { TableRow } from './tables.repo';

/** A table as GET /tables/{id} shows it after the change, for the floor screens. */
export function recordTableEvent(
  trx: Db,
  type: 'table.created' | 'table.updated' | 'table.deleted',
  row: TableRow,
  now: number,
): Promise<void> {
  return recordEvent(trx, { type, data: toTableView(row), at: now });
}
