import { useCallback, useEffect, useState } from 'preact/hooks';

/** Runs `action` once after a burst of calls (live events come in bursts: a payment, its bill, its order). */
export function useDebounced(action: () => Promise<void> | void, delayMs = 120): () => void {
  const [timer] = useState<{ id?: ReturnType<typeof setTimeout> }>({});
  useEffect(() => () => clearTimeout(timer.id), [timer]);
  return useCallback(() => {
    clearTimeout(timer.id);
    timer.id = setTimeout(() => void action(), delayMs);
  }, [action, delayMs, timer]);
}
