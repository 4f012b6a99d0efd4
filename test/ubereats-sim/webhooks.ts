import { createHmac } from 'node:crypto';

/** The envelope of every Marketplace webhook (the Order Notification reference's event structure). */
export type WebhookEvent = {
  event_id: string;
  event_type: string;
  event_time: number;
  meta: { resource_id: string; status: string; user_id: string };
  resource_href: string;
};

/** One POST to the webhook URL; status 0 when nobody answered. */
export type WebhookDelivery = {
  eventId: string;
  eventType: string;
  resourceId: string;
  attempt: number;
  status: number;
};

/**
 * Faults on the next events, each count spent by one event: `twice` posts it twice (the same
 * event_id, as a retry whose first answer was lost would), `never` drops it, `outOfOrder` holds it
 * back until the next event has been sent (or until `flush`).
 */
export type WebhookFaults = { twice: number; never: number; outOfOrder: number };

export const NO_WEBHOOK_FAULTS: WebhookFaults = { twice: 0, never: 0, outOfOrder: 0 };

/** Uber resends an unanswered event 1 s, 2 s, 4 s … after the last try, until 7 were sent. */
export const MAX_ATTEMPTS = 7;

/** `X-Uber-Signature`: the lower-case hex HMAC-SHA256 of the raw body, keyed with the client secret. */
export function signatureOf(body: string, clientSecret: string): string {
  return createHmac('sha256', clientSecret).update(body).digest('hex');
}

type Sleeper = { timer: NodeJS.Timeout; wake: () => void };

export class WebhookSender {
  url: string | undefined;
  faults: WebhookFaults = NO_WEBHOOK_FAULTS;
  readonly deliveries: WebhookDelivery[] = [];
  /** Events the `never` fault dropped, for a test to see what the POS was never told. */
  readonly dropped: WebhookEvent[] = [];
  private held: WebhookEvent[] = [];
  private readonly running = new Set<Promise<void>>();
  private readonly sleepers = new Set<Sleeper>();
  private isStopped = false;

  constructor(
    private readonly clientSecret: string,
    /** The first back-off; Uber's is one second, tests shorten it. */
    private readonly retryBaseMs: number,
  ) {}

  send(event: WebhookEvent): void {
    if (this.consume('never')) {
      this.dropped.push(event);
      return;
    }
    if (this.consume('outOfOrder')) {
      this.held.push(event);
      return;
    }
    const copies = this.consume('twice') ? 2 : 1;
    const firstAnswers: Promise<void>[] = [];
    for (let copy = 0; copy < copies; copy += 1) firstAnswers.push(this.start(event));
    const held = this.held.splice(0);
    // The held events go out only once this one was answered, so they surely arrive after it.
    if (held.length > 0)
      this.track(
        Promise.all(firstAnswers).then(() => {
          for (const late of held) void this.start(late);
        }),
      );
  }

  /** Sends the events held back by `outOfOrder` now. */
  flush(): void {
    for (const event of this.held.splice(0)) void this.start(event);
  }

  get heldCount(): number {
    return this.held.length;
  }

  /** Resolves when every delivery under way has been answered 200 or has run out of attempts. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  async stop(): Promise<void> {
    this.isStopped = true;
    for (const sleeper of this.sleepers) {
      clearTimeout(sleeper.timer);
      sleeper.wake();
    }
    await this.settled();
  }

  reset(): void {
    this.faults = NO_WEBHOOK_FAULTS;
    this.held = [];
    this.deliveries.length = 0;
    this.dropped.length = 0;
  }

  /** Starts the delivery of one event; resolves once its first attempt was answered (or failed). */
  private start(event: WebhookEvent): Promise<void> {
    let firstAnswered = () => {};
    const firstAnswer = new Promise<void>((resolve) => {
      firstAnswered = () => resolve();
    });
    this.track(this.deliverUntilAcknowledged(event, firstAnswered).finally(firstAnswered));
    return firstAnswer;
  }

  private track(work: Promise<unknown>): void {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.running.add(settled);
    void settled.finally(() => this.running.delete(settled));
  }

  private async deliverUntilAcknowledged(event: WebhookEvent, firstAnswered: () => void): Promise<void> {
    const body = JSON.stringify(event);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS && !this.isStopped; attempt += 1) {
      const status = await this.post(body);
      this.deliveries.push({
        eventId: event.event_id,
        eventType: event.event_type,
        resourceId: event.meta.resource_id,
        attempt,
        status,
      });
      firstAnswered();
      if (status === 200 || attempt === MAX_ATTEMPTS) return;
      await this.sleep(this.retryBaseMs * 2 ** (attempt - 1));
    }
  }

  private async post(body: string): Promise<number> {
    if (this.url === undefined) return 0;
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-uber-signature': signatureOf(body, this.clientSecret),
          'x-environment': 'sandbox',
        },
        body,
      });
      await response.arrayBuffer();
      return response.status;
    } catch {
      return 0;
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const sleeper: Sleeper = {
        timer: setTimeout(() => sleeper.wake(), ms),
        wake: () => {
          this.sleepers.delete(sleeper);
          resolve();
        },
      };
      this.sleepers.add(sleeper);
    });
  }

  private consume(name: keyof WebhookFaults): boolean {
    if (this.faults[name] <= 0) return false;
    this.faults = { ...this.faults, [name]: this.faults[name] - 1 };
    return true;
  }
}
