import { createHmac, randomBytes } from 'node:crypto';

/** The events the Webhook Events page lists. */
export const RAPPI_EVENTS = [
  'NEW_ORDER',
  'ORDER_EVENT_CANCEL',
  'ORDER_OTHER_EVENT',
  'MENU_APPROVED',
  'MENU_REJECTED',
  'PING',
  'STORE_CONNECTIVITY',
] as const;
export type RappiEvent = (typeof RAPPI_EVENTS)[number];

/** One event's webhook: its own secret, and the URL and state per store. */
export type Registration = {
  event: RappiEvent;
  secret: string;
  stores: Map<string, { url: string; state: 'ENABLE' | 'DISABLE' }>;
};

export type RappiDelivery = { event: RappiEvent; orderId: string | null; status: number };

/** Faults on the next webhook posts, each count spent by one: posted twice, never, or after the next one. */
export type RappiWebhookFaults = { twice: number; never: number; outOfOrder: number };

/** `Rappi-Signature: t=<timestamp>,sign=<hex HMAC-SHA256 of "<timestamp>.<body>" keyed with the event's secret>`. */
export function rappiSignature(body: string, secret: string, timestamp: number): string {
  const sign = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},sign=${sign}`;
}

type Pending = { event: RappiEvent; orderId: string | null; url: string; secret: string; body: string };

export class RappiWebhooks {
  readonly registrations = new Map<RappiEvent, Registration>();
  readonly deliveries: RappiDelivery[] = [];
  faults: RappiWebhookFaults = { twice: 0, never: 0, outOfOrder: 0 };
  private held: Pending[] = [];
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly now: () => number) {}

  register(event: RappiEvent, url: string, storeIds: readonly string[]): Registration {
    const registration = this.registrations.get(event) ?? { event, secret: newSecret(), stores: new Map() };
    for (const storeId of storeIds) registration.stores.set(storeId, { url, state: 'ENABLE' });
    this.registrations.set(event, registration);
    return registration;
  }

  resetSecret(event: RappiEvent): Registration | undefined {
    const registration = this.registrations.get(event);
    if (registration !== undefined) registration.secret = newSecret();
    return registration;
  }

  /** Whether a webhook for the event is enabled for the store, so the order is pushed rather than read. */
  covers(event: RappiEvent, storeId: string): boolean {
    return this.registrations.get(event)?.stores.get(storeId)?.state === 'ENABLE';
  }

  /**
   * Posts the event to the store's URL once (the portal documents no retry) and resolves with the
   * answer's status (0: nobody answered; -1: not sent, by a fault or for want of a webhook).
   */
  send(event: RappiEvent, storeId: string, orderId: string | null, payload: unknown): Promise<number> {
    const registration = this.registrations.get(event);
    const target = registration?.stores.get(storeId);
    if (registration === undefined || target === undefined || target.state !== 'ENABLE')
      return Promise.resolve(-1);
    const pending: Pending = {
      event,
      orderId,
      url: target.url,
      secret: registration.secret,
      body: JSON.stringify(payload),
    };
    if (this.consume('never')) {
      this.deliveries.push({ event, orderId, status: -1 });
      return Promise.resolve(-1);
    }
    if (this.consume('outOfOrder')) {
      this.held.push(pending);
      return Promise.resolve(-1);
    }
    const copies = this.consume('twice') ? 2 : 1;
    const first = this.track(this.post(pending));
    for (let copy = 1; copy < copies; copy += 1) void this.track(first.then(() => this.post(pending)));
    const held = this.held.splice(0);
    for (const late of held) void this.track(first.then(() => this.post(late)));
    return first;
  }

  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  reset(): void {
    this.registrations.clear();
    this.deliveries.length = 0;
    this.held = [];
    this.faults = { twice: 0, never: 0, outOfOrder: 0 };
  }

  private track(work: Promise<number>): Promise<number> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.running.add(settled);
    void settled.finally(() => this.running.delete(settled));
    return work;
  }

  private async post(pending: Pending): Promise<number> {
    const timestamp = Math.floor(this.now() / 1000);
    let status: number;
    try {
      const response = await fetch(pending.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'rappi-signature': rappiSignature(pending.body, pending.secret, timestamp),
        },
        body: pending.body,
      });
      await response.arrayBuffer();
      status = response.status;
    } catch {
      status = 0;
    }
    this.deliveries.push({ event: pending.event, orderId: pending.orderId, status });
    return status;
  }

  private consume(name: keyof RappiWebhookFaults): boolean {
    if (this.faults[name] <= 0) return false;
    this.faults = { ...this.faults, [name]: this.faults[name] - 1 };
    return true;
  }
}

function newSecret(): string {
  return randomBytes(24).toString('hex');
}
