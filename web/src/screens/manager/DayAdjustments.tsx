import type { Ok } from '../../api/client';
import { toCents } from '../../core/cents';
import { format, type Strings, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { TableScroll } from './shared';

type Report = Ok<'/reports/day/{date}', 'get'>;
type Section = Report['voids'];

const KINDS = ['voids', 'comps', 'other_discounts'] as const;

const strings: Strings<
  | (typeof KINDS)[number]
  | 'summary'
  | 'none'
  | 'byReason'
  | 'byPerson'
  | 'reason'
  | 'noReason'
  | 'person'
  | 'unknown'
  | 'approvedBy'
  | 'ownRight'
  | 'count'
  | 'amount'
> = {
  en: {
    voids: 'Voided plates',
    comps: 'Comps (bills discounted 100 %)',
    other_discounts: 'Other discounts',
    summary: '{count} · {amount}',
    none: 'None this day.',
    byReason: 'By reason',
    byPerson: 'By person',
    reason: 'Reason',
    noReason: '(no reason)',
    person: 'Who',
    unknown: '(not recorded)',
    approvedBy: 'Approved by',
    ownRight: 'Their own role',
    count: 'Count',
    amount: 'Amount',
  },
  es: {
    voids: 'Platillos anulados',
    comps: 'Cortesías (cuentas con 100 % de descuento)',
    other_discounts: 'Otros descuentos',
    summary: '{count} · {amount}',
    none: 'Ninguno este día.',
    byReason: 'Por motivo',
    byPerson: 'Por persona',
    reason: 'Motivo',
    noReason: '(sin motivo)',
    person: 'Quién',
    unknown: '(no registrado)',
    approvedBy: 'Autorizó',
    ownRight: 'Su propio rol',
    count: 'Cantidad',
    amount: 'Importe',
  },
};

/** The day's voids, comps and other discounts, each by reason and by who did it and who approved it. */
export function DayAdjustments({ report }: { report: Report }) {
  const t = useStrings(strings);
  return (
    <>
      {KINDS.map((kind) => (
        <AdjustmentSection key={kind} kind={kind} title={t[kind]} section={report[kind]} />
      ))}
    </>
  );
}

function AdjustmentSection({ kind, title, section }: { kind: string; title: string; section: Section }) {
  const t = useStrings(strings);
  const money = useMoney();
  const amount = (value: number) => money(toCents(value));
  const headingId = `day-${kind}-title`;
  return (
    <section class="stack day-adjustments" aria-labelledby={headingId} data-kind={kind}>
      <h3 id={headingId}>
        {title}: {format(t.summary, { count: section.count, amount: amount(section.amount) })}
      </h3>
      {section.count === 0 ? (
        <p class="muted">{t.none}</p>
      ) : (
        <TableScroll label={title}>
          <table class="list">
            <caption>{t.byReason}</caption>
            <thead>
              <tr>
                <th scope="col">{t.reason}</th>
                <th scope="col" class="num">
                  {t.count}
                </th>
                <th scope="col" class="num">
                  {t.amount}
                </th>
              </tr>
            </thead>
            <tbody>
              {section.by_reason.map((row) => (
                <tr key={row.reason ?? ''}>
                  <th scope="row">{row.reason ?? t.noReason}</th>
                  <td class="num">{row.count}</td>
                  <td class="num">{amount(row.amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <table class="list">
            <caption>{t.byPerson}</caption>
            <thead>
              <tr>
                <th scope="col">{t.person}</th>
                <th scope="col">{t.approvedBy}</th>
                <th scope="col" class="num">
                  {t.count}
                </th>
                <th scope="col" class="num">
                  {t.amount}
                </th>
              </tr>
            </thead>
            <tbody>
              {section.by_person.map((row) => (
                <tr key={`${row.user_id}|${row.approved_by_id}`}>
                  <th scope="row">{row.user_name ?? t.unknown}</th>
                  <td>{row.approved_by_name ?? t.ownRight}</td>
                  <td class="num">{row.count}</td>
                  <td class="num">{amount(row.amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
