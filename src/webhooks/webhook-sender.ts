import { createHmac, randomBytes } from 'node:crypto';
import { CONNECTION_FAILED, isPrivateTarget, maskUrl, PRIVATE_TARGET } from './webhook-targets';

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
  /** `webhooks_block_private_targets`: the URL's name is resolved and refused when it is private. */
  blockPrivateTargets: boolean;
};
/** What one attempt came to: a 2xx status is a delivery, anything else (or no answer) a failure. */
export type AttemptOutcome = { statusCode: number | null; error: string | null; durationMs: number };
/** Sends one delivery; tests and the job share this one implementation over real HTTP. */
export type WebhookTransport = (request: DeliveryRequest) => Promise<AttemptOutcome>;

export const httpWebhookTransport: WebhookTransport = async (request) => {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  // Checked at each attempt, after resolving the name: a name can start pointing inside at any time.
  // fetch resolves it again, so a name that changes between the two lookups could still slip through;
  // the window is one DNS answer wide.
  if (request.blockPrivateTargets && (await isPrivateTarget(request.url))) {
    return { statusCode: null, error: PRIVATE_TARGET, durationMs: elapsed() };
  }
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
    return `Redirect not followed (HTTP ${response.status}${location ? ` to ${maskUrl(location).slice(0, 500)}` : ''})`;
  }
  return `HTTP ${response.status}`;
}

/**
 * Every network failure reads the same: the deliveries log must not tell a refused port from a reset
 * or an unknown host, or a webhook becomes a scanner of the restaurant's network.
 */
function transportError(error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return `No answer within ${DELIVERY_TIMEOUT_MS / 1000} s`;
  }
  return CONNECTION_FAILED;
}
