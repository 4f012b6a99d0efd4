import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, keyHeader, type Outcome, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import {
  type DeliveryOrder,
  deliveryOrderOf,
  needsPerson,
  useTodaysDeliveryOrders,
} from '../../components/delivery/delivery-orders';
import { type LiveEvent, useLiveEvents } from '../../core/events';
import { useStrings } from '../../core/i18n';
import { messageOf } from '../../core/server-text';
import { useCan } from '../../core/session';
import { ChannelStates } from './ChannelStates';
import { DeliveryOrderCard, type OrderActions } from './DeliveryOrderCard';
import { DenyDialog } from './DenyDialog';
import { type MenuCategory, type Plate, useNow } from './delivery-model';
import { strings } from './strings';

/**
 * "Pedidos a domicilio": the delivery apps' states, and today's delivery orders newest first, live,
 * with what a person does with each (accept or deny before the platform's deadline, match items the
 * menu lacks, mark ready). Opened from the till and the kitchen.
 */
export default function DeliveryScreen() {
  const t = useStrings(strings);
  const delivery = useTodaysDeliveryOrders();
  const plates = usePlates(delivery.orders);
  const menu = useMenu(delivery.orders?.some((order) => order.channel_state === 'held') ?? false);
  const mayAct = useCan('orders.write');
  const now = useNow();
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();
  const [denying, setDenying] = useState<DeliveryOrder>();
  const [denyError, setDenyError] = useState<string>();

  useLiveEvents(
    ['orders'],
    (event: LiveEvent) => {
      delivery.apply(event);
      plates.apply(event);
    },
    () => {
      delivery.reload();
      plates.reset();
    },
  );

  /** One action on one order; the live event brings its new state. */
  const run = async <T,>(order: DeliveryOrder, send: (key: string) => Promise<Outcome<T>>) => {
    setBusy(order.id);
    setError(undefined);
    try {
      await writeOnce(send);
      return true;
    } catch (failure) {
      setError(messageOf(failure, t.unreachable));
      return false;
    } finally {
      setBusy(undefined);
    }
  };
  const path = (order: DeliveryOrder) => ({ params: { path: { id: order.id } } });
  const actions: OrderActions = {
    accept: (order) =>
      void run(order, (key) => api.POST('/orders/{id}/accept', { ...path(order), headers: keyHeader(key) })),
    markReady: (order) =>
      void run(order, (key) => api.POST('/orders/{id}/ready', { ...path(order), headers: keyHeader(key) })),
    deny: (order) => {
      setDenyError(undefined);
      setDenying(order);
    },
    map: async (order, items) => {
      await run(order, (key) =>
        api.POST('/orders/{id}/map', { ...path(order), headers: keyHeader(key), body: { items } }),
      );
    },
  };
  const deny = async (order: DeliveryOrder, reason: string) => {
    setBusy(order.id);
    try {
      await writeOnce((key) =>
        api.POST('/orders/{id}/deny', { ...path(order), headers: keyHeader(key), body: { reason } }),
      );
      setDenying(undefined);
    } catch (failure) {
      setDenyError(messageOf(failure, t.unreachable));
    } finally {
      setBusy(undefined);
    }
  };

  const waiting = delivery.orders?.filter(needsPerson).length ?? 0;
  const loadError = delivery.error === undefined ? undefined : messageOf(delivery.error, t.unreachable);
  return (
    <section class="delivery">
      <h1>
        {t.title} {waiting > 0 && <span class="delivery-count num">{waiting}</span>}
      </h1>
      <ChannelStates />
      <Alert message={error ?? loadError} />
      <h2>{t.orders}</h2>
      {delivery.orders?.length === 0 && <p class="notice">{t.empty}</p>}
      <ul class="delivery-orders" aria-label={t.orders}>
        {delivery.orders?.map((order) => (
          <DeliveryOrderCard
            key={order.id}
            order={order}
            plates={plates.of(order.id)}
            menu={menu}
            now={now}
            mayAct={mayAct}
            busy={busy === order.id}
            actions={actions}
          />
        ))}
      </ul>
      {denying && (
        <DenyDialog
          code={denying.channel_code ?? ''}
          error={denyError}
          busy={busy === denying.id}
          onDeny={(reason) => void deny(denying, reason)}
          onClose={() => setDenying(undefined)}
        />
      )}
    </section>
  );
}

/**
 * The plates of each order shown, read once per order and then kept current from its
 * `order.dishes_changed` events (a held order has none until its items are matched).
 */
function usePlates(orders: DeliveryOrder[] | undefined) {
  const [plates, setPlates] = useState<Map<string, Plate[]>>(new Map());
  const asked = useRef(new Set<string>());
  const load = useCallback((orderId: string) => {
    asked.current.add(orderId);
    void ok(api.GET('/orders/{id}/dishes', { params: { path: { id: orderId } } }))
      .then((dishes) => setPlates((current) => new Map(current).set(orderId, dishes ?? [])))
      .catch(() => asked.current.delete(orderId));
  }, []);
  useEffect(() => {
    for (const order of orders ?? []) {
      if (order.channel_state !== 'held' && !asked.current.has(order.id)) load(order.id);
    }
  }, [orders, load]);
  return {
    of: (orderId: string) => plates.get(orderId),
    apply: (event: LiveEvent) => {
      if (event.type !== 'order.dishes_changed' || !deliveryOrderOf(event)) return;
      const { order, dishes } = event.data as { order: DeliveryOrder; dishes: Plate[] };
      asked.current.add(order.id);
      setPlates((current) => new Map(current).set(order.id, dishes));
    },
    reset: () => {
      asked.current.clear();
      setPlates(new Map());
    },
  };
}

/** The menu's dishes by category, for matching a held order's items; read when one is shown. */
function useMenu(isNeeded: boolean): MenuCategory[] {
  const [menu, setMenu] = useState<MenuCategory[]>([]);
  useEffect(() => {
    if (!isNeeded) return;
    void ok(api.GET('/menu'))
      .then((board) =>
        setMenu(board.categories.map((category) => ({ name: category.name, dishes: category.dishes }))),
      )
      .catch(() => undefined);
  }, [isNeeded]);
  return menu;
}
