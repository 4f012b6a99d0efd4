import type { Ok } from '../../api/client';
import { toCents } from '../../core/cents';
import { type Strings, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { Figure } from './shared';

type Fiscal = NonNullable<Ok<'/reports/day/{date}', 'get'>['fiscal']>;

const FIGURES = [
  'base',
  'iva',
  'invoiced',
  'in_global',
  'pending',
  'failed',
  'canceled',
  'untracked',
] as const;

const strings: Strings<'title' | (typeof FIGURES)[number]> = {
  en: {
    title: 'E-invoice (CFDI) of the day',
    base: 'Sales before IVA',
    iva: 'IVA',
    invoiced: 'Invoiced to guests',
    in_global: 'In the global invoice',
    pending: 'Receipts not yet invoiced',
    failed: 'Receipts that failed',
    canceled: 'Invoices canceled, not replaced',
    untracked: 'Paid while e-invoicing was off',
  },
  es: {
    title: 'Facturación del día (CFDI)',
    base: 'Ventas sin IVA',
    iva: 'IVA',
    invoiced: 'Facturado a clientes',
    in_global: 'En la factura global',
    pending: 'Tickets sin facturar',
    failed: 'Tickets con error',
    canceled: 'Facturas canceladas sin reponer',
    untracked: 'Cobrado sin facturación activa',
  },
};

/** The Z report's fiscal line: how the day's sales stand at the PAC (tips are never on a CFDI). */
export function DayFiscal({ fiscal }: { fiscal: Fiscal }) {
  const t = useStrings(strings);
  const money = useMoney();
  return (
    <section class="stack" aria-labelledby="day-fiscal">
      <h3 id="day-fiscal">{t.title}</h3>
      <dl class="figures">
        {FIGURES.map((name) => (
          <Figure
            key={name}
            label={t[name]}
            value={money(toCents(fiscal[name]))}
            strong={(name === 'failed' || name === 'canceled') && fiscal[name] > 0}
          />
        ))}
      </dl>
    </section>
  );
}
