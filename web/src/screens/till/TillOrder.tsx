import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, keyHeader, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { toCents } from '../../core/cents';
import { type LiveEvent, useLiveEvents } from '../../core/events';
import { format, formatTable, useStrings } from '../../core/i18n';
import { messageOf } from '../../core/server-text';
import { shortCode } from '../../core/short-code';
import { BillMaker } from './BillMaker';
import { BillPayments } from './BillPayments';
import { Bills } from './Bills';
import { showBill } from './customer-display';
import { FiscalPanel } from './FiscalPanel';
import { OrderDishes } from './OrderDishes';
import { PayPanel } from './PayPanel';
import { Receipt } from './Receipt';
import { strings } from './strings';
import {
  ACTIVE_ORDER_STATUSES,
  billMoneyCents,
  billNames,
  type Order,
  type OrderDish,
  TICKET_CANCELED,
  TICKET_PAID,
  type Ticket,
} from './till-model';
import { useDebounced } from './useDebounced';

type Loaded = { order: Order; dishes: OrderDish[]; tickets: Ticket[]; tableName?: string };

/** One order at the till: its dishes, its bills, and paying them. */
export function TillOrder({ orderId }: { orderId: string }) {
  const t = useStrings(strings);
  const { route } = useLocation();
  const [loaded, setLoaded] = useState<Loaded>();
  const [error, setError] = useState<string>();
  const [paying, setPaying] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [lastEvent, setLastEvent] = useState<LiveEvent>();

  // Only the latest load is shown: an answer overtaken by a newer request (a live event's reload that
  // started before a payment) would put back the balance before it, and the pay panel would start
  // the amount, tip and cash the cashier typed over again.
  const latestLoad = useRef(0);
  const load = useCallback(async () => {
    const request = ++latestLoad.current;
    try {
      const [order, dishes, tickets] = await Promise.all([
        ok(api.GET('/orders/{id}', { params: { path: { id: orderId } } })),
        ok(api.GET('/orders/{id}/dishes', { params: { path: { id: orderId } } })),
        ok(api.GET('/orders/{id}/tickets', { params: { path: { id: orderId } } })),
      ]);
      const table = order.table_id
        ? await ok(api.GET('/tables/{id}', { params: { path: { id: order.table_id } } })).catch(
            () => undefined,
          )
        : undefined;
      if (request !== latestLoad.current) return;
      setLoaded({ order, dishes: dishes ?? [], tickets: tickets ?? [], tableName: table?.name });
      setError(undefined);
    } catch (failure) {
      if (request === latestLoad.current) setError(messageOf(failure, t.unreachable));
    }
  }, [orderId, t.unreachable]);
  useEffect(() => {
    setLoaded(undefined);
    setPaying(undefined);
    setNotice(undefined);
    void load();
  }, [load]);
  // The customer display follows the bill being paid, and goes blank when the till leaves the order.
  useEffect(() => showBill(paying ?? null), [paying]);
  useEffect(() => () => showBill(null), []);
  const reload = useDebounced(load);
  useLiveEvents(
    ['orders', 'tickets', 'payments'],
    (event) => {
      setLastEvent(event);
      reload();
    },
    reload,
  );

  const failed = (failure: unknown) => setError(messageOf(failure, t.unreachable));

  // Paid in full: completing the order frees its table on every floor screen.
  const closeOrder = async () => {
    try {
      await writeOnce((key) =>
        api.POST('/orders/{id}/close', { params: { path: { id: orderId } }, headers: keyHeader(key) }),
      );
      setNotice(t.orderClosed);
      await load();
    } catch (failure) {
      failed(failure);
    }
  };

  if (!loaded) {
    return (
      <section class="till">
        <h1>{t.order}</h1>
        <Alert message={error} />
      </section>
    );
  }
  const { order, dishes, tickets, tableName } = loaded;
  const live = tickets.filter((ticket) => ticket.status !== TICKET_CANCELED);
  const billedIds = new Set(live.flatMap((ticket) => ticket.order_dish_ids));
  // Bills for a share of the amount name no dishes: the dishes left are shared by those bills.
  const hasShares = live.some((ticket) => ticket.order_dish_ids.length === 0);
  const shownDishes = dishes.filter((dish) => dish.status !== 'voided');
  const totalCents = toCents(order.total);
  const unbilledCents = totalCents - live.reduce((sum, ticket) => sum + toCents(ticket.subtotal), 0);
  // The server's one definition of what the order owes, shared with the till list, the floor and the
  // close rule: what a refund gave back after the sale is not due again.
  const balanceCents = billMoneyCents(order.balance);
  const isFullyPaid = totalCents > 0 && unbilledCents <= 0 && balanceCents <= 0;
  const payingTicket = tickets.find((ticket) => ticket.id === paying);
  const names = billNames(tickets, dishes, t);
  const payingName = (payingTicket && names.get(payingTicket.id)) ?? '';

  return (
    <section class="till till-order-view">
      <div class="till-head">
        <h1>{tableName ? formatTable(t.table, { name: tableName }) : t.counterOrder}</h1>
        <a href="/app/till" class="till-back">
          {t.allOrders}
        </a>
      </div>
      <p class="muted">
        {format(t.waiter, { name: order.waiter })} · {format(t.orderCode, { code: shortCode(order.id) })}
      </p>
      <Alert message={error} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {isFullyPaid && (
        <div class="notice till-paid" role="status">
          <p>
            <strong>{t.fullyPaid}</strong>
          </p>
          {ACTIVE_ORDER_STATUSES.has(order.status) ? (
            <button type="button" class="primary" onClick={() => void closeOrder()}>
              {t.closeOrder}
            </button>
          ) : (
            <>
              {/* Closed by the cashier, or by itself once paid (the `close_paid_orders` setting). */}
              <p>{t.orderClosed}</p>
              <button type="button" class="primary" onClick={() => route('/app/floor')}>
                {t.backToFloor}
              </button>
            </>
          )}
        </div>
      )}
      <div class="till-columns">
        <div class="stack">
          <OrderDishes
            dishes={shownDishes}
            billedIds={billedIds}
            hasShares={hasShares}
            totalCents={totalCents}
            discountCents={billMoneyCents(order.discount)}
            paidCents={billMoneyCents(order.paid)}
            balanceCents={balanceCents}
            unbilledCents={unbilledCents}
          />
        </div>
        <div class="stack">
          {unbilledCents > 0 && (
            <BillMaker
              orderId={order.id}
              unbilledCents={unbilledCents}
              unbilledDishes={shownDishes.filter((dish) => !billedIds.has(dish.id))}
              onCreated={(firstId) => {
                setError(undefined);
                setPaying(firstId);
                void load();
              }}
              onError={failed}
            />
          )}
          <Bills
            tickets={tickets}
            names={names}
            paying={paying}
            onPay={(id) => {
              setError(undefined);
              setNotice(undefined);
              setPaying(id);
            }}
            onChanged={() => void load()}
            onError={failed}
          />
          {payingTicket && (
            <PayPanel
              key={payingTicket.id}
              ticket={payingTicket}
              name={payingName}
              lastEvent={lastEvent}
              onPaid={(message) => {
                if (message) setNotice(message);
                void load();
              }}
            />
          )}
          {payingTicket && payingTicket.status !== TICKET_CANCELED && (
            <BillPayments key={payingTicket.id} ticket={payingTicket} name={payingName} />
          )}
          {payingTicket && payingTicket.status !== TICKET_CANCELED && (
            <Receipt
              key={`${payingTicket.id}-${payingTicket.status}`}
              ticketId={payingTicket.id}
              name={payingName}
              guest={payingTicket.status !== TICKET_PAID}
            />
          )}
          {payingTicket?.status === TICKET_PAID && (
            <FiscalPanel key={payingTicket.id} ticketId={payingTicket.id} />
          )}
        </div>
      </div>
    </section>
  );
}
