import { createHmac } from 'node:crypto';
import { FaultyDelivery, postJson } from '../helpers/webhook-delivery';

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

/** Uber resends an unanswered event 1 s, 2 s, 4 s … after the last try, until 7 were sent. */
const MAX_ATTEMPTS = 7;

/** `X-Uber-Signature`: the lower-case hex HMAC-SHA256 of the raw body, keyed with the client secret. */
export function signatureOf(body: string, clientSecret: string): string {
  return createHmac('sha256', clientSecret).update(body).digest('hex');
}

/**
 * Posts the signed events and resends them until one is answered 200. Under the `twice` fault both
 * sends carry the same event_id, as a retry whose first answer was lost would.
 */
export class WebhookSender extends FaultyDelivery<WebhookEvent, WebhookDelivery> {
  constructor(
    private readonly clientSecret: string,
    /** The first back-off; Uber's is one second, tests shorten it. */
    retryBaseMs: number,
  ) {
    super(undefined, {
      attempts: MAX_ATTEMPTS,
      retryDelayMs: retryBaseMs,
      acknowledged: (status) => status === 200,
    });
  }

  protected async post(event: WebhookEvent, attempt: number, url: string | undefined): Promise<number> {
    const body = JSON.stringify(event);
    const headers = { 'x-uber-signature': signatureOf(body, this.clientSecret), 'x-environment': 'sandbox' };
    const status = await postJson(url, headers, body);
    this.deliveries.push({
      eventId: event.event_id,
      eventType: event.event_type,
      resourceId: event.meta.resource_id,
      attempt,
      status,
    });
    return status;
  }
}
