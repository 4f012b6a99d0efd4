import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, messageOf, type Ok, ok } from '../../api/client';

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
