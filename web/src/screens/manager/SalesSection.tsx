import { useEffect, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, type Ok, ok } from '../../api/client';
import { Alert } from '../../components/Alert';
import { Field } from '../../components/FormKit';
import { toCents } from '../../core/cents';
import { language, type Strings, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { translateServerText } from '../../core/server-text';
import { DayReport } from './DayReport';
import { Figure, TableScroll, todayIn, useLoaded, useReloadOnPayments } from './shared';

type Row = Ok<'/reports/sales', 'get'>[number];

const strings: Strings<
  | 'day'
  | 'totals'
  | 'orders'
  | 'items'
  | 'gross'
  | 'discounts'
  | 'refunds'
  | 'net'
  | 'tips'
  | 'byMethod'
  | 'method'
  | 'byDish'
  | 'dish'
  | 'byHour'
  | 'hour'
  | 'byWaiter'
  | 'waiter'
  | 'none'
> = {
  en: {
    day: 'Day',
    totals: 'Totals',
    orders: 'Orders',
    items: 'Items',
    gross: 'Gross sales',
    discounts: 'Discounts',
    refunds: 'Refunds',
    net: 'Net sales',
    tips: 'Tips',
    byMethod: 'By payment method',
    method: 'Payment method',
    byDish: 'By dish',
    dish: 'Dish',
    byHour: 'By hour',
    hour: 'Hour',
    byWaiter: 'By waiter',
    waiter: 'Waiter',
    none: 'No bills were paid on this day.',
  },
  es: {
    day: 'Día',
    totals: 'Totales',
    orders: 'Pedidos',
    items: 'Artículos',
    gross: 'Ventas brutas',
    discounts: 'Descuentos',
    refunds: 'Reembolsos',
    net: 'Ventas netas',
    tips: 'Propinas',
    byMethod: 'Por forma de pago',
    method: 'Forma de pago',
    byDish: 'Por platillo',
    dish: 'Platillo',
    byHour: 'Por hora',
    hour: 'Hora',
    byWaiter: 'Por mesero',
    waiter: 'Mesero',
    none: 'No se cobró ninguna cuenta este día.',
  },
};

async function loadDay(day: string | undefined) {
  const settings = await ok(api.GET('/settings'));
  const date = day ?? todayIn(settings.timezone);
  // The operation also answers CSV; without an Accept header it answers JSON.
  const report = async (group_by: 'day' | 'hour' | 'payment_method' | 'dish' | 'waiter') =>
    ((await ok(api.GET('/reports/sales', { params: { query: { from: date, to: date, group_by } } }))) ??
      []) as Row[];
  const [days, hours, methods, dishes, waiters, paymentMethods] = await Promise.all([
    report('day'),
    report('hour'),
    report('payment_method'),
    report('dish'),
    report('waiter'),
    ok(api.GET('/payment-methods')),
  ]);
  const methodName = new Map(
    (paymentMethods ?? []).map((method) => [method.code, translateServerText(method.name, language.get())]),
  );
  return {
    date,
    totals: days[0],
    // "2026-11-22 19:00": the day is the one chosen above, the hour is what tells the rows apart.
    hours: hours.map((row) => ({ ...row, key: row.key.slice(11) })),
    waiters,
    methods: methods.map((row) => ({ ...row, key: methodName.get(row.key) ?? row.key })),
    dishes,
  };
}

/**
 * What the restaurant sold on a day (today by default, or `?date=`), in the base currency. The
 * dashboard links here with the part it comes from as the address's #fragment, scrolled to once shown.
 */
export function SalesSection() {
  const t = useStrings(strings);
  const money = useMoney();
  const { query } = useRoute();
  const [day, setDay] = useState<string | undefined>(query.date);
  const sales = useLoaded(() => loadDay(day), [day]);
  useReloadOnPayments(sales.reload);
  const totals = sales.data?.totals;
  const shown = sales.data !== undefined;
  useEffect(() => {
    if (shown && location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
  }, [shown]);
  return (
    <div class="manager-sections">
      <div class="card">
        <Field id="sales-day" label={t.day}>
          <input
            id="sales-day"
            type="date"
            value={sales.data?.date ?? ''}
            onChange={(event) => event.currentTarget.value && setDay(event.currentTarget.value)}
          />
        </Field>
      </div>
      <Alert message={sales.error} />
      {sales.data && !totals && <p class="notice">{t.none}</p>}
      {totals && (
        <section class="card stack" aria-labelledby="sales-totals">
          <h2 id="sales-totals">{t.totals}</h2>
          <dl class="figures">
            <Figure label={t.orders} value={String(totals.orders)} />
            <Figure label={t.items} value={String(totals.items)} />
            <Figure label={t.gross} value={money(toCents(totals.gross))} />
            <Figure label={t.discounts} value={money(toCents(totals.discounts))} />
            <Figure label={t.refunds} value={money(toCents(totals.refunds))} />
            <Figure label={t.net} value={money(toCents(totals.net))} strong />
            <Figure label={t.tips} value={money(toCents(totals.tips))} />
          </dl>
        </section>
      )}
      {sales.data && <DayReport date={sales.data.date} />}
      {totals && sales.data && (
        <>
          <RowsTable id="sales-hours" title={t.byHour} keyLabel={t.hour} rows={sales.data.hours} />
          <RowsTable id="sales-methods" title={t.byMethod} keyLabel={t.method} rows={sales.data.methods} />
          <RowsTable id="sales-waiters" title={t.byWaiter} keyLabel={t.waiter} rows={sales.data.waiters} />
          <RowsTable id="sales-dishes" title={t.byDish} keyLabel={t.dish} rows={sales.data.dishes} items />
        </>
      )}
    </div>
  );
}

function RowsTable({
  id,
  title,
  keyLabel,
  rows,
  items,
}: {
  id: string;
  title: string;
  keyLabel: string;
  rows: Row[];
  items?: boolean;
}) {
  const t = useStrings(strings);
  const money = useMoney();
  return (
    <section class="card stack" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <TableScroll label={title}>
        <table class="list">
          <thead>
            <tr>
              <th scope="col">{keyLabel}</th>
              <th scope="col" class="num">
                {items ? t.items : t.orders}
              </th>
              <th scope="col" class="num">
                {t.gross}
              </th>
              <th scope="col" class="num">
                {t.net}
              </th>
              <th scope="col" class="num">
                {t.tips}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <th scope="row">{row.key}</th>
                <td class="num">{items ? row.items : row.orders}</td>
                <td class="num">{money(toCents(row.gross))}</td>
                <td class="num">{money(toCents(row.net))}</td>
                <td class="num">{money(toCents(row.tips))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}
