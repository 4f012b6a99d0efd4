import { type Faults, mergeFaults as mergeSimFaults } from '../helpers/sim-faults';

export { faultApplies } from '../helpers/sim-faults';
export type FaultName = 'delayMs' | 'fail5xx' | 'rateLimit' | 'loseAnswer';

/**
 * What goes wrong with the next requests. Counts go down by one for each request they hit; `only`
 * limits a fault to requests whose `METHOD /v2/path` matches a regular expression (e.g.
 * `{ loseAnswer: 'POST /v2/receipts$' }`).
 */
export type PacFaults = Faults<FaultName> & {
  /** Every request waits this long before it is handled. */
  delayMs: number;
  /** The next n requests answer 500 `internal_error` without doing anything. */
  fail5xx: number;
  /** The next n requests answer 429 `rate_limit_exceeded` with `Retry-After: 1`. */
  rateLimit: number;
  /** The next n mutating requests (POST, PUT, DELETE) do their work, then the socket is destroyed unanswered. */
  loseAnswer: number;
  only: Partial<Record<FaultName, string>>;
};

export const NO_FAULTS: PacFaults = { delayMs: 0, fail5xx: 0, rateLimit: 0, loseAnswer: 0, only: {} };

const COUNTS: readonly FaultName[] = ['delayMs', 'fail5xx', 'rateLimit', 'loseAnswer'];

export function mergeFaults(current: PacFaults, update: Partial<PacFaults>): PacFaults {
  return mergeSimFaults(current, update, COUNTS);
}
