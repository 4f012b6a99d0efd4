/** What the other features may use of tables: the rest of src/tables/ is its own (docs/architecture.md). */
export { recordTableEvent } from './table-events';
export type { TableRow } from './tables.repo';
export { findLiveTable } from './tables.repo';
