import { createHmac, randomUUID } from 'node:crypto';

/**
 * `x-signature: ts=<ts>,v1=<hex>`: HMAC-SHA256 with the webhook secret over the manifest
 * `id:<data.id of the query, lower-cased>;request-id:<x-request-id>;ts:<ts>;`.
 */
export function signNotification(secret: string, dataId: string, requestId: string, ts: number): string {
  const manifest = `id:${dataId.toLowerCase()};request-id:${requestId};ts:${ts};`;
  return `ts=${ts},v1=${createHmac('sha256', secret).update(manifest).digest('hex')}`;
}

/** One notification: `POST <url>?data.id=<order id>&type=order` with its JSON body. */
export type Notification = { id: string; dataId: string; body: string };

/** One POST of a notification; status 0 when nobody answered in time. */
export type NotificationDelivery = {
  notificationId: string;
  dataId: string;
  action: string;
  attempt: number;
  status: number;
  requestId: string;
  signature: string;
};

/**
 * Faults on the next notifications, each count spent by one: `twice` posts it twice (same body, a new
 * x-request-id and signature each, as two sends are), `never` drops it, `outOfOrder` holds it back
 * until the next one has been answered (or until `flush`).
 */
export type NotificationFaults = { twice: number; never: number; outOfOrder: number };

export const NO_NOTIFICATION_FAULTS: NotificationFaults = { twice: 0, never: 0, outOfOrder: 0 };

export type NotifierOptions = {
  secret: string;
  url: string | undefined;
  /** Tries per notification (the first included). */
  attempts: number;
  /** The wait before the second try, doubled before each further one. */
  retryDelayMs: number;
  /** An answer slower than this counts as none. */
  timeoutMs: number;
  now: () => number;
};

type Sleeper = { timer: NodeJS.Timeout; wake: () => void };

/** Posts the signed notifications, tries again on anything but a 2xx, and bends them by the faults. */
export class Notifier {
  url: string | undefined;
  faults: NotificationFaults = { ...NO_NOTIFICATION_FAULTS };
  readonly deliveries: NotificationDelivery[] = [];
  /** Notifications the `never` fault dropped, so a test can see what the POS was never told. */
  readonly dropped: Notification[] = [];
  private held: Notification[] = [];
  private readonly running = new Set<Promise<void>>();
  private readonly sleepers = new Set<Sleeper>();
  private stopped = false;

  constructor(private readonly options: NotifierOptions) {
    this.url = options.url;
  }

  send(notification: Notification): void {
    if (this.take('never')) {
      this.dropped.push(notification);
      return;
    }
    if (this.take('outOfOrder')) {
      this.held.push(notification);
      return;
    }
    const copies = this.take('twice') ? 2 : 1;
    const firstAnswers: Promise<void>[] = [];
    for (let copy = 0; copy < copies; copy += 1) firstAnswers.push(this.start(notification));
    const held = this.held.splice(0);
    // The held ones go out once this one was answered, so they surely arrive after it.
    if (held.length > 0)
      this.track(
        Promise.all(firstAnswers).then(() => {
          for (const late of held) void this.start(late);
        }),
      );
  }

  flush(): void {
    for (const late of this.held.splice(0)) void this.start(late);
  }

  get heldCount(): number {
    return this.held.length;
  }

  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  reset(): void {
    this.faults = { ...NO_NOTIFICATION_FAULTS };
    this.held = [];
    this.deliveries.length = 0;
    this.dropped.length = 0;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const sleeper of this.sleepers) {
      clearTimeout(sleeper.timer);
      sleeper.wake();
    }
    await this.settled();
  }

  private start(notification: Notification): Promise<void> {
    let answered = () => {};
    const firstAnswer = new Promise<void>((resolve) => {
      answered = resolve;
    });
    this.track(this.deliver(notification, answered).finally(answered));
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

  private async deliver(notification: Notification, firstAnswered: () => void): Promise<void> {
    const action = String((JSON.parse(notification.body) as { action?: unknown }).action);
    for (let attempt = 1; attempt <= this.options.attempts && !this.stopped; attempt += 1) {
      const requestId = randomUUID();
      const ts = Math.floor(this.options.now() / 1000);
      const signature = signNotification(this.options.secret, notification.dataId, requestId, ts);
      const status = await this.post(notification, requestId, signature);
      this.deliveries.push({
        notificationId: notification.id,
        dataId: notification.dataId,
        action,
        attempt,
        status,
        requestId,
        signature,
      });
      firstAnswered();
      if (status >= 200 && status < 300) return;
      if (attempt < this.options.attempts) await this.sleep(this.options.retryDelayMs * 2 ** (attempt - 1));
    }
  }

  private async post(notification: Notification, requestId: string, signature: string): Promise<number> {
    if (this.url === undefined) return 0;
    const target = new URL(this.url);
    target.searchParams.set('data.id', notification.dataId);
    target.searchParams.set('type', 'order');
    try {
      const response = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signature': signature, 'x-request-id': requestId },
        body: notification.body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
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
          clearTimeout(sleeper.timer);
          this.sleepers.delete(sleeper);
          resolve();
        },
      };
      this.sleepers.add(sleeper);
    });
  }

  private take(name: keyof NotificationFaults): boolean {
    if (this.faults[name] <= 0) return false;
    this.faults = { ...this.faults, [name]: this.faults[name] - 1 };
    return true;
  }
}
