import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, type Ok, ok } from '../../api/client';
import { messageOf } from '../../core/server-text';

type QueueItem = Ok<'/kitchen/queue', 'get'>[number];
/** A dish as loaded, with the moment it was loaded, so its waiting time counts up locally. */
export type Shown = QueueItem & { loadedAt: number };
/** A tap not yet confirmed by a list loaded after the server took it. */
export type Move = { status: Shown['status']; doneAt?: number };

/** 75 → "1:15"; an hour and more → "1:02:03". */
export function clock(totalSeconds: number): string {
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = String(totalSeconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** The current time, updated every second while the screen is shown. */
export function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * Loads the station's queue; calls while a load is under way make one more load after it, so a burst
 * of events costs two requests and the last state always wins.
 */
export function useQueueLoader(
  station: string,
  moves: { current: Map<string, Move> },
  setDishes: (dishes: Shown[]) => void,
  setError: (error: string | undefined) => void,
  unreachable: string,
): () => void {
  const state = useRef({ running: false, again: false, station });
  state.current.station = station;
  return useCallback(() => {
    const loader = state.current;
    if (loader.running) {
      loader.again = true;
      return;
    }
    loader.running = true;
    const run = async (): Promise<void> => {
      const asked = loader.station;
      const startedAt = Date.now();
      try {
        const items = await ok(
          api.GET('/kitchen/queue', { params: { query: { station: asked, limit: 200 } } }),
        );
        if (asked === loader.station) {
          const loadedAt = Date.now();
          setDishes(
            applyMoves(
              (items ?? []).map((item) => ({ ...item, loadedAt })),
              moves.current,
              startedAt,
            ),
          );
          setError(undefined);
        }
      } catch (failure) {
        setError(messageOf(failure, unreachable));
      }
      if (loader.again || asked !== loader.station) {
        loader.again = false;
        return run();
      }
      loader.running = false;
    };
    void run();
  }, [station, moves, setDishes, setError, unreachable]);
}

/**
 * Taps win over a list the server answered before it took them (the list asked for before the move
 * committed); a list asked for after the move confirmed it, and the tap is forgotten.
 */
export function applyMoves(dishes: Shown[], moves: Map<string, Move>, loadStartedAt: number): Shown[] {
  const shown: Shown[] = [];
  for (const dish of dishes) {
    const move = moves.get(dish.id);
    if (move?.doneAt !== undefined && loadStartedAt > move.doneAt) moves.delete(dish.id);
    const status = moves.get(dish.id)?.status ?? dish.status;
    if (status !== 'served') shown.push(status === dish.status ? dish : { ...dish, status });
  }
  return shown;
}

/** Plates of one order alike for the cook (same dish, options, seat, notes and status): one line "4 × Beer". */
export type PlateLine = {
  key: string;
  dish_id: string;
  dish_name: string;
  notes: string;
  options: string[];
  seat: number | null;
  status: Shown['status'];
  plates: Shown[];
};
/**
 * One course of one order: its table and waiter (a delivery order: its platform, code, customer and
 * pickup time) and lines, in the order the plates were sent.
 */
export type OrderCard = {
  key: string;
  order_id: string;
  course: number;
  table_name: string | null;
  waiter: string;
  channel: Shown['channel'];
  channel_code: string | null;
  customer_first_name: string | null;
  pickup_at: string | null;
  lines: PlateLine[];
};

/**
 * The queue as a card per order and course, in the server's order (oldest first, a delivery order by
 * its pickup time, an order's courses together), leaving out the plates bumped off this screen.
 */
export function groupByOrder(dishes: Shown[], bumped: ReadonlySet<string>): OrderCard[] {
  const cards = new Map<string, OrderCard>();
  for (const dish of dishes) {
    if (bumped.has(dish.id)) continue;
    const cardKey = `${dish.order_id}:${dish.course}`;
    let card = cards.get(cardKey);
    if (!card) {
      card = {
        key: cardKey,
        order_id: dish.order_id,
        course: dish.course,
        table_name: dish.table_name,
        waiter: dish.waiter,
        channel: dish.channel,
        channel_code: dish.channel_code,
        customer_first_name: dish.customer_first_name,
        pickup_at: dish.pickup_at,
        lines: [],
      };
      cards.set(cardKey, card);
    }
    const options = dish.modifiers.map((option) => option.name);
    const key = JSON.stringify([dish.dish_id, options, dish.seat, dish.notes, dish.status]);
    const line = card.lines.find((other) => other.key === key);
    if (line) line.plates.push(dish);
    else
      card.lines.push({
        key,
        dish_id: dish.dish_id,
        dish_name: dish.dish_name,
        notes: dish.notes,
        options,
        seat: dish.seat,
        status: dish.status,
        plates: [dish],
      });
  }
  return [...cards.values()];
}

/**
 * The ready plates a cook bumped off this station's screen: kept on this device only (the plates stay
 * ready for the waiter to serve), so a reload does not bring them back.
 */
export function loadBumped(station: string): Set<string> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(bumpKey(station)) ?? '[]');
    return new Set(Array.isArray(stored) ? stored.filter((id) => typeof id === 'string') : []);
  } catch {
    return new Set();
  }
}

/**
 * Stores the bumped plates still in the queue (served or voided ones are gone from it for good), so
 * the stored list stays as short as the queue.
 */
export function saveBumped(station: string, bumped: ReadonlySet<string>, dishes: Shown[]): Set<string> {
  const kept = new Set(dishes.filter((dish) => bumped.has(dish.id)).map((dish) => dish.id));
  try {
    localStorage.setItem(bumpKey(station), JSON.stringify([...kept]));
  } catch {
    // Storage full or refused: the bump still holds until the screen is reloaded.
  }
  return kept;
}

function bumpKey(station: string): string {
  return `pos.kitchen.bumped.${station}`;
}
