import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, type Ok, ok } from '../../api/client';
import { useStore } from '../../api/store';
import { Alert } from '../../components/Alert';
import { PLATFORM_NAMES } from '../../components/delivery/delivery-orders';
import { Field } from '../../components/FormKit';
import { toCents } from '../../core/cents';
import { type LiveEvent, useLiveEvents } from '../../core/events';
import { format, language, type Strings, useLocale, useStrings } from '../../core/i18n';
import { baseCurrency, useMoney } from '../../core/money';
import { translateServerText } from '../../core/server-text';
import { BarChart, HourChart, LineKey } from './DashboardCharts';
import { useLoaded } from './shared';

type Dashboard = Ok<'/reports/dashboard', 'get'>;
type DishRank = Dashboard['dishes']['top_by_quantity'][number];

const strings: Strings<
  | 'day'
  | 'keyFigures'
  | 'sales'
  | 'bills'
  | 'covers'
  | 'averageBill'
  | 'averagePerCover'
  | 'tips'
  | 'byHour'
  | 'hour'
  | 'thisDay'
  | 'usual'
  | 'usualLong'
  | 'byTender'
  | 'method'
  | 'byChannel'
  | 'channel'
  | 'dineIn'
  | 'order'
  | 'orders'
  | 'byWaiter'
  | 'dishes'
  | 'topQuantity'
  | 'bottomQuantity'
  | 'topAmount'
  | 'bottomAmount'
  | 'plate'
  | 'plates'
  | 'outOfStock'
  | 'since'
  | 'stillOut'
  | 'backOn'
  | 'noneOut'
  | 'times'
  | 'tableTurn'
  | 'kitchenTime'
  | 'median'
  | 'p90'
  | 'minutes'
  | 'measuredOne'
  | 'measured'
  | 'voids'
  | 'comps'
  | 'countAmount'
  | 'adjustments'
  | 'now'
  | 'openTables'
  | 'openBills'
  | 'balance'
  | 'noSales'
> = {
  en: {
    day: 'Day',
    keyFigures: 'Key figures',
    sales: 'Sales',
    bills: 'Bills',
    covers: 'Covers',
    averageBill: 'Average bill',
    averagePerCover: 'Average per cover',
    tips: 'Tips',
    byHour: 'Sales by hour',
    hour: 'Hour',
    thisDay: 'This day',
    usual: 'Usual',
    usualLong: 'Usual (same weekday, last 4 weeks)',
    byTender: 'By payment method',
    method: 'Payment method',
    byChannel: 'By channel',
    channel: 'Channel',
    dineIn: 'Dine in',
    order: '{count} order',
    orders: '{count} orders',
    byWaiter: 'By waiter',
    dishes: 'Dishes',
    topQuantity: 'Most plates',
    bottomQuantity: 'Fewest plates',
    topAmount: 'Largest amount',
    bottomAmount: 'Smallest amount',
    plate: '{count} plate',
    plates: '{count} plates',
    outOfStock: "86'd and out of stock",
    since: 'out at {time}',
    stillOut: 'still out',
    backOn: 'back on the menu',
    noneOut: 'Nothing ran out this day.',
    times: 'Table turn and kitchen',
    tableTurn: 'Table turn (seated to paid)',
    kitchenTime: 'Kitchen (sent to ready)',
    median: 'median',
    p90: '9 in 10 within',
    minutes: '{minutes} min',
    measuredOne: '{count} measured',
    measured: '{count} measured',
    voids: 'Voided plates',
    comps: 'Comps and discounts',
    countAmount: '{count} · {amount}',
    adjustments: 'Voids and comps',
    now: 'Open now',
    openTables: 'Open tables',
    openBills: 'Open bills',
    balance: 'Still owed',
    noSales: 'Nothing sold yet this day.',
  },
  es: {
    day: 'Día',
    keyFigures: 'Cifras del día',
    sales: 'Ventas',
    bills: 'Cuentas',
    covers: 'Comensales',
    averageBill: 'Cuenta promedio',
    averagePerCover: 'Promedio por comensal',
    tips: 'Propinas',
    byHour: 'Ventas por hora',
    hour: 'Hora',
    thisDay: 'Este día',
    usual: 'Lo usual',
    usualLong: 'Lo usual (mismo día, últimas 4 semanas)',
    byTender: 'Por forma de pago',
    method: 'Forma de pago',
    byChannel: 'Por canal',
    channel: 'Canal',
    dineIn: 'En el local',
    order: '{count} pedido',
    orders: '{count} pedidos',
    byWaiter: 'Por mesero',
    dishes: 'Platillos',
    topQuantity: 'Más platos vendidos',
    bottomQuantity: 'Menos platos vendidos',
    topAmount: 'Mayor importe',
    bottomAmount: 'Menor importe',
    plate: '{count} plato',
    plates: '{count} platos',
    outOfStock: 'Agotados (86)',
    since: 'se agotó a las {time}',
    stillOut: 'sigue agotado',
    backOn: 'ya está disponible',
    noneOut: 'Nada se agotó este día.',
    times: 'Rotación de mesas y cocina',
    tableTurn: 'Rotación de mesas (de sentarse a pagar)',
    kitchenTime: 'Cocina (de enviado a listo)',
    median: 'mediana',
    p90: '9 de cada 10 en',
    minutes: '{minutes} min',
    measuredOne: '{count} medido',
    measured: '{count} medidos',
    voids: 'Platillos anulados',
    comps: 'Cortesías y descuentos',
    countAmount: '{count} · {amount}',
    adjustments: 'Anulaciones y cortesías',
    now: 'Abierto ahora',
    openTables: 'Mesas abiertas',
    openBills: 'Cuentas abiertas',
    balance: 'Por cobrar',
    noSales: 'Aún no hay ventas este día.',
  },
};

/**
 * What changes the dashboard: a bill made, paid or cancelled, money taken or given back, an order
 * or its plates changed (sent, voided, moved), the kitchen's progress, a dish 86'd, a table seated.
 */
const DASHBOARD_EVENTS = new Set([
  'ticket.created',
  'ticket.paid',
  'ticket.canceled',
  'payment.settled',
  'payment.refunded',
  'order.created',
  'order.updated',
  'order.deleted',
  'order.dishes_changed',
  'dish.status_changed',
  'dish.availability_changed',
  'table.updated',
]);
/**
 * A busy night sends bursts of events (a table paid is four or five): the dashboard is read once, this
 * long after the first of them, and a steady stream of events cannot put the read off for ever.
 */
const REFETCH_AFTER_MS = 1500;

/** "1 plato", "2 platos": the singular's template for one, the plural's for any other count. */
function counted(one: string, other: string, count: number): string {
  return format(count === 1 ? one : other, { count });
}

async function loadDashboard(day: string | undefined) {
  const [dashboard, settings, methods] = await Promise.all([
    ok(api.GET('/reports/dashboard', { params: { query: day ? { date: day } : {} } })),
    ok(api.GET('/settings')),
    ok(api.GET('/payment-methods')),
  ]);
  const methodNames = new Map(
    (methods ?? []).map((method) => [method.code, translateServerText(method.name, language.get())]),
  );
  return { dashboard, timeZone: settings.timezone, methodNames };
}

/** Reads the dashboard again after a burst of the live events that change it, and after a gap in the stream. */
function useRefetchOnEvents(reload: () => Promise<void>): void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useLiveEvents(
    ['tickets', 'payments', 'orders', 'kitchen', 'tables'],
    (event: LiveEvent) => {
      if (!DASHBOARD_EVENTS.has(event.type) || timer.current !== undefined) return;
      timer.current = setTimeout(() => {
        timer.current = undefined;
        void reload();
      }, REFETCH_AFTER_MS);
    },
    () => void reload(),
  );
}

/**
 * The manager's night at a glance (GET /reports/dashboard): sales by hour against the usual, the key
 * figures, tenders, channels, waiters, dishes, 86s, table turn and kitchen time, voids, comps and
 * what is open now; each figure links to the report it comes from. It follows the live stream.
 */
export function DashboardSection() {
  const t = useStrings(strings);
  const money = useMoney();
  const locale = useLocale();
  const currency = useStore(baseCurrency);
  const [day, setDay] = useState<string>();
  const loaded = useLoaded(() => loadDashboard(day), [day]);
  useRefetchOnEvents(loaded.reload);
  const data = loaded.data;
  const formats = useMemo(
    () => ({
      count: new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }),
      minutes: new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
      // The charts' axes: "$1.5 mil", "$300", short enough for a phone.
      compact: new Intl.NumberFormat(locale, {
        notation: 'compact',
        maximumFractionDigits: 1,
        ...(currency && { style: 'currency', currency, currencyDisplay: 'narrowSymbol' }),
      }),
    }),
    [locale, currency],
  );
  const amount = (value: number) => money(toCents(value));
  const count = (value: number) => formats.count.format(value);
  return (
    <div class="manager-sections dashboard">
      <div class="card">
        <Field id="dashboard-day" label={t.day}>
          <input
            id="dashboard-day"
            type="date"
            value={data?.dashboard.date ?? ''}
            onChange={(event) => event.currentTarget.value && setDay(event.currentTarget.value)}
          />
        </Field>
      </div>
      <Alert message={loaded.error} />
      {data && (
        <DashboardBody
          dashboard={data.dashboard}
          timeZone={data.timeZone}
          methodNames={data.methodNames}
          amount={amount}
          count={count}
          minutes={(value) =>
            value === null ? '—' : format(t.minutes, { minutes: formats.minutes.format(value) })
          }
          compact={(value) => formats.compact.format(value)}
        />
      )}
    </div>
  );
}

type Formats = {
  amount: (value: number) => string;
  count: (value: number) => string;
  minutes: (value: number | null) => string;
  compact: (value: number) => string;
};

function DashboardBody({
  dashboard,
  timeZone,
  methodNames,
  amount,
  count,
  minutes,
  compact,
}: { dashboard: Dashboard; timeZone: string | undefined; methodNames: Map<string, string> } & Formats) {
  const t = useStrings(strings);
  const locale = useLocale();
  const sales = (anchor: string) => `/app/manager/sales?date=${dashboard.date}#${anchor}`;
  const optional = (value: number | null) => (value === null ? '—' : amount(value));
  const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
  const hours = shownHours(dashboard.hours);
  // Drawn by position in the day: the day the clocks go back has one hour twice.
  const positionLabel = (position: number) => hourLabel(dashboard.hours[position]?.hour ?? position);
  const time = new Intl.DateTimeFormat(locale, {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  });
  const channelName = (channel: string) =>
    channel === 'dine_in' ? t.dineIn : (PLATFORM_NAMES[channel as keyof typeof PLATFORM_NAMES] ?? channel);
  const tenders = dashboard.by_tender.map((line) => ({
    ...line,
    name: methodNames.get(line.method) ?? line.method,
  }));
  return (
    <>
      <section class="card stack" aria-labelledby="dashboard-figures">
        <h2 id="dashboard-figures">{t.keyFigures}</h2>
        {dashboard.bills === 0 && <p class="notice">{t.noSales}</p>}
        <ul class="figure-links">
          <FigureLink href={sales('sales-totals')} label={t.sales} value={amount(dashboard.sales)} strong />
          <FigureLink href={sales('sales-totals')} label={t.bills} value={count(dashboard.bills)} />
          <FigureLink href={sales('sales-totals')} label={t.covers} value={count(dashboard.covers)} />
          <FigureLink
            href={sales('sales-totals')}
            label={t.averageBill}
            value={optional(dashboard.average_bill)}
          />
          <FigureLink
            href={sales('sales-totals')}
            label={t.averagePerCover}
            value={optional(dashboard.average_per_cover)}
          />
          <FigureLink href="/app/manager/shifts" label={t.tips} value={amount(dashboard.tips)} />
        </ul>
      </section>

      <section class="card stack" aria-labelledby="dashboard-hours">
        <h2 id="dashboard-hours">
          <a href={sales('sales-hours')}>{t.byHour}</a>
        </h2>
        <p class="chart-keys">
          <LineKey kind="today" label={t.thisDay} />
          <LineKey kind="usual" label={t.usualLong} />
        </p>
        <HourChart
          hours={hours.map((line) => dashboard.hours.indexOf(line))}
          today={hours.map((line) => line.sales)}
          usual={hours.map((line) => line.usual.sales)}
          hourLabel={positionLabel}
          amountLabel={compact}
          alternative={
            <table class="visually-hidden" data-testid="hours-table">
              <caption>{t.byHour}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.hour}</th>
                  <th scope="col">{t.thisDay}</th>
                  <th scope="col">{t.usual}</th>
                </tr>
              </thead>
              <tbody>
                {hours.map((line) => (
                  <tr key={line.starts_at}>
                    <th scope="row">{hourLabel(line.hour)}</th>
                    <td>{amount(line.sales)}</td>
                    <td>{amount(line.usual.sales)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          }
        />
      </section>

      <div class="dashboard-pair">
        <BarsCard
          id="dashboard-tenders"
          title={t.byTender}
          keyLabel={t.method}
          href={sales('sales-methods')}
          rows={tenders.map((line) => ({ name: line.name, value: line.sales, text: amount(line.sales) }))}
          compact={compact}
        />
        <BarsCard
          id="dashboard-channels"
          title={t.byChannel}
          keyLabel={t.channel}
          href={sales('sales-totals')}
          rows={dashboard.by_channel.map((line) => ({
            name: channelName(line.channel),
            value: line.sales,
            text: `${amount(line.sales)} · ${counted(t.order, t.orders, line.orders)}`,
          }))}
          compact={compact}
        />
      </div>

      <section class="card stack" aria-labelledby="dashboard-waiters">
        <h2 id="dashboard-waiters">
          <a href={sales('sales-waiters')}>{t.byWaiter}</a>
        </h2>
        <RankedList
          rows={dashboard.by_waiter.map((line) => ({
            key: line.user_id,
            name: line.name,
            value: line.sales,
            text: `${amount(line.sales)} · ${t.tips.toLowerCase()} ${amount(line.tips)}`,
          }))}
        />
      </section>

      <section class="card stack" aria-labelledby="dashboard-dishes">
        <h2 id="dashboard-dishes">
          <a href={sales('sales-dishes')}>{t.dishes}</a>
        </h2>
        <div class="dashboard-rankings">
          <DishRanking title={t.topQuantity} dishes={dashboard.dishes.top_by_quantity} by="quantity" />
          <DishRanking
            title={t.topAmount}
            dishes={dashboard.dishes.top_by_amount}
            by="amount"
            amount={amount}
          />
          <DishRanking title={t.bottomQuantity} dishes={dashboard.dishes.bottom_by_quantity} by="quantity" />
          <DishRanking
            title={t.bottomAmount}
            dishes={dashboard.dishes.bottom_by_amount}
            by="amount"
            amount={amount}
          />
        </div>
      </section>

      <section class="card stack" aria-labelledby="dashboard-out">
        <h2 id="dashboard-out">
          <a href="/app/manager/menu">{t.outOfStock}</a>
        </h2>
        {dashboard.out_of_stock.length === 0 ? (
          <p class="muted">{t.noneOut}</p>
        ) : (
          <ul class="out-of-stock">
            {dashboard.out_of_stock.map((dish) => (
              <li key={dish.dish_id}>
                <strong>{dish.name}</strong> · {format(t.since, { time: time.format(new Date(dish.at)) })} ·{' '}
                <span class={dish.is_still_out ? 'badge danger' : 'badge ok'}>
                  {dish.is_still_out ? t.stillOut : t.backOn}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section class="card stack" aria-labelledby="dashboard-times">
        <h2 id="dashboard-times">{t.times}</h2>
        <ul class="figure-links">
          <SpreadFigure
            href="/app/floor"
            label={t.tableTurn}
            spread={dashboard.table_turn}
            minutes={minutes}
          />
          <SpreadFigure
            href="/app/kitchen"
            label={t.kitchenTime}
            spread={dashboard.kitchen}
            minutes={minutes}
          />
        </ul>
      </section>

      <section class="card stack" aria-labelledby="dashboard-adjustments">
        <h2 id="dashboard-adjustments">
          <a href={sales('day-report-title')}>{t.adjustments}</a>
        </h2>
        <ul class="figure-links">
          <FigureLink
            href={sales('day-report-title')}
            label={t.voids}
            value={format(t.countAmount, {
              count: count(dashboard.voids.count),
              amount: amount(dashboard.voids.amount),
            })}
          />
          <FigureLink
            href={sales('day-report-title')}
            label={t.comps}
            value={format(t.countAmount, {
              count: count(dashboard.comps.count),
              amount: amount(dashboard.comps.amount),
            })}
          />
        </ul>
      </section>

      <section class="card stack" aria-labelledby="dashboard-now">
        <h2 id="dashboard-now">{t.now}</h2>
        <ul class="figure-links">
          <FigureLink href="/app/floor" label={t.openTables} value={count(dashboard.now.open_tables)} />
          <FigureLink
            href="/app/till"
            label={t.openBills}
            value={count(dashboard.now.open_bills)}
            detail={`${t.balance} ${amount(dashboard.now.open_bills_balance)}`}
          />
        </ul>
      </section>
    </>
  );
}

/**
 * The hours worth drawing: from the first to the last with sales today or usually (a whole day of
 * zeros squeezes the night into a corner of a phone); all 24 when the day and the usual are empty.
 */
function shownHours(hours: Dashboard['hours']): Dashboard['hours'] {
  const busy = hours.flatMap((line, position) => (line.sales > 0 || line.usual.sales > 0 ? [position] : []));
  if (busy.length === 0) return hours;
  return hours.slice(Math.max(Math.min(...busy) - 1, 0), Math.max(...busy) + 2);
}

/** A figure the manager taps to open the report it comes from; the link's name is label and value. */
function FigureLink({
  href,
  label,
  value,
  detail,
  strong,
}: {
  href: string;
  label: string;
  value: string;
  detail?: string;
  strong?: boolean;
}) {
  return (
    <li>
      <a class={strong ? 'figure figure-link strong' : 'figure figure-link'} href={href}>
        <span class="figure-label">{label}</span>
        <span class="figure-value num">{value}</span>
        {detail && <span class="figure-detail">{detail}</span>}
      </a>
    </li>
  );
}

function SpreadFigure({
  href,
  label,
  spread,
  minutes,
}: {
  href: string;
  label: string;
  spread: Dashboard['kitchen'];
  minutes: Formats['minutes'];
}) {
  const t = useStrings(strings);
  return (
    <FigureLink
      href={href}
      label={label}
      value={minutes(spread.median)}
      detail={`${t.median} · ${t.p90} ${minutes(spread.p90)} · ${counted(t.measuredOne, t.measured, spread.count)}`}
    />
  );
}

type Bar = { name: string; value: number; text: string };

/** A bar chart with its figures as a list beside it: the list is what a screen reader reads. */
function BarsCard({
  id,
  title,
  keyLabel,
  href,
  rows,
  compact,
}: {
  id: string;
  title: string;
  keyLabel: string;
  href: string;
  rows: Bar[];
  compact: (value: number) => string;
}) {
  const t = useStrings(strings);
  return (
    <section class="card stack" aria-labelledby={id}>
      <h2 id={id}>
        <a href={href}>{title}</a>
      </h2>
      {rows.length === 0 ? (
        <p class="muted">{t.noSales}</p>
      ) : (
        <BarChart
          names={rows.map((row) => row.name)}
          values={rows.map((row) => row.value)}
          amountLabel={compact}
          alternative={
            <dl class="bar-figures" aria-label={`${title}: ${keyLabel}`}>
              {rows.map((row) => (
                <div key={row.name}>
                  <dt>{row.name}</dt>
                  <dd class="num">{row.text}</dd>
                </div>
              ))}
            </dl>
          }
        />
      )}
    </section>
  );
}

/** Names with a small bar each, as long as its share of the largest: a list, read as text. */
function RankedList({ rows }: { rows: (Bar & { key: string })[] }) {
  const largest = Math.max(...rows.map((row) => row.value), 0);
  return (
    <ol class="ranked">
      {rows.map((row) => (
        <li key={row.key}>
          <span class="ranked-name">{row.name}</span>
          <span class="ranked-value num">{row.text}</span>
          <span class="ranked-bar" aria-hidden="true">
            <span style={{ width: `${largest > 0 ? Math.max((row.value / largest) * 100, 2) : 0}%` }} />
          </span>
        </li>
      ))}
    </ol>
  );
}

function DishRanking({
  title,
  dishes,
  by,
  amount,
}: {
  title: string;
  dishes: DishRank[];
  by: 'quantity' | 'amount';
  amount?: (value: number) => string;
}) {
  const t = useStrings(strings);
  return (
    <div class="stack">
      <h3>{title}</h3>
      <RankedList
        rows={dishes.map((dish) => ({
          key: dish.dish_id,
          name: dish.name,
          value: by === 'quantity' ? dish.quantity : dish.amount,
          text:
            by === 'quantity' || !amount ? counted(t.plate, t.plates, dish.quantity) : amount(dish.amount),
        }))}
      />
    </div>
  );
}
