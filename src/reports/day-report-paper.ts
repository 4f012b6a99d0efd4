import { toCents } from '../core/money';
import {
  centered,
  formatCount,
  formatPaperDate,
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
import type { DayReport } from './reports.schemas';

/**
 * The day report on the receipt printer: the key figures of GET /reports/day/{date} in lines of at
 * most `width` characters, with one line per shift (and one for the money outside any shift).
 */
export function dayReportLines(report: DayReport, setup: ReportPaperSetup, width: number): string[] {
  const words = paperWords(setup.locale);
  const money = moneyFormatter(setup.locale, setup.currency);
  const amount = (value: number) => money(toCents(value));
  const count = (value: number) => formatCount(setup.locale, value);
  const adjustment = (label: string, section: DayReport['voids']) =>
    pair(`${label} (${count(section.count)})`, amount(section.amount), width);
  return [
    ...(setup.businessName ? centered(setup.businessName, width) : []),
    ...centered(words.dayReport, width),
    ...centered(formatPaperDate(setup.locale, Date.parse(report.from), setup.timeZone), width),
    rule(width),
    ...wrap(
      `${words.printedAt} ${formatPaperDateTime(setup.locale, setup.printedAt, setup.timeZone)}`,
      width,
    ),
    rule(width),
    ...pair(words.netSales, amount(report.net_sales), width),
    ...pair(words.bills, count(report.bills), width),
    ...pair(words.covers, count(report.covers), width),
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
              `${reportMethodName(words, row.method)} (${count(row.payments)})`,
              amount(row.amount),
              width,
            ),
          ),
        ]),
    rule(width),
    ...adjustment(words.voids, report.voids),
    ...adjustment(words.comps, report.comps),
    ...(report.shifts.length === 0
      ? []
      : [
          rule(width),
          ...wrap(words.shifts, width),
          ...report.shifts.flatMap((line) => [
            ...pair(
              line.shift_id === null
                ? words.outsideShift
                : `${line.user_name ?? ''}${line.status === 'open' ? ` (${words.stillOpen})` : ''}`,
              amount(line.payments_total),
              width,
            ),
            ...(line.difference === null
              ? []
              : indented(pair(words.difference, amount(line.difference), width - 2))),
          ]),
        ]),
  ];
}
