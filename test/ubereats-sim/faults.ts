export type FaultName = 'delayMs' | 'fail5xx' | 'loseAnswer';

/**
 * What goes wrong with the next API requests (not the /sim controls). Counts go down by one for each
 * request they hit; `only` limits a fault to requests whose `METHOD /path` matches a regular
 * expression (e.g. `{ loseAnswer: 'accept_pos_order$' }`).
 */
export type ApiFaults = {
  /** Every request waits this long before it is handled. */
  delayMs: number;
  /** The next n requests answer 500 without doing anything. */
  fail5xx: number;
  /** The next n mutating requests (POST, PUT) do their work, then the socket is destroyed unanswered. */
  loseAnswer: number;
  only: Partial<Record<FaultName, string>>;
};

export const NO_FAULTS: ApiFaults = { delayMs: 0, fail5xx: 0, loseAnswer: 0, only: {} };

const COUNTS: readonly FaultName[] = ['delayMs', 'fail5xx', 'loseAnswer'];

/** A partial update: given counts replace the current ones, `only` patterns merge. */
export function mergeFaults(current: ApiFaults, update: Partial<ApiFaults>): ApiFaults {
  const next: ApiFaults = { ...current, only: { ...current.only, ...update.only } };
  for (const name of COUNTS) {
    const value = update[name];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number ≥ 0`);
    next[name] = value;
  }
  for (const pattern of Object.values(next.only)) if (pattern !== undefined) new RegExp(pattern);
  return next;
}

export function faultApplies(faults: ApiFaults, name: FaultName, route: string): boolean {
  if (faults[name] <= 0) return false;
  const pattern = faults.only[name];
  return pattern === undefined || new RegExp(pattern).test(route);
}
