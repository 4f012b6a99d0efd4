import { createHmac, randomBytes } from 'node:crypto';
import { DeliveryRuns, isSuccess, postJson } from '../helpers/webhook-delivery';
import { NO_WEBHOOK_FAULTS, type WebhookFaults } from './faults';
import { RappiError } from './model';

/** The events of Rappi's "Webhook Events" page that the simulator sends. */
export const WEBHOOK_EVENTS = ['NEW_ORDER', 'ORDER_EVENT_CANCEL', 'ORDER_OTHER_EVENT', 'STORE_CONNECTIVITY'];

export type Webhook = { event: string; url: string; stores: Set<string>; secret: string; enabled: boolean };

export type Delivery = {
  event: string;
  url: string;
  storeId: string;
  attempt: number;
  /** 0 when nobody answered (refused, reset, timed out). */
  status: number;
  body: string;
  signature: string;
};

export type DeliveryOptions = {
  /** How many times an event is tried before it is given up (Rappi's pages name no retry schedule). */
  attempts: number;
  retryDelayMs: number;
  timeoutMs: number;
};

/** `Rappi-Signature: t=<timestamp>,sign=<hex HMAC-SHA256 of "<timestamp>.<body>" with the webhook's secret>`. */
export function signRappi(secret: string, timestamp: number, body: string): string {
  const sign = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},sign=${sign}`;
}

const newSecret = () => randomBytes(24).toString('hex');

/**
 * The webhooks registered through the API (one per event and URL, each with its own secret) and their
 * deliveries: signed, tried again on anything but a 2xx, and bent by the webhook faults.
 */
export class WebhookHub {
  readonly webhooks: Webhook[] = [];
  readonly deliveries: Delivery[] = [];
  faults: WebhookFaults = { ...NO_WEBHOOK_FAULTS };
  private held: (() => Promise<boolean>)[] = [];
  private readonly runs: DeliveryRuns;

  constructor(
    private readonly options: DeliveryOptions,
    private readonly now: () => number,
  ) {
    this.runs = new DeliveryRuns({
      attempts: options.attempts,
      retryDelayMs: options.retryDelayMs,
      acknowledged: isSuccess,
    });
  }

  register(event: string, url: string, stores: string[]): Webhook {
    if (!WEBHOOK_EVENTS.includes(event)) throw new RappiError(400, `Invalid event ${event}`);
    if (!URL.canParse(url)) throw new RappiError(400, 'Invalid url');
    const existing = this.webhooks.find((webhook) => webhook.event === event && webhook.url === url);
    if (existing) {
      for (const store of stores) existing.stores.add(store);
      return existing;
    }
    const webhook = { event, url, stores: new Set(stores), secret: newSecret(), enabled: true };
    this.webhooks.push(webhook);
    return webhook;
  }

  forEvent(event: string): Webhook[] {
    return this.webhooks.filter((webhook) => webhook.event === event);
  }

  resetSecret(event: string): Webhook[] {
    const webhooks = this.existing(event);
    for (const webhook of webhooks) webhook.secret = newSecret();
    return webhooks;
  }

  changeUrl(event: string, url: string, stores: string[]): Webhook {
    if (!URL.canParse(url)) throw new RappiError(400, 'Invalid url');
    for (const webhook of this.existing(event)) for (const store of stores) webhook.stores.delete(store);
    return this.register(event, url, stores);
  }

  changeStatus(event: string, enabled: boolean, stores: string[] | undefined): Webhook[] {
    const webhooks = this.existing(event).filter(
      (webhook) => stores === undefined || stores.some((store) => webhook.stores.has(store)),
    );
    for (const webhook of webhooks) webhook.enabled = enabled;
    return webhooks;
  }

  removeStores(event: string, stores: string[]): Webhook[] {
    const webhooks = this.existing(event);
    for (const webhook of webhooks) for (const store of stores) webhook.stores.delete(store);
    return webhooks;
  }

  private existing(event: string): Webhook[] {
    const webhooks = this.forEvent(event);
    if (webhooks.length === 0) throw new RappiError(404, `No webhook for event ${event}`);
    return webhooks;
  }

  /** Whether an event for this store would be sent anywhere. */
  listens(event: string, storeId: string): boolean {
    return this.forEvent(event).some((webhook) => webhook.enabled && webhook.stores.has(storeId));
  }

  /**
   * Sends one event to every enabled webhook of the store. `delivered` settles with true when at least
   * one receiver answered 2xx (false when every attempt failed or the event was dropped), so the order
   * can fall back to polling as the guide says it does when the webhook fails.
   */
  send(event: string, storeId: string, payload: unknown): Promise<boolean> {
    const body = JSON.stringify(payload);
    const targets = this.forEvent(event).filter((webhook) => webhook.enabled && webhook.stores.has(storeId));
    if (this.faults.never > 0) {
      this.faults.never -= 1;
      return Promise.resolve(false);
    }
    const times = this.faults.twice > 0 ? 2 : 1;
    if (times === 2) this.faults.twice -= 1;
    const deliver = async () => {
      const results = await Promise.all(
        targets.map(async (webhook) => {
          let ok = false;
          for (let copy = 0; copy < times; copy += 1) {
            ok = (await this.deliverWithRetries(webhook, storeId, body)) || ok;
          }
          return ok;
        }),
      );
      const released = this.held;
      this.held = [];
      for (const late of released) this.runs.track(late());
      return results.some(Boolean);
    };
    if (this.faults.outOfOrder > 0) {
      this.faults.outOfOrder -= 1;
      return new Promise<boolean>((resolve) => {
        this.held.push(async () => {
          const ok = await deliver();
          resolve(ok);
          return ok;
        });
      });
    }
    return this.runs.track(deliver());
  }

  /** Waits for every delivery under way (held ones excepted), e.g. before a test reads what arrived. */
  settled(): Promise<void> {
    return this.runs.settled();
  }

  stop(): void {
    this.runs.stop();
    this.held = [];
  }

  private deliverWithRetries(webhook: Webhook, storeId: string, body: string): Promise<boolean> {
    return this.runs.retry(async (attempt) => {
      const signature = signRappi(webhook.secret, Math.floor(this.now() / 1000), body);
      const status = await postJson(
        webhook.url,
        { 'rappi-signature': signature },
        body,
        this.options.timeoutMs,
      );
      this.deliveries.push({
        event: webhook.event,
        url: webhook.url,
        storeId,
        attempt,
        status,
        body,
        signature,
      });
      return status;
    });
  }
}
