import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, type Ok, ok } from '../../api/client';
import type { LiveEvent } from '../../core/events';

/** An order as GET /orders lists it; a delivery order carries its platform's fields. */
export type DeliveryOrder = Ok<'/orders', 'get'>[number];
export type Platform = 'ubereats' | 'rappi';
export type ChannelState = NonNullable<DeliveryOrder['channel_state']>;

/** Brand names: the same in every language. */
export const PLATFORM_NAMES: Record<Platform, string> = { ubereats: 'Uber Eats', rappi: 'Rappi' };

export function isPlatform(channel: string | null | undefined): channel is Platform {
  return channel === 'ubereats' || channel === 'rappi';
}

/** Held (items to map) or awaiting an answer before the platform's deadline: a person must act. */
export function needsPerson(order: Pick<DeliveryOrder, 'channel_state'>): boolean {
  return order.channel_state === 'held' || order.channel_state === 'awaiting';
}

let timeZone: Promise<string> | undefined;

/** The restaurant's day as GET /orders' `date` reads it (its time zone, from GET /settings), asked once. */
export async function restaurantToday(now = Date.now()): Promise<string> {
  timeZone ??= ok(api.GET('/settings'))
    .then((settings) => settings.timezone)
    .catch((failure: unknown) => {
      timeZone = undefined;
      throw failure;
    });
  const zone = await timeZone;
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(now));
}

/** Today's delivery orders, newest first. */
export async function loadTodaysDeliveryOrders(): Promise<DeliveryOrder[]> {
  const date = await restaurantToday();
  return (
    (await ok(
      api.GET('/orders', { params: { query: { channel: 'delivery', date, limit: 200, offset: 0 } } }),
    )) ?? []
  );
}

/** The order a live event is about, when it is a delivery order's. */
export function deliveryOrderOf(event: LiveEvent): DeliveryOrder | undefined {
  if (!event.type.startsWith('order.')) return undefined;
  const data = event.data as { order?: DeliveryOrder } & Partial<DeliveryOrder>;
  const order = event.type === 'order.dishes_changed' ? data.order : (data as DeliveryOrder);
  return order && isPlatform(order.channel) ? order : undefined;
}

let audio: AudioContext | undefined;

/**
 * Two short tones through Web Audio: a new delivery order waits for a person. A browser that allows
 * no sound yet (nobody has touched the page) stays silent; the screen says it in words too.
 */
export function playNewOrderSound(): void {
  try {
    audio ??= new AudioContext();
    void audio.resume().catch(() => undefined);
    for (const [offset, frequency] of [
      [0, 880],
      [0.25, 1175],
    ] as const) {
      const start = audio.currentTime + offset;
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.frequency.value = frequency;
      volume.gain.setValueAtTime(0.25, start);
      volume.gain.exponentialRampToValueAtTime(0.001, start + 0.2);
      tone.connect(volume).connect(audio.destination);
      tone.start(start);
      tone.stop(start + 0.2);
    }
  } catch {
    // No Web Audio here: the badge and the notice still say it.
  }
}

/**
 * Today's delivery orders, kept current from the live events the screen already follows (`apply`
 * each one; `reload` on a reset). A new order that needs a person plays the sound once and is named
 * in `arrived`; the ones already there when the screen opened are not announced.
 */
export function useTodaysDeliveryOrders(isEnabled = true): {
  orders: DeliveryOrder[] | undefined;
  error: unknown;
  arrived: DeliveryOrder | undefined;
  reload: () => void;
  apply: (event: LiveEvent) => void;
} {
  const [orders, setOrders] = useState<DeliveryOrder[]>();
  const [error, setError] = useState<unknown>();
  const [arrived, setArrived] = useState<DeliveryOrder>();
  const announced = useRef<Set<string> | undefined>(undefined);
  const latest = useRef(0);

  const show = useCallback((next: DeliveryOrder[]) => {
    const fresh = next.filter((order) => needsPerson(order) && !announced.current?.has(order.id));
    if (announced.current === undefined) announced.current = new Set();
    else if (fresh.length > 0) {
      playNewOrderSound();
      setArrived(fresh[0]);
    }
    for (const order of next) if (needsPerson(order)) announced.current.add(order.id);
    setOrders(next);
  }, []);

  const reload = useCallback(() => {
    if (!isEnabled) return;
    const request = ++latest.current;
    void loadTodaysDeliveryOrders()
      .then((loaded) => {
        if (request !== latest.current) return;
        show(loaded);
        setError(undefined);
      })
      .catch((failure: unknown) => {
        if (request === latest.current) setError(failure);
      });
  }, [show, isEnabled]);
  useEffect(reload, [reload]);

  const current = useRef(orders);
  current.current = orders;
  const apply = useCallback(
    (event: LiveEvent) => {
      const changed = deliveryOrderOf(event);
      if (!changed || !current.current) return;
      const others = current.current.filter((order) => order.id !== changed.id);
      if (event.type === 'order.deleted') return show(others);
      const known = current.current.find((order) => order.id === changed.id);
      // Newest first; an order keeps its place when it changes.
      const next = known
        ? current.current.map((order) => (order.id === changed.id ? { ...order, ...changed } : order))
        : [changed, ...others];
      show(next);
    },
    [show],
  );

  return { orders, error, arrived, reload, apply };
}
