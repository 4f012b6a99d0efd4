import { type Faults, mergeFaults as mergeSimFaults } from '../helpers/sim-faults';

export { faultApplies } from '../helpers/sim-faults';
export type FaultName = 'delayMs' | 'fail5xx' | 'loseAnswer';

/**
 * What goes wrong with the next API requests (not the /sim controls). Counts go down by one for each
 * request they hit; `only` limits a fault to requests whose `METHOD /path` matches a regular
 * expression (e.g. `{ loseAnswer: 'accept_pos_order$' }`).
 */
export type ApiFaults = Faults<FaultName> & {
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

export function mergeFaults(current: ApiFaults, update: Partial<ApiFaults>): ApiFaults {
  return mergeSimFaults(current, update, COUNTS);
}
