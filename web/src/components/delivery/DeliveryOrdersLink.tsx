import { useEffect, useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import type { LiveEvent } from '../../core/events';
import { format, type Strings, useStrings } from '../../core/i18n';
import { useCan } from '../../core/session';
import { isPlatform, needsPerson, PLATFORM_NAMES, useTodaysDeliveryOrders } from './delivery-orders';

const strings: Strings<'delivery' | 'waiting' | 'arrived'> = {
  en: {
    delivery: 'Delivery orders',
    waiting: '{n} to answer',
    arrived: 'New {platform} order {code} is waiting for an answer',
  },
  es: {
    delivery: 'Pedidos a domicilio',
    waiting: '{n} por responder',
    arrived: 'Nuevo pedido de {platform} {code}: espera respuesta',
  },
};

/**
 * What the till and the kitchen keep of today's delivery orders for their link: who may see them
 * (`channels.read`), whether the restaurant takes any (a configured platform, or an order today), and
 * how many wait for a person. The host screen passes its live events to `apply` and its resets to
 * `reload`, so no second stream is opened.
 */
export function useDeliveryLink() {
  const mayRead = useCan('channels.read');
  const delivery = useTodaysDeliveryOrders(mayRead);
  const [hasPlatforms, setHasPlatforms] = useState(false);
  useEffect(() => {
    if (!mayRead) return;
    void ok(api.GET('/channels'))
      .then((channels) => setHasPlatforms((channels ?? []).length > 0))
      .catch(() => undefined);
  }, [mayRead]);
  const orders = delivery.orders ?? [];
  return {
    isShown: mayRead && (hasPlatforms || orders.length > 0),
    waiting: orders.filter(needsPerson).length,
    /** The newest order announced, while it still waits. */
    arrived: orders.find((order) => order.id === delivery.arrived?.id && needsPerson(order)),
    apply: (event: LiveEvent) => delivery.apply(event),
    reload: delivery.reload,
  };
}

/**
 * The till's and the kitchen's way to the delivery orders: a badge counts those waiting for a
 * person (held or awaiting acceptance), and a new one is said in words beside the sound it plays.
 */
export function DeliveryOrdersLink({ link }: { link: ReturnType<typeof useDeliveryLink> }) {
  const t = useStrings(strings);
  if (!link.isShown) return null;
  const { arrived } = link;
  return (
    <div class="delivery-link-box">
      <a href="/app/delivery" class={`button delivery-link${link.waiting > 0 ? ' has-waiting' : ''}`}>
        {t.delivery}{' '}
        {link.waiting > 0 && (
          <span class="delivery-count num">
            {link.waiting}
            <span class="visually-hidden"> ({format(t.waiting, { n: link.waiting })})</span>
          </span>
        )}
      </a>
      <p class="delivery-arrived" role="status">
        {arrived && isPlatform(arrived.channel)
          ? format(t.arrived, { platform: PLATFORM_NAMES[arrived.channel], code: arrived.channel_code ?? '' })
          : ''}
      </p>
    </div>
  );
}
