import { createHmac, randomBytes } from 'node:crypto';

/** A receiver that has not answered in this time counts as down (contract-live.md). */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** 32 random bytes as hex: the key a receiver checks signatures with. */
export function newWebhookSecret(): string {
  return randomBytes(32).toString('hex');
}

/**
 * `t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: the timestamp is signed with the body, so a
 * receiver that refuses old timestamps also refuses a captured delivery replayed later.
 */
export function signatureHeader(secret: string, unixSeconds: number, body: string): string {
  const digest = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}

export type DeliveryRequest = {
  url: string;
  secret: string;
  eventId: number;
  body: string;
  unixSeconds: number;
};
/** What one attempt came to: a 2xx status is a delivery, anything else (or no answer) a failure. */
export type AttemptOutcome = { statusCode: number | null; error: string | null; durationMs: number };
/** Sends one delivery; tests and the job share this one implementation over real HTTP. */
export type WebhookTransport = (request: DeliveryRequest) => Promise<AttemptOutcome>;

export const httpWebhookTransport: WebhookTransport = async (request) => {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'POS-Event-Id': String(request.eventId),
        'POS-Signature': signatureHeader(request.secret, request.unixSeconds, request.body),
      },
      body: request.body,
      // A redirect could lead the signed event to another host; the receiver must give its real URL.
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    // Only the status matters; dropping the body frees the connection at once.
    await response.body?.cancel();
    return { statusCode: response.status, error: statusError(response), durationMs: elapsed() };
  } catch (error) {
    return { statusCode: null, error: transportError(error), durationMs: elapsed() };
  }
};

function statusError(response: Response): string | null {
  if (response.status >= 200 && response.status < 300) return null;
  if (response.status >= 300 && response.status < 400) {
    const location = response.headers.get('location');
    return `Redirect not followed (HTTP ${response.status}${location ? ` to ${location.slice(0, 500)}` : ''})`;
  }
  return `HTTP ${response.status}`;
}

function transportError(error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return `No answer within ${DELIVERY_TIMEOUT_MS / 1000} s`;
  }
  // fetch reports every network failure as "fetch failed"; the cause says which (ECONNREFUSED…).
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return (cause instanceof Error ? cause.message : String(cause)).slice(0, 500);
}
