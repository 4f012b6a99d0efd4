import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, type Ok, ok } from '../../api/client';
import { useStore } from '../../api/store';
import { Alert } from '../../components/Alert';
import { CardTerminalByBrand } from '../../components/CardTerminalByBrand';
import { PrintOnPaper } from '../../components/PrintOnPaper';
import { toCents } from '../../core/cents';
import { useLiveEvents } from '../../core/events';
import { format, useStrings } from '../../core/i18n';
import { useMoney, useSats } from '../../core/money';
import { messageOf } from '../../core/server-text';
import { currentUser, useCan } from '../../core/session';
import { type Closed, ClosedFigures, CloseShift } from './CloseShift';
import { checkoutStrings } from './checkout-strings';
import { closeShiftStrings } from './close-shift-strings';
import { CashMovementForm, OpenShiftForm } from './ShiftDrawer';
import { strings } from './strings';
import { useDebounced } from './useDebounced';

type Report = Ok<'/shifts/{id}/report', 'get'>;

/** Money changed hands: the figures of the open shift move. */
const MONEY_EVENTS = new Set(['ticket.paid', 'payment.settled', 'payment.refunded', 'payment.refund_undone']);

/** Queues the shift's Z report (so far, while it is open) on the receipt printer. */
const printShiftReport = (shiftId: string) => (key: string) =>
  api.POST('/shifts/{id}/report/print', {
    params: { header: { 'idempotency-key': key }, path: { id: shiftId } },
  });

/** The cashier's open shift, its Z report so far, kept current from the live stream. */
export function ShiftReport() {
  const canUseShifts = useCan('shifts.use');
  return canUseShifts ? <OpenShiftReport /> : null;
}

function OpenShiftReport() {
  const t = useStrings(checkoutStrings);
  const common = useStrings(strings);
  const money = useMoney();
  const sats = useSats();
  const user = useStore(currentUser);
  const [report, setReport] = useState<Report | null>();
  const [error, setError] = useState<string>();
  const [closed, setClosed] = useState<Closed>();
  const closing = useStrings(closeShiftStrings);

  const load = useCallback(async () => {
    if (!user) return;
    try {
      // The newest shift of this user, rather than GET /shifts/current, whose 404 without one the
      // browser would log as a failed request.
      const [newest] =
        (await ok(api.GET('/shifts', { params: { query: { user_id: user.id, limit: 1, offset: 0 } } }))) ??
        [];
      setReport(
        newest?.status === 'open'
          ? await ok(api.GET('/shifts/{id}/report', { params: { path: { id: newest.id } } }))
          : null,
      );
      setError(undefined);
    } catch (failure) {
      setError(messageOf(failure, common.unreachable));
    }
  }, [user, common.unreachable]);
  useEffect(() => {
    void load();
  }, [load]);
  const reload = useDebounced(load);
  useLiveEvents(
    ['tickets', 'payments'],
    (event) => {
      if (MONEY_EVENTS.has(event.type)) reload();
    },
    reload,
  );

  const figures: [string, string, boolean?][] = report
    ? [
        [t.orders, String(report.orders)],
        [t.bills, String(report.bills)],
        [t.gross, money(toCents(report.gross_sales))],
        [t.discounts, money(toCents(report.discounts))],
        [t.refunds, money(toCents(report.refunds))],
        [t.net, money(toCents(report.net_sales)), true],
        [t.tips, money(toCents(report.tips_total))],
        [t.paymentsTotal, money(toCents(report.payments_total))],
        [t.lightningSats, format(common.sats, { sats: sats(report.lightning_sats) })],
        [
          t.expectedCash,
          report.expected_cash === null ? closing.expectedHidden : money(toCents(report.expected_cash)),
          true,
        ],
      ]
    : [];
  return (
    <section class="card stack till-shift" aria-labelledby="till-shift-title">
      <h2 id="till-shift-title">{t.shiftTitle}</h2>
      <Alert message={error} />
      {closed && <ClosedFigures result={closed} money={money} />}
      {closed && !report && <PrintOnPaper label={t.shiftTitle} send={printShiftReport(closed.id)} />}
      {report === null && !closed && <p class="muted">{t.noShift}</p>}
      {report === null && (
        <OpenShiftForm
          onOpened={() => {
            setClosed(undefined);
            void load();
          }}
        />
      )}
      {report && (
        <dl class="till-shift-figures">
          {figures.map(([label, value, isStrong]) => (
            <div key={label} class="till-shift-figure" data-figure={label}>
              <dt>{label}</dt>
              <dd class="num">{isStrong ? <strong>{value}</strong> : value}</dd>
            </div>
          ))}
        </dl>
      )}
      {report && <PrintOnPaper label={t.shiftTitle} send={printShiftReport(report.shift.id)} />}
      {report && (
        <CardTerminalByBrand rows={report.card_terminal_by_brand} totalFees={report.card_terminal_fees} />
      )}
      {report && (
        <CashMovementForm
          shiftId={report.shift.id}
          movements={report.shift.cash_movements}
          money={money}
          onRecorded={() => void load()}
        />
      )}
      {report && (
        <CloseShift
          shiftId={report.shift.id}
          isBlind={report.expected_cash === null}
          onClosed={(result) => {
            setClosed(result);
            void load();
          }}
        />
      )}
    </section>
  );
}
