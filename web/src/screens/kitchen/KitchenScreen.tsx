import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, keyHeader, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { DeliveryOrdersLink, useDeliveryLink } from '../../components/delivery/DeliveryOrdersLink';
import { isPlatform, PLATFORM_NAMES } from '../../components/delivery/delivery-orders';
import { PrinterAlert } from '../../components/PrinterAlert';
import { type LiveEvent, useLiveEvents } from '../../core/events';
import { format, formatTable, useStrings } from '../../core/i18n';
import { messageOf } from '../../core/server-text';
import { useCan } from '../../core/session';
import { setAvailability, useStationMenu } from './kitchen-menu';
import {
  applyMoves,
  groupByOrder,
  loadBumped,
  type Move,
  type PlateLine,
  type Shown,
  saveBumped,
  useNow,
  useQueueLoader,
} from './kitchen-queue';
import { OrderCard } from './OrderCard';
import { SoldOutList } from './SoldOutList';
import { strings } from './strings';
import { VoidAlerts, type VoidNotice } from './VoidAlerts';

/** What the live stream says of a voided plate (the order dish as the API shows it). */
type VoidedDish = { id: string; status: string; dish_name: string; void_reason: string | null };

const DEFAULT_STATION = 'kitchen';
const NEXT_STATUS = { sent: 'preparing', preparing: 'ready' } as const;

/**
 * The kitchen or bar screen: the plates sent to one station as a card per order, oldest first, like
 * plates on one line advanced together with a tap; ready ones bumped off the screen.
 */
export default function KitchenScreen() {
  const t = useStrings(strings);
  const { query, route } = useLocation();
  const station = query.station || DEFAULT_STATION;
  const [stations, setStations] = useState<string[]>([DEFAULT_STATION]);
  const [dishes, setDishes] = useState<Shown[]>();
  const [error, setError] = useState<string>();
  const now = useNow();
  const [moving, setMoving] = useState<Set<string>>(new Set());
  const moves = useRef(new Map<string, Move>());
  const reload = useQueueLoader(station, moves, setDishes, setError, t.unreachable);
  const [voids, setVoids] = useState<VoidNotice[]>([]);
  const [bumped, setBumped] = useState(() => loadBumped(station));
  const menu = useStationMenu(station);
  const may86 = useCan('menu.availability');
  const deliveryLink = useDeliveryLink();

  useEffect(() => setBumped(loadBumped(station)), [station]);

  useEffect(() => {
    void ok(api.GET('/categories', { params: { query: { type: 'dish' } } }))
      .then((categories) => {
        const found = new Set([DEFAULT_STATION, station]);
        for (const category of categories ?? []) found.add(category.station ?? DEFAULT_STATION);
        setStations([...found].sort((a, b) => (a === DEFAULT_STATION ? -1 : a.localeCompare(b))));
      })
      .catch(() => undefined);
  }, [station]);

  useEffect(() => {
    setDishes(undefined);
    reload();
  }, [reload]);
  const onEvent = (event: LiveEvent) => {
    deliveryLink.apply(event);
    if (event.type === 'dish.availability_changed') return menu.reload();
    const moved = event.type === 'dish.status_changed' ? (event.data as VoidedDish | undefined) : undefined;
    const voided = moved?.status === 'voided' ? moved : undefined;
    // Only a plate this station had in hand: one voided before it was sent was never started.
    const shown = voided && dishes?.find((dish) => dish.id === voided.id);
    if (voided && shown) {
      const where = isPlatform(shown.channel)
        ? `${PLATFORM_NAMES[shown.channel]} ${shown.channel_code ?? ''}`
        : shown.table_name === null
          ? t.counter
          : formatTable(t.table, { name: shown.table_name });
      const notice = { id: voided.id, dish: voided.dish_name, where, reason: voided.void_reason };
      setVoids((list) => [...list.filter((other) => other.id !== voided.id), notice]);
    }
    reload();
  };
  useLiveEvents(['kitchen', 'orders'], onEvent, () => {
    reload();
    menu.reload();
    deliveryLink.reload();
  });

  /** 86 a dish, or offer it again; the event brings the menu back to every screen. */
  const changeAvailability = async (dishId: string, available: boolean) => {
    try {
      await setAvailability(dishId, available);
      setError(undefined);
    } catch (failure) {
      setError(messageOf(failure, t.unreachable));
    }
    menu.reload();
  };

  const on86 = (line: PlateLine) => {
    const dish = may86 ? menu.dishes.find((candidate) => candidate.id === line.dish_id) : undefined;
    return dish?.available ? () => void changeAvailability(dish.id, false) : undefined;
  };

  /** Moves every plate of the line one step, each with its own key in the write queue. */
  const advance = async (line: PlateLine) => {
    const next = NEXT_STATUS[line.status as keyof typeof NEXT_STATUS];
    const idle = (plate: Shown) =>
      !moves.current.has(plate.id) || moves.current.get(plate.id)?.doneAt !== undefined;
    const plates = line.plates.filter(idle);
    if (!next || plates.length === 0) return;
    const ids = plates.map((plate) => plate.id);
    // Shown at once, and kept over any list loaded before the server confirmed it.
    for (const id of ids) moves.current.set(id, { status: next });
    setMoving((current) => new Set([...current, ...ids]));
    setDishes((current) => current && applyMoves(current, moves.current, Date.now()));
    const results = await Promise.allSettled(
      plates.map(async (plate) => {
        await writeOnce((key) =>
          api.PUT('/orders/{id}/dishes/{dishId}/status', {
            params: { path: { id: plate.order_id, dishId: plate.id } },
            headers: keyHeader(key),
            body: { status: next },
          }),
        );
        moves.current.set(plate.id, { status: next, doneAt: Date.now() });
      }),
    );
    const failed = results.find((result) => result.status === 'rejected');
    results.forEach((result, index) => {
      if (result.status === 'rejected') moves.current.delete(ids[index] as string);
    });
    setError(failed ? messageOf(failed.reason, t.unreachable) : undefined);
    setMoving((current) => new Set([...current].filter((id) => !ids.includes(id))));
    reload();
  };

  const bump = (line: PlateLine) => {
    const next = new Set(bumped);
    for (const plate of line.plates) next.add(plate.id);
    setBumped(dishes ? saveBumped(station, next, dishes) : next);
  };

  const stationName = (code: string) =>
    code === 'kitchen' ? t.kitchen : code === 'bar' ? t.bar : code.charAt(0).toUpperCase() + code.slice(1);

  const cards = dishes && groupByOrder(dishes, bumped);

  return (
    <section class="kitchen">
      <div class="kitchen-head">
        <h1>{format(t.title, { station: stationName(station) })}</h1>
        <nav aria-label={t.stations} class="station-picker">
          {stations.map((code) => (
            <button
              key={code}
              type="button"
              aria-pressed={code === station}
              class={code === station ? 'primary' : undefined}
              onClick={() =>
                route(code === DEFAULT_STATION ? '/app/kitchen' : `/app/kitchen?station=${code}`)
              }
            >
              {stationName(code)}
            </button>
          ))}
        </nav>
        <DeliveryOrdersLink link={deliveryLink} />
      </div>
      <Alert message={error} />
      <PrinterAlert printerRole="kitchen" />
      {may86 && (
        <SoldOutList dishes={menu.dishes} onBackOn={(dish) => void changeAvailability(dish.id, true)} />
      )}
      <VoidAlerts
        notices={voids}
        onDismiss={(id) => setVoids((list) => list.filter((notice) => notice.id !== id))}
      />
      {cards?.length === 0 && <p class="notice">{t.empty}</p>}
      <ul class="kitchen-queue" aria-label={t.queue}>
        {cards?.map((card) => (
          <OrderCard
            key={card.key}
            card={card}
            secondsOf={(plate) =>
              plate.seconds_waiting + Math.max(0, Math.floor((now - plate.loadedAt) / 1000))
            }
            moving={moving}
            onAdvance={(line) => void advance(line)}
            onBump={bump}
            on86={on86}
          />
        ))}
      </ul>
    </section>
  );
}
