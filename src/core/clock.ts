/** Time as the application sees it; tests pass a clock they can move instead of sleeping. */
export type Clock = { now(): number };

export const systemClock: Clock = { now: () => Date.now() };

export function manualClock(
  start = Date.now(),
): Clock & { advance(ms: number): void; set(ms: number): void } {
  let current = start;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (ms) => {
      current = ms;
    },
  };
}
