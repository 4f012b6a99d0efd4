/**
 * The webhook delivery the simulators share: how one POST is made, the retries with a doubling
 * back-off that `stop` can cut short, and the `twice` / `never` / `outOfOrder` faults. What a
 * simulator posts (URL, headers, signature, body) and what it records of each try stay its own.
 */

/** One POST of a JSON body: its status, or 0 when there is no URL yet or nobody answered in time. */
export async function postJson(
  url: string | URL | undefined,
  headers: Record<string, string>,
  body: string,
  timeoutMs?: number,
): Promise<number> {
  if (url === undefined) return 0;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal: timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

export type RetrySchedule = {
  /** Tries per event (the first included). */
  attempts: number;
  /** The wait before the second try, doubled before each further one. */
  retryDelayMs: number;
  /** Whether a status ends the tries; the platforms differ on what they take as received. */
  acknowledged: (status: number) => boolean;
};

export const isSuccess = (status: number) => status >= 200 && status < 300;

type Sleeper = { timer: NodeJS.Timeout; wake: () => void };

/**
 * The deliveries a simulator has under way. `stop` wakes every retry waiting for its turn and gives it
 * up, so a simulator stops without sitting out a back-off; `settled` waits for what is still running.
 */
export class DeliveryRuns {
  private readonly running = new Set<Promise<void>>();
  private readonly sleepers = new Set<Sleeper>();
  private stopped = false;

  constructor(private readonly schedule: RetrySchedule) {}

  /** Calls `post` (one try, which answers its status) until acknowledged, out of attempts, or stopped. */
  async retry(post: (attempt: number) => Promise<number>): Promise<boolean> {
    const { attempts, retryDelayMs, acknowledged } = this.schedule;
    for (let attempt = 1; attempt <= attempts && !this.stopped; attempt += 1) {
      if (acknowledged(await post(attempt))) return true;
      if (attempt < attempts) await this.sleep(retryDelayMs * 2 ** (attempt - 1));
    }
    return false;
  }

  /** Counts `work` as under way until it settles; answers it unchanged. */
  track<T>(work: Promise<T>): Promise<T> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.running.add(settled);
    void settled.finally(() => this.running.delete(settled));
    return work;
  }

  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  stop(): void {
    this.stopped = true;
    for (const sleeper of this.sleepers) sleeper.wake();
  }

  private sleep(ms: number): Promise<void> {
    // A try answered after stop() must not start a wait that stop() can no longer end.
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const sleeper: Sleeper = {
        timer: setTimeout(() => sleeper.wake(), ms),
        wake: () => {
          clearTimeout(sleeper.timer);
          this.sleepers.delete(sleeper);
          resolve();
        },
      };
      this.sleepers.add(sleeper);
    });
  }
}

/**
 * Faults on the next events, each count spent by one: `twice` sends it twice, `never` drops it,
 * `outOfOrder` holds it back until the next one has been answered (or until `flush`).
 */
export type DeliveryFaults = { twice: number; never: number; outOfOrder: number };

export const NO_DELIVERY_FAULTS: DeliveryFaults = { twice: 0, never: 0, outOfOrder: 0 };

/**
 * Sends a simulator's events to one URL, each tried again until acknowledged, and bends them by the
 * faults. A simulator says in `post` how one try of an event goes out and what it records of it.
 */
export abstract class FaultyDelivery<Event, Delivery> {
  url: string | undefined;
  faults: DeliveryFaults = { ...NO_DELIVERY_FAULTS };
  readonly deliveries: Delivery[] = [];
  /** Events the `never` fault dropped, so a test can see what the POS was never told. */
  readonly dropped: Event[] = [];
  private held: Event[] = [];
  private readonly runs: DeliveryRuns;

  constructor(url: string | undefined, schedule: RetrySchedule) {
    this.url = url;
    this.runs = new DeliveryRuns(schedule);
  }

  /** Posts one try of the event to `url`, records it in `deliveries`, and answers the status. */
  protected abstract post(event: Event, attempt: number, url: string | undefined): Promise<number>;

  send(event: Event): void {
    if (this.take('never')) {
      this.dropped.push(event);
      return;
    }
    if (this.take('outOfOrder')) {
      this.held.push(event);
      return;
    }
    const copies = this.take('twice') ? 2 : 1;
    const firstAnswers: Promise<void>[] = [];
    for (let copy = 0; copy < copies; copy += 1) firstAnswers.push(this.start(event));
    const held = this.held.splice(0);
    // The held events go out only once this one was answered, so they surely arrive after it.
    if (held.length > 0)
      this.runs.track(
        Promise.all(firstAnswers).then(() => {
          for (const late of held) void this.start(late);
        }),
      );
  }

  /** Sends the events held back by `outOfOrder` now. */
  flush(): void {
    for (const late of this.held.splice(0)) void this.start(late);
  }

  get heldCount(): number {
    return this.held.length;
  }

  /** The delivery state a simulator's `/sim/state` shows; a dropped event by the id `idOf` gives it. */
  snapshot(idOf: (event: Event) => string) {
    return {
      url: this.url ?? null,
      deliveries: this.deliveries,
      dropped: this.dropped.map(idOf),
      held: this.heldCount,
      faults: this.faults,
    };
  }

  /** Resolves when every delivery under way has been acknowledged or has run out of attempts. */
  settled(): Promise<void> {
    return this.runs.settled();
  }

  reset(): void {
    this.faults = { ...NO_DELIVERY_FAULTS };
    this.held = [];
    this.deliveries.length = 0;
    this.dropped.length = 0;
  }

  async stop(): Promise<void> {
    this.runs.stop();
    await this.runs.settled();
  }

  /** Starts the delivery of one event; resolves once its first try was answered (or failed). */
  private start(event: Event): Promise<void> {
    let answered = () => {};
    const firstAnswer = new Promise<void>((resolve) => {
      answered = resolve;
    });
    const tries = this.runs.retry(async (attempt) => {
      const status = await this.post(event, attempt, this.url);
      answered();
      return status;
    });
    this.runs.track(tries.finally(answered));
    return firstAnswer;
  }

  private take(name: keyof DeliveryFaults): boolean {
    if (this.faults[name] <= 0) return false;
    this.faults = { ...this.faults, [name]: this.faults[name] - 1 };
    return true;
  }
}
