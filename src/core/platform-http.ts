import { PlatformError } from './delivery-platform';

/**
 * HTTP to the outside platforms the POS calls (the delivery apps, the card provider), kept in core so
 * that each platform's client shares one way of sending and of reading a refusal.
 */

/** One request to a platform: a JSON body, or a form (Uber's token endpoint). */
export type PlatformCall = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  path: string;
  json?: unknown;
  form?: URLSearchParams;
  headers?: Record<string, string>;
};

/** Any HTTP answer the platform gave; the caller decides what a 4xx means before `expectOk`. */
export type PlatformAnswer = { status: number; body: unknown };

/**
 * HTTP to one platform with a timeout per call. Only a call that got no answer throws here; every
 * answer, success or refusal, comes back so the client can read a 409 or a 400 as "already done".
 */
export class PlatformHttp {
  constructor(
    /** The platform's name, for the messages a manager reads ("Uber Eats", "Rappi"). */
    readonly name: string,
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  async send(call: PlatformCall): Promise<PlatformAnswer> {
    const where = `${call.method} ${call.path}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.baseUrl}${call.path}`, {
        method: call.method,
        headers: {
          accept: 'application/json',
          ...(call.json !== undefined && { 'content-type': 'application/json' }),
          ...(call.form !== undefined && { 'content-type': 'application/x-www-form-urlencoded' }),
          ...call.headers,
        },
        body: call.form?.toString() ?? (call.json === undefined ? undefined : JSON.stringify(call.json)),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      // The work may have been done (an answer lost on its way back): the caller repeats the call,
      // which every client method makes safe.
      const reason = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'gave no answer';
      throw new PlatformError(`${this.name} ${reason} (${where})`, null, true);
    }
    return { status: response.status, body: parseBody(text) };
  }

  /** The answer's body when it succeeded; otherwise the PlatformError its status means. */
  expectOk(answer: PlatformAnswer, where: string): unknown {
    if (answer.status >= 200 && answer.status < 300) return answer.body;
    throw this.failure(answer, where);
  }

  /** 429 and 5xx are worth trying again; any other status is the platform's no, in its own words. */
  failure(answer: PlatformAnswer, where: string): PlatformError {
    const isRetryable = answer.status === 429 || answer.status >= 500;
    return new PlatformError(
      `${this.name} answered ${answer.status} to ${where}: ${messageOf(answer.body) ?? 'no reason given'}`,
      answer.status,
      isRetryable,
      codeOf(answer.body),
    );
  }
}

/** Mercado Pago's `{errors: [{code}]}`, others' `{code}`. */
function codeOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const fields = body as Record<string, unknown>;
  const first = Array.isArray(fields.errors)
    ? (fields.errors[0] as Record<string, unknown> | undefined)
    : fields;
  return typeof first?.code === 'string' ? first.code : undefined;
}

function parseBody(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The platforms' error bodies: `{message}` (Uber's API, Rappi), OAuth's `{error, error_description}`,
 * Mercado Pago's `{errors: [{code, message}]}`.
 */
function messageOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body.slice(0, 300) || undefined;
  if (typeof body !== 'object' || body === null) return undefined;
  const fields = body as Record<string, unknown>;
  if (Array.isArray(fields.errors) && fields.errors.length > 0) return messageOf(fields.errors[0]);
  for (const name of ['message', 'error_description', 'error', 'code']) {
    const value = fields[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}
