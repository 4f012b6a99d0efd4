/** What every simulator's `npm run …-sim` does around its own start-up. */
type Stoppable = { stop(): Promise<void> };

/**
 * Runs a simulator's `main`, which answers the simulator it started (none after `--help`): Ctrl-C
 * and SIGTERM stop it cleanly, and a start-up error is printed without a stack and exits 1.
 */
export function runSimulator(
  main: (argv: string[], env: NodeJS.ProcessEnv) => Promise<Stoppable | undefined>,
): void {
  main(process.argv.slice(2), process.env)
    .then((simulator) => {
      if (!simulator) return;
      const shutDown = () => void simulator.stop().then(() => process.exit(0));
      process.on('SIGINT', shutDown);
      process.on('SIGTERM', shutDown);
    })
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}

/** A wait that a simulator's `stop` can end early, by clearing the timers it keeps in `timers`. */
export function trackedSleep(timers: Set<NodeJS.Timeout>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      resolve();
    }, ms);
    timers.add(timer);
  });
}

/** A whole-number setting from the environment, `fallback` when unset or blank. */
export function readWhole(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const raw = env[name]?.trim();
  const value = raw ? Number(raw) : fallback;
  if (!Number.isInteger(value) || value < 0 || value > max)
    throw new Error(`${name} must be a whole number from 0 to ${max}`);
  return value;
}
