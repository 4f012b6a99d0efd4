export type FaultName = 'fail5xx' | 'slow' | 'loseAnswer';

/**
 * What goes wrong with the next calls to the Rappi routes (never `/sim/*`). Counts go down by one for
 * each call they hit; `only` limits a fault to calls whose `METHOD /path` matches a regular expression
 * (e.g. `{ loseAnswer: 'take$' }`).
 */
export type ApiFaults = {
  /** The next n calls answer 500 without doing anything. */
  fail5xx: number;
  /** The next n calls wait `delayMs` before they are handled. */
  slow: number;
  delayMs: number;
  /** The next n calls do their work, then the connection is destroyed unanswered. */
  loseAnswer: number;
  only: Partial<Record<FaultName, string>>;
};

/** What happens to the next webhook events: each count applies to that many events. */
export type WebhookFaults = {
  /** Delivered twice, the second a moment after the first (same body, same signature). */
  twice: number;
  /** Held back and delivered only after the next event has been delivered. */
  outOfOrder: number;
  /** Never delivered, as a crash or a network cut would leave it. */
  never: number;
};

export const NO_API_FAULTS: ApiFaults = { fail5xx: 0, slow: 0, delayMs: 0, loseAnswer: 0, only: {} };
export const NO_WEBHOOK_FAULTS: WebhookFaults = { twice: 0, outOfOrder: 0, never: 0 };

function wholeNumber(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a whole number ≥ 0`);
  }
  return value;
}

/** A partial update: given counts replace the current ones, `only` patterns merge. */
export function mergeApiFaults(current: ApiFaults, update: Record<string, unknown>): ApiFaults {
  const next: ApiFaults = { ...current, only: { ...current.only } };
  for (const name of ['fail5xx', 'slow', 'delayMs', 'loseAnswer'] as const) {
    if (update[name] !== undefined) next[name] = wholeNumber(name, update[name]);
  }
  const only = update.only;
  if (only !== undefined) {
    if (typeof only !== 'object' || only === null) throw new Error('only must be an object');
    for (const [name, pattern] of Object.entries(only)) {
      if (name !== 'fail5xx' && name !== 'slow' && name !== 'loseAnswer')
        throw new Error(`unknown fault ${name}`);
      if (typeof pattern !== 'string') throw new Error(`only.${name} must be a regular expression`);
      new RegExp(pattern);
      next.only[name] = pattern;
    }
  }
  return next;
}

export function mergeWebhookFaults(current: WebhookFaults, update: Record<string, unknown>): WebhookFaults {
  const next = { ...current };
  for (const name of ['twice', 'outOfOrder', 'never'] as const) {
    if (update[name] !== undefined) next[name] = wholeNumber(name, update[name]);
  }
  return next;
}

/** Whether a fault hits this call; when it does, its count goes down. */
export function takeFault(faults: ApiFaults, name: FaultName, route: string): boolean {
  if (faults[name] <= 0) return false;
  const pattern = faults.only[name];
  if (pattern !== undefined && !new RegExp(pattern).test(route)) return false;
  faults[name] -= 1;
  return true;
}
