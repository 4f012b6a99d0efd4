import { useState } from 'preact/hooks';
import { ApiError, api, type Ok, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { CardTerminalByBrand } from '../../components/CardTerminalByBrand';
import { TextField } from '../../components/FormKit';
import { PrintOnPaper } from '../../components/PrintOnPaper';
import { fromCents, parseCents, toCents } from '../../core/cents';
import { format, language, type Strings, useLocale, useStrings } from '../../core/i18n';
import { useMoney, useSats } from '../../core/money';
import { translateServerText } from '../../core/server-text';
import { Figure, TableScroll, useAction, useLoaded, useReloadOnPayments } from './shared';

type Shift = Ok<'/shifts/current', 'get'>;
type Report = Ok<'/shifts/{id}/report', 'get'>;

const strings: Strings<
  | 'current'
  | 'noShift'
  | 'openShift'
  | 'openingCash'
  | 'open'
  | 'openedBy'
  | 'expectedCash'
  | 'countedCash'
  | 'notes'
  | 'close'
  | 'badAmount'
  | 'history'
  | 'noHistory'
  | 'opened'
  | 'closed'
  | 'user'
  | 'status'
  | 'statusOpen'
  | 'statusClosed'
  | 'difference'
  | 'report'
  | 'viewReport'
  | 'zReport'
  | 'orders'
  | 'bills'
  | 'gross'
  | 'discounts'
  | 'refunds'
  | 'net'
  | 'tax'
  | 'paymentsTotal'
  | 'tipsTotal'
  | 'lightning'
  | 'lightningFees'
  | 'byMethod'
  | 'method'
  | 'payments'
  | 'amount'
  | 'tips'
  | 'tipsByWaiter'
  | 'waiter'
  | 'sats'
  | 'closeOf'
  | 'printPage'
> = {
  en: {
    current: 'Current shift',
    noShift: 'You have no open shift.',
    openShift: 'Open a shift',
    openingCash: 'Opening cash',
    open: 'Open shift',
    openedBy: 'Opened by {name} at {time}',
    expectedCash: 'Expected cash',
    countedCash: 'Counted cash',
    notes: 'Notes',
    close: 'Close shift',
    badAmount: 'Enter an amount such as 250.00.',
    history: 'Past shifts',
    noHistory: 'No shifts yet.',
    opened: 'Opened',
    closed: 'Closed',
    user: 'Cashier',
    status: 'Status',
    statusOpen: 'open',
    statusClosed: 'closed',
    difference: 'Difference',
    report: 'Report',
    viewReport: 'Z report',
    zReport: 'Z report: {name}, {time}',
    orders: 'Orders',
    bills: 'Bills',
    gross: 'Gross sales',
    discounts: 'Discounts',
    refunds: 'Refunds',
    net: 'Net sales',
    tax: 'Tax',
    paymentsTotal: 'Payments',
    tipsTotal: 'Tips',
    lightning: 'Lightning received',
    lightningFees: 'Lightning node fees (liquidity)',
    byMethod: 'Payments by method',
    method: 'Method',
    payments: 'Payments',
    amount: 'Amount',
    tips: 'Tips',
    tipsByWaiter: 'Tips by waiter',
    waiter: 'Waiter',
    sats: '{sats} sats',
    closeOf: 'Close shift: {name}',
    printPage: 'Print this page',
  },
  es: {
    current: 'Turno actual',
    noShift: 'No tienes un turno abierto.',
    openShift: 'Abrir un turno',
    openingCash: 'Efectivo inicial',
    open: 'Abrir turno',
    openedBy: 'Abierto por {name}: {time}',
    expectedCash: 'Efectivo esperado',
    countedCash: 'Efectivo contado',
    notes: 'Notas',
    close: 'Cerrar turno',
    badAmount: 'Escribe un monto como 250.00.',
    history: 'Turnos anteriores',
    noHistory: 'Aún no hay turnos.',
    opened: 'Apertura',
    closed: 'Cierre',
    user: 'Cajero',
    status: 'Estado',
    statusOpen: 'abierto',
    statusClosed: 'cerrado',
    difference: 'Diferencia',
    report: 'Reporte',
    viewReport: 'Corte de caja (Z)',
    zReport: 'Corte de caja: {name}, {time}',
    orders: 'Pedidos',
    bills: 'Cuentas',
    gross: 'Ventas brutas',
    discounts: 'Descuentos',
    refunds: 'Reembolsos',
    net: 'Ventas netas',
    tax: 'Impuesto',
    paymentsTotal: 'Cobros',
    tipsTotal: 'Propinas',
    lightning: 'Lightning recibido',
    lightningFees: 'Comisiones del nodo Lightning (liquidez)',
    byMethod: 'Cobros por forma de pago',
    method: 'Forma de pago',
    payments: 'Cobros',
    amount: 'Monto',
    tips: 'Propinas',
    tipsByWaiter: 'Propinas por mesero',
    waiter: 'Mesero',
    sats: '{sats} sats',
    closeOf: 'Cerrar turno: {name}',
    printPage: 'Imprimir esta página',
  },
};

/** No open shift is a 404: shown as "no shift", not as an error. */
async function loadShifts() {
  const current = await ok(api.GET('/shifts/current')).catch((failure: unknown) => {
    if (failure instanceof ApiError && failure.status === 404) return undefined;
    throw failure;
  });
  const history = await ok(api.GET('/shifts', { params: { query: { limit: 50, offset: 0 } } }));
  return { current, history: history ?? [] };
}

function useDateTime(): (iso: string | null) => string {
  const formatter = new Intl.DateTimeFormat(useLocale(), { dateStyle: 'short', timeStyle: 'short' });
  return (iso) => (iso ? formatter.format(new Date(iso)) : '');
}

/** The cash drawer: the open shift, closing it with the counted cash, and each shift's Z report. */
export function ShiftsSection() {
  const t = useStrings(strings);
  const shifts = useLoaded(loadShifts);
  useReloadOnPayments(shifts.reload);
  const [reportOf, setReportOf] = useState<string>();
  const [closing, setClosing] = useState<Shift>();
  const changed = async (closedId?: string) => {
    if (closedId) setReportOf(closedId);
    setClosing(undefined);
    await shifts.reload();
  };
  return (
    <div class="manager-sections">
      <Alert message={shifts.error} />
      {shifts.data && (
        <ShiftCard title={t.current} prefix="shift" shift={shifts.data.current} onChanged={changed} />
      )}
      {closing && (
        <ShiftCard
          key={closing.id}
          title={format(t.closeOf, { name: closing.user_name })}
          prefix={`shift-${closing.id}`}
          shift={closing}
          onChanged={changed}
        />
      )}
      {reportOf && <ZReport key={reportOf} shiftId={reportOf} />}
      {shifts.data && (
        <History
          shifts={shifts.data.history}
          ownShiftId={shifts.data.current?.id}
          onReport={setReportOf}
          onClose={setClosing}
        />
      )}
    </div>
  );
}

/** A shift to close with the counted cash; without one, the form that opens your own. */
function ShiftCard({
  title,
  prefix,
  shift,
  onChanged,
}: {
  title: string;
  prefix: string;
  shift: Shift | undefined;
  onChanged: (closedId?: string) => Promise<void>;
}) {
  const t = useStrings(strings);
  const money = useMoney();
  const dateTime = useDateTime();
  const [amount, setAmount] = useState('');
  const [notes, setNotes] = useState('');
  const [invalid, setInvalid] = useState<string>();
  const action = useAction();

  const submit = async (event: Event) => {
    event.preventDefault();
    const cents = parseCents(amount);
    if (cents === undefined) {
      setInvalid(t.badAmount);
      return;
    }
    setInvalid(undefined);
    const done = await action.run(() =>
      shift
        ? writeOnce(() =>
            api.POST('/shifts/{id}/close', {
              params: { path: { id: shift.id } },
              body: { counted_cash: fromCents(cents), ...(notes.trim() ? { notes: notes.trim() } : {}) },
            }),
          )
        : writeOnce(() => api.POST('/shifts', { body: { opening_cash: fromCents(cents) } })),
    );
    if (!done) return;
    setAmount('');
    setNotes('');
    await onChanged(shift?.id);
  };
  return (
    <section class="card stack" aria-labelledby={`${prefix}-title`}>
      <h2 id={`${prefix}-title`}>{title}</h2>
      {shift ? (
        <>
          <p>{format(t.openedBy, { name: shift.user_name, time: dateTime(shift.opened_at) })}</p>
          <dl class="figures">
            <Figure label={t.openingCash} value={money(toCents(shift.opening_cash))} />
            {shift.expected_cash !== null && (
              <Figure label={t.expectedCash} value={money(toCents(shift.expected_cash))} strong />
            )}
          </dl>
        </>
      ) : (
        <p class="muted">{t.noShift}</p>
      )}
      <form class="manager-form" aria-labelledby={`${prefix}-form-title`} onSubmit={submit}>
        <h3 id={`${prefix}-form-title`}>{shift ? t.close : t.openShift}</h3>
        <div class="fields">
          <TextField
            prefix={prefix}
            name="amount"
            label={shift ? t.countedCash : t.openingCash}
            value={amount}
            onInput={setAmount}
            input={{ inputMode: 'decimal', required: true, placeholder: '0.00' }}
          />
          {shift && (
            <TextField
              prefix={prefix}
              name="notes"
              label={t.notes}
              value={notes}
              onInput={setNotes}
              input={{ maxLength: 500 }}
            />
          )}
        </div>
        <Alert message={invalid ?? action.error} />
        <div class="actions">
          <button type="submit" class={shift ? 'danger' : 'primary'} disabled={action.busy}>
            {shift ? t.close : t.open}
          </button>
        </div>
      </form>
    </section>
  );
}

function History({
  shifts,
  ownShiftId,
  onReport,
  onClose,
}: {
  shifts: Shift[];
  ownShiftId: string | undefined;
  onReport: (id: string) => void;
  onClose: (shift: Shift) => void;
}) {
  const t = useStrings(strings);
  const money = useMoney();
  const dateTime = useDateTime();
  const cash = (amount: number | null) => (amount === null ? '' : money(toCents(amount)));
  return (
    <section class="card stack" aria-labelledby="shift-history">
      <h2 id="shift-history">{t.history}</h2>
      {shifts.length === 0 ? (
        <p class="muted">{t.noHistory}</p>
      ) : (
        <TableScroll label={t.history}>
          <table class="list">
            <thead>
              <tr>
                <th scope="col">{t.opened}</th>
                <th scope="col">{t.closed}</th>
                <th scope="col">{t.user}</th>
                <th scope="col">{t.status}</th>
                <th scope="col" class="num">
                  {t.expectedCash}
                </th>
                <th scope="col" class="num">
                  {t.countedCash}
                </th>
                <th scope="col" class="num">
                  {t.difference}
                </th>
                <th scope="col">{t.report}</th>
              </tr>
            </thead>
            <tbody>
              {shifts.map((shift) => (
                <tr key={shift.id}>
                  <td>{dateTime(shift.opened_at)}</td>
                  <td>{dateTime(shift.closed_at)}</td>
                  <td>{shift.user_name}</td>
                  <td>
                    <span class={shift.status === 'open' ? 'badge ok' : 'badge neutral'}>
                      {shift.status === 'open' ? t.statusOpen : t.statusClosed}
                    </span>
                  </td>
                  <td class="num">{cash(shift.expected_cash)}</td>
                  <td class="num">{cash(shift.counted_cash)}</td>
                  <td class="num">{cash(shift.difference)}</td>
                  <td>
                    <div class="row-actions">
                      <button type="button" onClick={() => onReport(shift.id)}>
                        {t.viewReport}
                        <span class="visually-hidden">
                          {' '}
                          {shift.user_name} {dateTime(shift.opened_at)}
                        </span>
                      </button>
                      {shift.status === 'open' && shift.id !== ownShiftId && (
                        <button type="button" class="danger" onClick={() => onClose(shift)}>
                          {t.close}
                          <span class="visually-hidden"> {shift.user_name}</span>
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

/** The Z report, with each payment method's name instead of its code. */
async function loadReport(shiftId: string): Promise<Report> {
  const [report, methods] = await Promise.all([
    ok(api.GET('/shifts/{id}/report', { params: { path: { id: shiftId } } })),
    ok(api.GET('/payment-methods')),
  ]);
  const names = new Map(
    (methods ?? []).map((method) => [method.code, translateServerText(method.name, language.get())]),
  );
  return {
    ...report,
    payments_by_method: report.payments_by_method.map((row) => ({
      ...row,
      method: names.get(row.method) ?? row.method,
    })),
  };
}

function ZReport({ shiftId }: { shiftId: string }) {
  const t = useStrings(strings);
  const report = useLoaded(() => loadReport(shiftId), [shiftId]);
  return (
    <>
      <Alert message={report.error} />
      {report.data && <ZReportView report={report.data} title={t.zReport} />}
    </>
  );
}

function ZReportView({ report, title }: { report: Report; title: string }) {
  const t = useStrings(strings);
  const money = useMoney();
  const sats = useSats();
  const dateTime = useDateTime();
  const cash = (amount: number | null) => (amount === null ? '–' : money(toCents(amount)));
  return (
    <section class="card stack z-report" aria-labelledby="z-report-title">
      <div class="card-head">
        <h2 id="z-report-title">
          {format(title, { name: report.shift.user_name, time: dateTime(report.shift.opened_at) })}
        </h2>
        <div class="row no-print">
          <PrintOnPaper
            label={t.viewReport}
            send={(key) =>
              api.POST('/shifts/{id}/report/print', {
                params: { header: { 'idempotency-key': key }, path: { id: report.shift.id } },
              })
            }
          />
          <button type="button" onClick={() => window.print()}>
            {t.printPage}
          </button>
        </div>
      </div>
      <dl class="figures">
        <Figure label={t.orders} value={String(report.orders)} />
        <Figure label={t.bills} value={String(report.bills)} />
        <Figure label={t.gross} value={money(toCents(report.gross_sales))} />
        <Figure label={t.discounts} value={money(toCents(report.discounts))} />
        <Figure label={t.refunds} value={money(toCents(report.refunds))} />
        <Figure label={t.net} value={money(toCents(report.net_sales))} strong />
        <Figure label={t.tax} value={money(toCents(report.tax))} />
        <Figure label={t.paymentsTotal} value={money(toCents(report.payments_total))} />
        <Figure label={t.tipsTotal} value={money(toCents(report.tips_total))} />
        <Figure label={t.lightning} value={format(t.sats, { sats: sats(report.lightning_sats) })} />
        <Figure label={t.lightningFees} value={money(toCents(report.lightning_fees))} />
        <Figure label={t.expectedCash} value={cash(report.expected_cash)} />
        <Figure label={t.countedCash} value={cash(report.counted_cash)} />
        <Figure label={t.difference} value={cash(report.difference)} strong />
      </dl>
      {report.payments_by_method.length > 0 && (
        <TableScroll label={t.byMethod}>
          <table class="list">
            <caption>{t.byMethod}</caption>
            <thead>
              <tr>
                <th scope="col">{t.method}</th>
                <th scope="col" class="num">
                  {t.payments}
                </th>
                <th scope="col" class="num">
                  {t.amount}
                </th>
                <th scope="col" class="num">
                  {t.tips}
                </th>
              </tr>
            </thead>
            <tbody>
              {report.payments_by_method.map((row) => (
                <tr key={row.method}>
                  <th scope="row">{row.method}</th>
                  <td class="num">{row.payments}</td>
                  <td class="num">{money(toCents(row.amount))}</td>
                  <td class="num">{money(toCents(row.tips))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <CardTerminalByBrand rows={report.card_terminal_by_brand} totalFees={report.card_terminal_fees} />
      {report.tips_by_waiter.length > 0 && (
        <TableScroll label={t.tipsByWaiter}>
          <table class="list">
            <caption>{t.tipsByWaiter}</caption>
            <thead>
              <tr>
                <th scope="col">{t.waiter}</th>
                <th scope="col" class="num">
                  {t.tips}
                </th>
              </tr>
            </thead>
            <tbody>
              {report.tips_by_waiter.map((row) => (
                <tr key={row.user_id}>
                  <th scope="row">{row.name}</th>
                  <td class="num">{money(toCents(row.tips))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
