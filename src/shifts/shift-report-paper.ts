import { shortCode } from '../core/ids';
import { toCents } from '../core/money';
import {
  centered,
  formatCount,
  formatPaperDateTime,
  indented,
  moneyFormatter,
  pair,
  paperWords,
  type ReportPaperSetup,
  reportMethodName,
  rule,
  wrap,
} from '../printing/printing.api';
import type { ShiftReport } from './shifts.schemas';

/**
 * The Z report on the receipt printer: the key figures of GET /shifts/{id}/report in lines of at
 * most `width` characters. An open shift's is headed as a corte X, so a mid-shift print is never
 * taken for the closing one.
 */
export function shiftReportLines(report: ShiftReport, setup: ReportPaperSetup, width: number): string[] {
  const words = paperWords(setup.locale);
  const money = moneyFormatter(setup.locale, setup.currency);
  const amount = (value: number) => money(toCents(value));
  const when = (iso: string) => formatPaperDateTime(setup.locale, Date.parse(iso), setup.timeZone);
  const { shift } = report;
  const cash = [
    ...(report.expected_cash === null ? [] : pair(words.expectedCash, amount(report.expected_cash), width)),
    ...(report.counted_cash === null ? [] : pair(words.countedCash, amount(report.counted_cash), width)),
    ...(report.difference === null ? [] : pair(words.difference, amount(report.difference), width)),
  ];
  return [
    ...(setup.businessName ? centered(setup.businessName, width) : []),
    ...centered(shift.status === 'open' ? words.zReportSoFar : words.zReport, width),
    rule(width),
    ...wrap(`${words.shift} ${shortCode(shift.id)}`, width),
    ...wrap(`${words.cashier} ${shift.user_name}`, width),
    ...wrap(`${words.opened} ${when(shift.opened_at)}`, width),
    ...(shift.closed_at === null ? [] : wrap(`${words.closed} ${when(shift.closed_at)}`, width)),
    ...wrap(
      `${words.printedAt} ${formatPaperDateTime(setup.locale, setup.printedAt, setup.timeZone)}`,
      width,
    ),
    rule(width),
    ...pair(words.netSales, amount(report.net_sales), width),
    ...pair(words.bills, formatCount(setup.locale, report.bills), width),
    ...pair(words.covers, formatCount(setup.locale, report.covers), width),
    ...(report.average_bill === null ? [] : pair(words.averageBill, amount(report.average_bill), width)),
    ...(report.average_per_cover === null
      ? []
      : pair(words.averagePerCover, amount(report.average_per_cover), width)),
    ...pair(words.tips, amount(report.tips_total), width),
    ...(report.payments_by_method.length === 0
      ? []
      : [
          rule(width),
          ...wrap(words.payments, width),
          ...report.payments_by_method.flatMap((row) =>
            pair(
              `${reportMethodName(words, row.method)} (${formatCount(setup.locale, row.payments)})`,
              amount(row.amount),
              width,
            ),
          ),
        ]),
    ...(report.card_terminal_by_brand.length === 0
      ? []
      : [
          ...wrap(words.cardTerminal, width),
          ...report.card_terminal_by_brand.flatMap((row) =>
            indented(
              pair(
                `${row.brand || words.unknownBrand} (${formatCount(setup.locale, row.payments)})`,
                amount(row.amount),
                width - 2,
              ),
            ),
          ),
        ]),
    ...(cash.length === 0 ? [] : [rule(width), ...cash]),
    ...(report.audit_head === null
      ? []
      : [
          rule(width),
          ...wrap(`${words.auditHead} #${report.audit_head.seq}`, width),
          ...wrap(report.audit_head.hash, width),
        ]),
  ];
}
