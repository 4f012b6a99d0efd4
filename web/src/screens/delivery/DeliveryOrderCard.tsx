import type { DeliveryOrder } from '../../components/delivery/delivery-orders';
import { isPlatform, PLATFORM_NAMES } from '../../components/delivery/delivery-orders';
import { PlatformBadge } from '../../components/delivery/PlatformBadge';
import { format, useLocale, useStrings } from '../../core/i18n';
import {
  HURRY_SECONDS,
  type MenuCategory,
  minutesAndSeconds,
  type Plate,
  plateLines,
  STATE_BADGES,
} from './delivery-model';
import { HeldItems } from './HeldItems';
import { strings } from './strings';

export type OrderActions = {
  accept: (order: DeliveryOrder) => void;
  deny: (order: DeliveryOrder) => void;
  markReady: (order: DeliveryOrder) => void;
  map: (order: DeliveryOrder, items: { index: number; dish_id: string }[]) => Promise<void>;
};

/**
 * One delivery order: its platform, code, customer, pickup time and state; its plates; and what a
 * person does with it now (accept or deny against the countdown, match its unknown items, mark it
 * ready).
 */
export function DeliveryOrderCard({
  order,
  plates,
  menu,
  now,
  mayAct,
  busy,
  actions,
}: {
  order: DeliveryOrder;
  plates: Plate[] | undefined;
  menu: MenuCategory[];
  now: number;
  mayAct: boolean;
  busy: boolean;
  actions: OrderActions;
}) {
  const t = useStrings(strings);
  const locale = useLocale();
  const state = order.channel_state ?? 'awaiting';
  const code = order.channel_code ?? '';
  const platform = isPlatform(order.channel) ? PLATFORM_NAMES[order.channel] : order.channel;
  const time = (iso: string) =>
    new Date(iso).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
  const secondsLeft = order.accept_by ? Math.floor((Date.parse(order.accept_by) - now) / 1000) : undefined;
  const isWaiting = state === 'awaiting' || state === 'held';
  const isAnswerable = state === 'awaiting' && (secondsLeft === undefined || secondsLeft > 0);
  const lines = plates ? plateLines(plates) : [];
  const title = format(t.orderOf, { platform, code });

  return (
    <li class={`delivery-order state-${state}`} data-order-id={order.id} data-state={state}>
      <h3 class="delivery-order-head">
        <PlatformBadge channel={order.channel} /> <span class="delivery-code num">{code}</span>{' '}
        {order.customer_first_name && <span class="delivery-customer">{order.customer_first_name}</span>}{' '}
        <span class={`badge ${STATE_BADGES[state]} delivery-state`}>{t[state]}</span>
      </h3>
      <p class="delivery-pickup">
        {order.pickup_at ? format(t.pickupAt, { time: time(order.pickup_at) }) : t.noPickup}
      </p>
      {isWaiting && secondsLeft !== undefined && (
        <p class={`delivery-countdown${secondsLeft <= HURRY_SECONDS ? ' hurry' : ''}`}>
          {secondsLeft > 0 ? format(t.timeLeft, { time: minutesAndSeconds(secondsLeft) }) : t.tooLate}
        </p>
      )}
      {state !== 'held' && (
        <ul class="delivery-plates" aria-label={`${t.plates}: ${title}`}>
          {plates && lines.length === 0 && <li class="muted">{t.noPlates}</li>}
          {lines.map((line) => (
            <li key={line.key}>
              <span class="num">{line.count} ×</span> {line.name}
              {line.options.length > 0 && <span class="delivery-options"> · {line.options.join(', ')}</span>}
              {line.notes && <span class="delivery-notes"> · {line.notes}</span>}
            </li>
          ))}
        </ul>
      )}
      {state === 'held' && (
        <HeldItems
          order={order}
          menu={menu}
          mayMap={mayAct}
          busy={busy}
          onMap={(items) => actions.map(order, items)}
        />
      )}
      {(state === 'held' || state === 'awaiting' || state === 'accepted') &&
        (mayAct ? (
          <div class="actions delivery-actions">
            {state === 'accepted' && (
              <button type="button" class="primary" disabled={busy} onClick={() => actions.markReady(order)}>
                {t.markReady}
                <span class="visually-hidden"> {title}</span>
              </button>
            )}
            {(state === 'held' || state === 'awaiting') && (
              <button type="button" class="danger" disabled={busy} onClick={() => actions.deny(order)}>
                {t.deny}
                <span class="visually-hidden"> {title}</span>
              </button>
            )}
            {isAnswerable && (
              <button type="button" class="primary" disabled={busy} onClick={() => actions.accept(order)}>
                {t.accept}
                <span class="visually-hidden"> {title}</span>
              </button>
            )}
          </div>
        ) : (
          state !== 'accepted' && <p class="muted">{t.askCashier}</p>
        ))}
    </li>
  );
}
