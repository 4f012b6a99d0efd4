import { cardBrandName } from '../core/card-terminal';
import { toCents } from '../core/cents';
import { type Strings, useStrings } from '../core/i18n';
import { useMoney } from '../core/money';

/** A Z report's card-terminal payments of one card brand (GET /shifts/{id}/report). */
export type BrandRow = { brand: string; payments: number; amount: number; tips: number; fees: number };

const strings: Strings<
  'title' | 'brand' | 'unknown' | 'payments' | 'amount' | 'tips' | 'fees' | 'totalFees'
> = {
  en: {
    title: 'Card terminal by brand',
    brand: 'Brand',
    unknown: 'Unknown',
    payments: 'Payments',
    amount: 'Amount',
    tips: 'Tips',
    fees: 'Fees',
    totalFees: 'Mercado Pago fees',
  },
  es: {
    title: 'Terminal de tarjetas por marca',
    brand: 'Marca',
    unknown: 'Desconocida',
    payments: 'Pagos',
    amount: 'Monto',
    tips: 'Propinas',
    fees: 'Comisiones',
    totalFees: 'Comisiones de Mercado Pago',
  },
};

/**
 * The Z report's card-terminal payments by card brand, with what Mercado Pago charged for them: the
 * same table on the manager's shift report and the cashier's report at the till. Nothing when the
 * shift took no terminal payment.
 */
export function CardTerminalByBrand({ rows, totalFees }: { rows: BrandRow[]; totalFees: number }) {
  const t = useStrings(strings);
  const money = useMoney();
  if (rows.length === 0) return null;
  return (
    <div class="stack card-terminal-brands">
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard */}
      <section class="table-scroll" aria-label={t.title} tabIndex={0}>
        <table class="list">
          <caption>{t.title}</caption>
          <thead>
            <tr>
              <th scope="col">{t.brand}</th>
              <th scope="col" class="num">
                {t.payments}
              </th>
              <th scope="col" class="num">
                {t.amount}
              </th>
              <th scope="col" class="num">
                {t.tips}
              </th>
              <th scope="col" class="num">
                {t.fees}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.brand}>
                <th scope="row">{cardBrandName(row.brand, t.unknown)}</th>
                <td class="num">{row.payments}</td>
                <td class="num">{money(toCents(row.amount))}</td>
                <td class="num">{money(toCents(row.tips))}</td>
                <td class="num">{money(toCents(row.fees))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <p class="card-terminal-fees">
        {t.totalFees}: <strong class="num">{money(toCents(totalFees))}</strong>
      </p>
    </div>
  );
}
