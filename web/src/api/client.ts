import createClient from 'openapi-fetch';
import type { paths } from './generated/schema';
import { createStore } from './store';

export type { paths };

type JsonBody<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;
type Responses<Path extends keyof paths, Method extends keyof paths[Path]> = paths[Path][Method] extends {
  responses: infer R;
}
  ? R
  : never;
/** The JSON body of an operation's success answer (200 or 201), as the OpenAPI document says. */
export type Ok<Path extends keyof paths, Method extends keyof paths[Path]> =
  Responses<Path, Method> extends { 200: infer R }
    ? JsonBody<R>
    : Responses<Path, Method> extends { 201: infer R }
      ? JsonBody<R>
      : never;
/** The JSON request body of an operation. */
export type Body<Path extends keyof paths, Method extends keyof paths[Path]> = paths[Path][Method] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** Whether the server answered the last request; false while it cannot be reached. */
export const serverReachable = createStore(true);
/** Set when the session cannot be refreshed any more: the app shows the login screen. */
export const sessionEnded = createStore(0);

const AUTH_PATHS = new Set(['/auth/login', '/auth/refresh', '/auth/logout', '/initial-setup']);
/** A PIN typed for someone else: its 401 (a wrong PIN) says nothing about this tablet's session. */
const OTHERS_PIN_PATHS = new Set(['/auth/approvals']);
/** The access token lives 60 s; it is renewed ahead of time so screens rarely meet a 401. */
const REFRESH_AHEAD_MS = 45_000;
const REFRESH_RETRY_MS = 5_000;
let refreshing: Promise<boolean> | undefined;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Renews the session's cookies. One refresh at a time for the whole app: every screen that needs one
 * waits for the same (a second would present a refresh token just rotated). A refusal ends the
 * session; an unreachable server keeps it and tries again shortly.
 */
export function refreshSession(): Promise<boolean> {
  refreshing ??= reachServer(new Request('/auth/refresh', { method: 'POST', credentials: 'same-origin' }))
    .then((response) => {
      if (response.ok) keepSessionFresh();
      else endSession();
      return response.ok;
    })
    .catch(() => {
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(() => void refreshSession(), REFRESH_RETRY_MS);
      return false;
    })
    .finally(() => {
      refreshing = undefined;
    });
  return refreshing;
}

/** After a login or a refresh: renew again before the new access token runs out. */
export function keepSessionFresh(): void {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => void refreshSession(), REFRESH_AHEAD_MS);
}

export function endSession(): void {
  clearTimeout(refreshTimer);
  sessionEnded.set(sessionEnded.get() + 1);
}

async function reachServer(request: Request): Promise<Response> {
  try {
    const response = await fetch(request);
    serverReachable.set(true);
    return response;
  } catch (error) {
    serverReachable.set(false);
    throw error;
  }
}

/** A tablet that slept past the token's life gets a 401 first: refresh once, then send it again. */
async function fetchWithRefresh(request: Request): Promise<Response> {
  const again = request.clone();
  const response = await reachServer(request);
  if (response.status !== 401 || AUTH_PATHS.has(new URL(request.url).pathname)) return response;
  const { reason } = (await response
    .clone()
    .json()
    .catch(() => ({}))) as { reason?: string };
  if ((reason === 'expired' || reason === 'missing') && (await refreshSession())) return reachServer(again);
  if (reason === undefined && OTHERS_PIN_PATHS.has(new URL(request.url).pathname)) return response;
  endSession();
  return response;
}

export const api = createClient<paths>({
  baseUrl: typeof location === 'undefined' ? '' : location.origin,
  credentials: 'same-origin',
  fetch: fetchWithRefresh,
});

/** A refusal from the server, with its message (shown to the user as is). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export type Outcome<T> = { data?: T; error?: unknown; response: Response };

/** The success body, or an ApiError carrying the server's message. */
export async function ok<T>(call: Promise<Outcome<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) {
    const message = (error as { message?: string } | undefined)?.message ?? response.statusText;
    throw new ApiError(response.status, message);
  }
  return data as T;
}

const RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000];
const LONGEST_RETRY_DELAY_MS = 10_000;

/** How many writes are waiting for the server's answer: the offline banner says so while it is away. */
export const pendingWrites = createStore(0);

/**
 * A write that must not be lost (an order a waiter entered, a send to the kitchen, a status change, a
 * payment): one Idempotency-Key per user action, and the same request sent again with that key, for as
 * long as the app is open, while the server cannot be reached or fails (5xx). Routes that honour the
 * key give the first answer back to a retry after a lost answer, never a second record; the others
 * are writes that change nothing when repeated. A refusal (4xx) is final. Every write of the app goes
 * through here, so the promise of the offline banner holds for all of them.
 */
export async function writeOnce<T>(send: (idempotencyKey: string) => Promise<Outcome<T>>): Promise<T> {
  const key = randomKey();
  pendingWrites.set(pendingWrites.get() + 1);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        const outcome = await send(key);
        if (outcome.response.status < 500) return await ok(Promise.resolve(outcome));
      } catch (failure) {
        if (failure instanceof ApiError) throw failure;
        // Unreachable: serverReachable already says so to the user; keep the write and try again.
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt] ?? LONGEST_RETRY_DELAY_MS));
    }
  } finally {
    pendingWrites.set(pendingWrites.get() - 1);
  }
}

/** The name the creating screens use; the same queue as every other write. */
export const createOnce = writeOnce;

/** The header that carries a write's key, for routes whose OpenAPI parameters do not list it. */
export const keyHeader = (idempotencyKey: string) => ({ 'Idempotency-Key': idempotencyKey });

/** crypto.randomUUID exists only in secure contexts, and a restaurant's box is often plain HTTP on the LAN. */
function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
