import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, keyHeader, messageOf, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { type LiveEvent, useLiveEvents } from '../../core/events';
import { format, useStrings } from '../../core/i18n';
import { applyMoves, clock, type Move, type Shown, useNow, useQueueLoader } from './kitchen-queue';
import { strings } from './strings';
import { VoidAlerts, type VoidNotice } from './VoidAlerts';

/** What the live stream says of a voided plate (the order dish as the API shows it). */
type VoidedDish = { id: string; status: string; dish_name: string; void_reason: string | null };

const DEFAULT_STATION = 'kitchen';
/** Past this, a dish is late: shown in red and labelled so. */
const LATE_AFTER_SECONDS = 10 * 60;
const NEXT_STATUS = { sent: 'preparing', preparing: 'ready', ready: 'served' } as const;

/** The kitchen or bar screen: the dishes sent to one station, oldest first, advanced with a tap. */
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
    const moved = event.type === 'dish.status_changed' ? (event.data as VoidedDish | undefined) : undefined;
    const voided = moved?.status === 'voided' ? moved : undefined;
    // Only a plate this station had in hand: one voided before it was sent was never started.
    const shown = voided && dishes?.find((dish) => dish.id === voided.id);
    if (voided && shown) {
      const where = shown.table_name === null ? t.counter : format(t.table, { name: shown.table_name });
      const notice = { id: voided.id, dish: voided.dish_name, where, reason: voided.void_reason };
      setVoids((list) => [...list.filter((other) => other.id !== voided.id), notice]);
    }
    reload();
  };
  useLiveEvents(['kitchen', 'orders'], onEvent, reload);

  const advance = async (dish: Shown) => {
    const next = NEXT_STATUS[dish.status as keyof typeof NEXT_STATUS];
    const inFlight = moves.current.has(dish.id) && moves.current.get(dish.id)?.doneAt === undefined;
    if (!next || inFlight) return;
    // Shown at once, and kept over any list loaded before the server confirmed it.
    moves.current.set(dish.id, { status: next });
    setMoving((current) => new Set(current).add(dish.id));
    setDishes((current) => current && applyMoves(current, moves.current, Date.now()));
    try {
      await writeOnce((key) =>
        api.PUT('/orders/{id}/dishes/{dishId}/status', {
          params: { path: { id: dish.order_id, dishId: dish.id } },
          headers: keyHeader(key),
          body: { status: next },
        }),
      );
      moves.current.set(dish.id, { status: next, doneAt: Date.now() });
      setError(undefined);
    } catch (failure) {
      moves.current.delete(dish.id);
      setError(messageOf(failure, t.unreachable));
    }
    setMoving((current) => {
      const rest = new Set(current);
      rest.delete(dish.id);
      return rest;
    });
    reload();
  };

  const stationName = (code: string) =>
    code === 'kitchen' ? t.kitchen : code === 'bar' ? t.bar : code.charAt(0).toUpperCase() + code.slice(1);

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
      </div>
      <Alert message={error} />
      <VoidAlerts
        notices={voids}
        onDismiss={(id) => setVoids((list) => list.filter((notice) => notice.id !== id))}
      />
      {dishes?.length === 0 && <p class="notice">{t.empty}</p>}
      <ul class="kitchen-queue" aria-label={t.queue}>
        {dishes?.map((dish) => (
          <DishCard
            key={dish.id}
            dish={dish}
            seconds={dish.seconds_waiting + Math.max(0, Math.floor((now - dish.loadedAt) / 1000))}
            isMoving={moving.has(dish.id)}
            onAdvance={() => void advance(dish)}
          />
        ))}
      </ul>
    </section>
  );
}

function DishCard({
  dish,
  seconds,
  isMoving,
  onAdvance,
}: {
  dish: Shown;
  seconds: number;
  isMoving: boolean;
  onAdvance: () => void;
}) {
  const t = useStrings(strings);
  const isLate = seconds > LATE_AFTER_SECONDS && dish.status !== 'ready';
  const statusLabel = dish.status === 'ready' ? t.ready : dish.status === 'preparing' ? t.preparing : t.sent;
  const badge = dish.status === 'ready' ? 'ok' : dish.status === 'preparing' ? 'warn' : 'new';
  const where = dish.table_name === null ? t.counter : format(t.table, { name: dish.table_name });
  const body = (
    <>
      <span class="dish-top">
        <span class="dish-name">{dish.dish_name}</span>
        <span class={`badge ${badge}`}>{statusLabel}</span>
      </span>
      {dish.notes && <span class="dish-notes">{dish.notes}</span>}
      <span class="dish-meta">
        <span>{where}</span>
        <span>{format(t.waiter, { name: dish.waiter })}</span>
      </span>
      <span class="dish-time">
        <span class="num">{format(t.waiting, { time: clock(seconds) })}</span>
        {isLate && <span class="badge danger">{t.late}</span>}
      </span>
      <span class="dish-hint">
        {dish.status === 'sent'
          ? t.tapToStart
          : dish.status === 'preparing'
            ? t.tapWhenReady
            : t.waitingForService}
      </span>
    </>
  );
  return (
    <li
      class={`kitchen-dish status-${dish.status}${isLate ? ' late' : ''}`}
      data-id={dish.id}
      data-status={dish.status}
    >
      {dish.status === 'ready' ? (
        <div class="dish-advance">{body}</div>
      ) : (
        <button type="button" class="dish-advance" disabled={isMoving} onClick={onAdvance}>
          {body}
        </button>
      )}
      {dish.status === 'ready' && (
        <button type="button" class="dish-served" disabled={isMoving} onClick={onAdvance}>
          {format(t.served, { dish: dish.dish_name })}
        </button>
      )}
    </li>
  );
}
