import { useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import { Alert } from '../../components/Alert';
import { Field } from '../../components/FormKit';
import { useStrings } from '../../core/i18n';
import { type InventoryReport, inventoryStrings, useQuantity } from './inventory-model';
import { TableScroll, todayIn, useAction, useLoaded } from './shared';

/** A week back by default: the span between two deliveries in most kitchens. */
const DEFAULT_DAYS = 7;

/** YYYY-MM-DD `days` before another, counted on the calendar (no time zone can shift it). */
function daysBefore(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

type Span = { from: string; to: string };

async function loadReport(span: Span | undefined): Promise<InventoryReport> {
  const chosen = span ?? (await lastWeek());
  // The operation also answers CSV; without an Accept header it answers JSON.
  return (await ok(api.GET('/reports/inventory', { params: { query: chosen } }))) as InventoryReport;
}

/** The last seven of the restaurant's days, today included. */
async function lastWeek(): Promise<Span> {
  const settings = await ok(api.GET('/settings'));
  const to = todayIn(settings.timezone);
  return { from: daysBefore(to, DEFAULT_DAYS - 1), to };
}

/** The report as CSV, saved by the browser: the URL alone cannot ask for CSV, its Accept header does. */
async function downloadCsv(span: Span): Promise<void> {
  const blob = await ok(
    api.GET('/reports/inventory', {
      params: { query: span },
      headers: { Accept: 'text/csv' },
      parseAs: 'blob',
    }),
  );
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `inventory-${span.from}-${span.to}.csv`;
  link.click();
  URL.revokeObjectURL(url);
}

/**
 * Each item's stock over a span of days: where it started, what moved it and why, where it ended.
 * Today is usually in the span, so it is read again with every movement (`version`).
 */
export function InventoryReportCard({ version }: { version: number }) {
  const t = useStrings(inventoryStrings);
  const quantity = useQuantity();
  const [span, setSpan] = useState<Span>();
  const report = useLoaded(() => loadReport(span), [span?.from, span?.to, version]);
  const download = useAction();
  const shown = report.data;
  const columns = [
    ['opening', t.opening],
    ['sales', t.sales],
    ['void_returns', t.voidReturns],
    ['waste', t.waste],
    ['receiving', t.receivings],
    ['adjustments', t.adjustments],
    ['counts', t.counts],
    ['closing', t.closing],
  ] as const;
  // The span asked for, ahead of the report that answers it: two dates changed in a row both count.
  const asked = span ?? (shown && { from: shown.from, to: shown.to });
  const change = (key: keyof Span, value: string) => {
    if (!value) return;
    setSpan((previous) => {
      const base = previous ?? asked;
      return base && { ...base, [key]: value };
    });
  };
  return (
    <section class="card stack inventory-report" aria-labelledby="inventory-report-title">
      <h2 id="inventory-report-title">{t.report}</h2>
      <div class="fields inline report-span">
        <Field id="inventory-from" label={t.from}>
          <input
            id="inventory-from"
            type="date"
            value={asked?.from ?? ''}
            onChange={(event) => change('from', event.currentTarget.value)}
          />
        </Field>
        <Field id="inventory-to" label={t.to}>
          <input
            id="inventory-to"
            type="date"
            value={asked?.to ?? ''}
            onChange={(event) => change('to', event.currentTarget.value)}
          />
        </Field>
        <div>
          <button
            id="inventory-csv"
            type="button"
            disabled={!asked || download.busy}
            onClick={() => asked && void download.run(() => downloadCsv(asked))}
          >
            {t.downloadCsv}
          </button>
        </div>
      </div>
      <Alert message={report.error ?? download.error} />
      {shown && shown.items.length === 0 && <p class="muted">{t.noReport}</p>}
      {shown && shown.items.length > 0 && (
        <TableScroll label={t.report}>
          <table class="list">
            <thead>
              <tr>
                <th scope="col">{t.item}</th>
                {columns.map(([key, header]) => (
                  <th key={key} scope="col" class="num">
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.items.map((row) => (
                <tr key={`${row.item_type}-${row.item_id}`}>
                  <th scope="row">{row.unit ? `${row.name} (${row.unit})` : row.name}</th>
                  {columns.map(([key]) => (
                    <td key={key} class="num">
                      {quantity(row[key])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
