import { useCallback, useEffect, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, type Ok, ok } from '../../api/client';
import { Alert } from '../../components/Alert';
import { DeliveryOrdersLink, useDeliveryLink } from '../../components/delivery/DeliveryOrdersLink';
import { isPlatform, PLATFORM_NAMES } from '../../components/delivery/delivery-orders';
import { PrinterAlert } from '../../components/PrinterAlert';
import { toCents } from '../../core/cents';
import { useLiveEvents } from '../../core/events';
import { format, formatTable, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { messageOf } from '../../core/server-text';
import { shortCode } from '../../core/short-code';
import { DisplayPairing } from './DisplayPairing';
import { ShiftReport } from './ShiftReport';
import { strings } from './strings';
import { TillOrder } from './TillOrder';
import { ACTIVE_ORDER_STATUSES, billMoneyCents } from './till-model';
import { useDebounced } from './useDebounced';

type Order = Ok<'/orders', 'get'>[number];

/** The till: the open orders with what they owe; `/app/till/<orderId>` bills and takes payment. */
export default function TillScreen() {
  const { params } = useRoute();
  return (
    <>
      <PrinterAlert />
      {params.orderId ? <TillOrder orderId={params.orderId} /> : <OpenOrders />}
    </>
  );
}

/** Orders still seated, and completed ones that still owe money. */
function OpenOrders() {
  const t = useStrings(strings);
  const money = useMoney();
  const { route } = useLocation();
  const [orders, setOrders] = useState<Order[]>();
  const [tableNames, setTableNames] = useState<Map<string, string>>(new Map());
  const [error, setError] = useState<string>();

  const load = useCallback(async () => {
    try {
      const [all, tables] = await Promise.all([
        ok(api.GET('/orders', { params: { query: { limit: 500, offset: 0 } } })),
        ok(api.GET('/tables')),
      ]);
      setOrders(
        (all ?? []).filter(
          (order) =>
            ACTIVE_ORDER_STATUSES.has(order.status) ||
            (order.status === 'completed' && billMoneyCents(order.balance) > 0),
        ),
      );
      setTableNames(new Map((tables ?? []).map((table) => [table.id, table.name])));
      setError(undefined);
    } catch (failure) {
      setError(messageOf(failure, t.unreachable));
    }
  }, [t.unreachable]);
  useEffect(() => {
    void load();
  }, [load]);
  const reload = useDebounced(load);
  const deliveryLink = useDeliveryLink();
  useLiveEvents(
    ['orders', 'tickets', 'payments', 'tables'],
    (event) => {
      deliveryLink.apply(event);
      reload();
    },
    () => {
      deliveryLink.reload();
      reload();
    },
  );

  return (
    <section class="till">
      <div class="till-head">
        <h1>{t.openOrders}</h1>
        <DeliveryOrdersLink link={deliveryLink} />
      </div>
      <Alert message={error} />
      <ShiftReport />
      <DisplayPairing />
      {orders?.length === 0 && <p class="notice">{t.noOpenOrders}</p>}
      <ul class="grid till-orders">
        {orders?.map((order) => {
          const balance = billMoneyCents(order.balance);
          const isPaid = balance <= 0 && toCents(order.total) > 0;
          const name = order.table_id ? tableNames.get(order.table_id) : undefined;
          // A delivery order goes by its platform and the code the courier says.
          const label = isPlatform(order.channel)
            ? `${PLATFORM_NAMES[order.channel]} ${order.channel_code ?? ''}`
            : name
              ? formatTable(t.table, { name })
              : t.counter;
          return (
            <li key={order.id}>
              <button
                type="button"
                class="tile till-order"
                data-order-id={order.id}
                onClick={() => route(`/app/till/${order.id}`)}
              >
                <span class="till-order-name">{label}</span>
                <span class="muted">
                  {isPlatform(order.channel)
                    ? (order.customer_first_name ?? '')
                    : format(t.waiter, { name: order.waiter })}
                </span>
                <span class="muted">{format(t.orderCode, { code: shortCode(order.id) })}</span>
                <span class="till-order-amounts">
                  <span>
                    {t.total} <span class="num">{money(toCents(order.total))}</span>
                  </span>
                  {isPaid ? (
                    <span class="badge ok">{t.paid}</span>
                  ) : (
                    <span class="badge warn">
                      {t.due} {money(balance)}
                    </span>
                  )}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
