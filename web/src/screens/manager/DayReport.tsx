import { api, type Ok, ok } from '../../api/client';
import { Alert } from '../../components/Alert';
import { PrintOnPaper } from '../../components/PrintOnPaper';
import { toCents } from '../../core/cents';
import { format, type Strings, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { DayAdjustments } from './DayAdjustments';
import { DayFiscal } from './DayFiscal';
import { Figure, TableScroll, useLoaded, useReloadOnPayments } from './shared';

type Line = Ok<'/reports/day/{date}', 'get'>['shifts'][number];

const strings: Strings<
  | 'title'
  | 'paymentsTotal'
  | 'refundsRecorded'
  | 'net'
  | 'lightningFees'
  | 'shift'
  | 'outside'
  | 'payments'
  | 'tips'
  | 'refunds'
  | 'expected'
  | 'counted'
  | 'difference'
  | 'open'
  | 'shiftOf'
> = {
  en: {
    title: 'Day report (X/Z of the restaurant)',
    paymentsTotal: 'Payments taken',
    refundsRecorded: 'Refunds given back',
    net: 'Net sales',
    lightningFees: 'Lightning node fees (liquidity)',
    shift: 'Shift',
    outside: 'Outside any shift',
    payments: 'Payments',
    tips: 'Tips',
    refunds: 'Refunds',
    expected: 'Expected cash',
    counted: 'Counted cash',
    difference: 'Difference',
    open: 'open',
    shiftOf: 'Shift of {name}',
  },
  es: {
    title: 'Informe del día (X/Z del restaurante)',
    paymentsTotal: 'Pagos cobrados',
    refundsRecorded: 'Reembolsos devueltos',
    net: 'Ventas netas',
    lightningFees: 'Comisiones del nodo Lightning (liquidez)',
    shift: 'Turno',
    outside: 'Fuera de turno',
    payments: 'Pagos',
    tips: 'Propinas',
    refunds: 'Reembolsos',
    expected: 'Efectivo esperado',
    counted: 'Efectivo contado',
    difference: 'Diferencia',
    open: 'abierto',
    shiftOf: 'Turno de {name}',
  },
};

/**
 * Every payment and refund of the day, per shift and outside any shift (a card taken before a till
 * opened, an administrator's refund), so the day's money is all there (GET /reports/day/{date}).
 */
export function DayReport({ date }: { date: string }) {
  const t = useStrings(strings);
  const money = useMoney();
  const day = useLoaded(() => ok(api.GET('/reports/day/{date}', { params: { path: { date } } })), [date]);
  useReloadOnPayments(day.reload);
  const report = day.data;
  const amount = (value: number | null) => (value === null ? '—' : money(toCents(value)));
  const nameOf = (line: Line) =>
    line.shift_id === null
      ? t.outside
      : `${format(t.shiftOf, { name: line.user_name ?? '' })}${line.status === 'open' ? ` (${t.open})` : ''}`;
  return (
    <section class="card stack day-report" aria-labelledby="day-report-title">
      <div class="card-head">
        <h2 id="day-report-title">{t.title}</h2>
        <PrintOnPaper
          label={t.title}
          send={(key) =>
            api.POST('/reports/day/{date}/print', {
              params: { header: { 'idempotency-key': key }, path: { date } },
            })
          }
        />
      </div>
      <Alert message={day.error} />
      {report && (
        <>
          <dl class="figures">
            <Figure label={t.paymentsTotal} value={money(toCents(report.payments_total))} />
            <Figure label={t.refundsRecorded} value={money(toCents(report.refunds_recorded))} />
            <Figure label={t.net} value={money(toCents(report.net_sales))} strong />
            <Figure label={t.lightningFees} value={money(toCents(report.lightning_fees))} />
          </dl>
          <TableScroll label={t.shift}>
            <table class="list">
              <thead>
                <tr>
                  <th scope="col">{t.shift}</th>
                  <th scope="col" class="num">
                    {t.payments}
                  </th>
                  <th scope="col" class="num">
                    {t.tips}
                  </th>
                  <th scope="col" class="num">
                    {t.refunds}
                  </th>
                  <th scope="col" class="num">
                    {t.expected}
                  </th>
                  <th scope="col" class="num">
                    {t.counted}
                  </th>
                  <th scope="col" class="num">
                    {t.difference}
                  </th>
                </tr>
              </thead>
              <tbody>
                {report.shifts.map((line) => (
                  <tr key={line.shift_id ?? 'outside'} data-shift={line.shift_id ?? 'outside'}>
                    <th scope="row">{nameOf(line)}</th>
                    <td class="num">{money(toCents(line.payments_total))}</td>
                    <td class="num">{money(toCents(line.tips))}</td>
                    <td class="num">{money(toCents(line.refunds))}</td>
                    <td class="num">{amount(line.expected_cash)}</td>
                    <td class="num">{amount(line.counted_cash)}</td>
                    <td class="num">{amount(line.difference)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <DayAdjustments report={report} />
          {report.fiscal && <DayFiscal fiscal={report.fiscal} />}
        </>
      )}
    </section>
  );
}
