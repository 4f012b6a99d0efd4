import { createHmac, randomUUID } from 'node:crypto';
import { FaultyDelivery, isSuccess, postJson } from '../helpers/webhook-delivery';

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

/**
 * Posts the signed notifications and tries again on anything but a 2xx. Under the `twice` fault both
 * sends carry the same body but a new x-request-id and signature each, as two sends do.
 */
export class Notifier extends FaultyDelivery<Notification, NotificationDelivery> {
  constructor(private readonly options: NotifierOptions) {
    super(options.url, {
      attempts: options.attempts,
      retryDelayMs: options.retryDelayMs,
      acknowledged: isSuccess,
    });
  }

  protected async post(
    notification: Notification,
    attempt: number,
    url: string | undefined,
  ): Promise<number> {
    const requestId = randomUUID();
    const ts = Math.floor(this.options.now() / 1000);
    const signature = signNotification(this.options.secret, notification.dataId, requestId, ts);
    const status = await postJson(
      url === undefined ? undefined : notificationUrl(url, notification.dataId),
      { 'x-signature': signature, 'x-request-id': requestId },
      notification.body,
      this.options.timeoutMs,
    );
    this.deliveries.push({
      notificationId: notification.id,
      dataId: notification.dataId,
      action: String((JSON.parse(notification.body) as { action?: unknown }).action),
      attempt,
      status,
      requestId,
      signature,
    });
    return status;
  }
}

function notificationUrl(url: string, dataId: string): URL {
  const target = new URL(url);
  target.searchParams.set('data.id', dataId);
  target.searchParams.set('type', 'order');
  return target;
}
