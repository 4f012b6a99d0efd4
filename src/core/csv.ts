import { stringify } from 'csv-stringify/sync';

/** What a spreadsheet runs as a formula when a cell starts with it (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell a spreadsheet would run as a formula (a dish named `=HYPERLINK(…)`), made inert with a
 * leading `'`, which spreadsheets show as text and do not display.
 */
function inertCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * Rows as CSV with a header: the one way the API writes CSV, so every export is safe from formula
 * injection. Only text cells are escaped: numbers are written as numbers (a refund of −12.5 stays
 * `-12.5`, a figure the spreadsheet sums), and a number is data, never a formula; names and other
 * free text are what a user typed and may be anything.
 */
export function toCsv<Row extends object>(
  rows: readonly Row[],
  columns: readonly (keyof Row & string)[],
): string {
  return stringify(rows as Row[], { header: true, columns: [...columns], cast: { string: inertCell } });
}
