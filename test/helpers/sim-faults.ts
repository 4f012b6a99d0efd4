/**
 * The faults a simulator injects into its next API requests (never its /sim controls): a count per
 * fault that goes down by one for each request it hits, and `only`, a regular expression per fault
 * over `METHOD /path` that limits it to the requests it matches.
 */
export type Faults<Name extends string> = Record<Name, number> & { only: Partial<Record<Name, string>> };

/** A partial update: given counts replace the current ones, `only` patterns merge. */
export function mergeFaults<Name extends string, F extends Faults<Name>>(
  current: F,
  update: Partial<F>,
  names: readonly Name[],
): F {
  const next: F = { ...current, only: Object.assign({}, current.only, update.only) };
  for (const name of names) {
    const value = update[name];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || (value as number) < 0)
      throw new Error(`${name} must be a whole number ≥ 0`);
    next[name] = value as F[Name];
  }
  for (const pattern of Object.values<string | undefined>(next.only))
    if (pattern !== undefined) new RegExp(pattern);
  return next;
}

export function faultApplies<Name extends string>(faults: Faults<Name>, name: Name, route: string): boolean {
  if ((faults[name] as number) <= 0) return false;
  const pattern = faults.only[name];
  return pattern === undefined || new RegExp(pattern).test(route);
}
