import createClient from 'openapi-fetch';
import type { paths } from '../api/generated/schema';

export type GuestBill = Awaited<ReturnType<typeof fetchBill>>;
export type GuestInvoice =
  paths['/guest/{token}/lightning']['post']['responses'][201]['content']['application/json'];
export type GuestPaymentStatus =
  paths['/guest/{token}/payments/{id}']['get']['responses'][200]['content']['application/json']['status'];

export const BILL_PENDING = 1;
export const BILL_PAID = 2;
export const BILL_CANCELED = 3;

/**
 * The guest's own client: no staff session to refresh and no cookie sent (`omit`), so a phone that
 * once held a staff session shows nothing of it here.
 */
const api = createClient<paths>({ baseUrl: location.origin, credentials: 'omit' });

/** A refusal: its status and the server's message (which the page words in its own strings). */
export class GuestApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) {
    const message = (error as { message?: string } | undefined)?.message ?? response.statusText;
    throw new GuestApiError(response.status, message);
  }
  return data as T;
}

export function fetchBill(token: string) {
  return ok(api.GET('/guest/{token}', { params: { path: { token } } }));
}

export function requestInvoice(
  token: string,
  body: { amount: number; tip: number },
  idempotencyKey: string,
): Promise<GuestInvoice> {
  return ok(
    api.POST('/guest/{token}/lightning', {
      params: { path: { token }, header: { 'idempotency-key': idempotencyKey } },
      body,
    }),
  );
}

export async function fetchPaymentStatus(token: string, paymentId: string): Promise<GuestPaymentStatus> {
  const answer = await ok(
    api.GET('/guest/{token}/payments/{id}', { params: { path: { token, id: paymentId } } }),
  );
  return answer.status;
}

export async function fetchReceipt(token: string): Promise<string> {
  return (await ok(
    api.GET('/guest/{token}/receipt', { params: { path: { token } }, parseAs: 'text' }),
  )) as string;
}

/** One key per guest action, so a retried request gets the same invoice back (plain HTTP has no randomUUID). */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export type GuestInvoiceOffer = NonNullable<GuestBill['invoice']>;

export function fetchFiscalCatalogs() {
  return ok(api.GET('/fiscal/catalogs'));
}

export function requestTaxInvoice(
  token: string,
  body: paths['/guest/{token}/invoice']['post']['requestBody']['content']['application/json'],
) {
  return ok(api.POST('/guest/{token}/invoice', { params: { path: { token } }, body }));
}
