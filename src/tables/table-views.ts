import type { TableRow } from './tables.repo';
import type { TableView } from './tables.schemas';

export function toTableView(row: TableRow): TableView {
  return { id: row.id, name: row.name, status: row.status, space_id: row.space_id, order_id: row.order_id };
}
