import { type Faults, faultApplies, mergeFaults as mergeSimFaults } from '../helpers/sim-faults';

export type FaultName = 'fail5xx' | 'slow' | 'loseAnswer';

/**
 * What goes wrong with the next API requests (never the /sim controls). Counts go down by one for each
 * request they hit; `only` limits a fault to requests whose `METHOD /path` matches a regular expression
 * (e.g. `{ loseAnswer: '^POST /v1/orders$' }`).
 */
export type ApiFaults = Faults<FaultName> & {
  /** The next n requests answer 500 without doing anything. */
  fail5xx: number;
  /** The next n requests wait `delayMs` before they are handled. */
  slow: number;
  delayMs: number;
  /** The next n requests do their work, then the connection is destroyed unanswered. */
  loseAnswer: number;
};

export const NO_FAULTS: ApiFaults = { fail5xx: 0, slow: 0, delayMs: 0, loseAnswer: 0, only: {} };

const COUNTS: readonly FaultName[] = ['fail5xx', 'slow', 'loseAnswer'];

/** A partial update: given counts replace the current ones, `only` patterns merge; delayMs ≥ 0. */
export function mergeFaults(current: ApiFaults, update: Partial<ApiFaults>): ApiFaults {
  const next = mergeSimFaults(current, update, COUNTS);
  if (update.delayMs !== undefined) {
    if (!Number.isInteger(update.delayMs) || update.delayMs < 0)
      throw new Error('delayMs must be a whole number ≥ 0');
    next.delayMs = update.delayMs;
  }
  for (const name of Object.keys(next.only))
    if (!COUNTS.includes(name as FaultName)) throw new Error(`unknown fault ${name}`);
  return next;
}

/** Whether a fault hits this request; when it does, its count goes down. */
export function takeFault(faults: ApiFaults, name: FaultName, route: string): boolean {
  if (!faultApplies(faults, name, route)) return false;
  faults[name] -= 1;
  return true;
}
