import { DateTime } from 'luxon';
import { invalidField, notFound, PacError } from './errors';
import { Fields } from './fields';
import { documentAmounts, INCOME_DEFAULTS, parseItems } from './items';
import { fromCents, objectId, receiptKey, type SimReceipt } from './model';
import { periodOf, ZONE } from './periods';
import { dateRangeFilter, pageOf, type SearchResult } from './search';
import type { PacState } from './state';

export function idempotencyKeyInUse(key: string): PacError {
  // The create routes document no 409, so the refusal is a 400 with its own code.
  return new PacError(
    400,
    'idempotency_key_in_use',
    `La idempotency_key "${key}" ya fue usada por otro documento.`,
    [
      {
        message: `La idempotency_key "${key}" ya fue usada por otro documento.`,
        code: 'idempotency_key_in_use',
        source: 'facturapi',
        location: 'body',
        path: 'idempotency_key',
      },
    ],
  );
}

export function createReceipt(state: PacState, body: unknown): SimReceipt {
  const fields = new Fields(body);
  const items = parseItems(fields.values.items, INCOME_DEFAULTS);
  const paymentForm = fields.paymentForm();
  const idempotencyKey = fields.optionalString('idempotency_key');
  const now = state.now();
  const date = fields.optionalDate('date') ?? now;
  const folioNumber = fields.optionalInteger('folio_number');
  const currency = fields.optionalString('currency') ?? 'MXN';
  if (currency !== 'MXN')
    throw invalidField(
      'currency',
      'not_allowed',
      'El simulador solo emite recibos en pesos mexicanos (MXN).',
    );
  if (idempotencyKey !== undefined && state.isIdempotencyKeyUsed('receipt', idempotencyKey))
    throw idempotencyKeyInUse(idempotencyKey);

  const key = receiptKey();
  const folio = folioNumber ?? state.nextReceiptFolio;
  state.nextReceiptFolio = Math.max(state.nextReceiptFolio, folio + 1);
  const receipt: SimReceipt = {
    id: objectId(now),
    created_at: now.toISOString(),
    livemode: false,
    date: date.toISOString(),
    expires_at: expiresAt(state, date).toISOString(),
    status: 'open',
    ...(state.selfInvoiceDomain !== null && {
      self_invoice_url: `https://factura.space/${state.selfInvoiceDomain}/${key}`,
    }),
    total: fromCents(documentAmounts(items).totalCents),
    invoice: null,
    customer: null,
    key,
    items,
    external_id: fields.optionalString('external_id') ?? null,
    idempotency_key: idempotencyKey ?? null,
    payment_form: paymentForm,
    folio_number: folio,
    currency,
    exchange: 1,
    branch: fields.optionalString('branch') ?? null,
  };
  state.receipts.set(receipt.id, receipt);
  return receipt;
}

/**
 * The last moment the self-invoice portal accepts the receipt: `duration_days` after its date or
 * the end of its period, whichever comes first (0 days: always the end of the period).
 */
function expiresAt(state: PacState, date: Date): Date {
  const { periodicity, durationDays } = state.receiptSettings;
  const endOfPeriod = periodOf(periodicity, date).end;
  if (durationDays === 0) return endOfPeriod;
  const afterDuration = DateTime.fromJSDate(date, { zone: ZONE }).plus({ days: durationDays }).toJSDate();
  return afterDuration < endOfPeriod ? afterDuration : endOfPeriod;
}

export function getReceipt(state: PacState, id: string): SimReceipt {
  const receipt = state.receipts.get(id);
  if (receipt === undefined) throw notFound('receipt_not_found', `No se encontró el recibo con id "${id}".`);
  return receipt;
}

export function cancelReceipt(state: PacState, id: string): SimReceipt {
  const receipt = getReceipt(state, id);
  if (receipt.status !== 'open') throw receiptNotOpen(receipt);
  receipt.status = 'canceled';
  return receipt;
}

export function receiptNotOpen(receipt: SimReceipt): PacError {
  return new PacError(
    400,
    'receipt_not_open',
    `El recibo ${receipt.id} no está abierto (estado: ${receipt.status}).`,
  );
}

/**
 * `GET /receipts`: newest first, filtered on `date` and the documented fields. There is no `status`
 * filter: the docs name none, so a POS must not count on one.
 */
export function listReceipts(state: PacState, query: URLSearchParams): SearchResult<SimReceipt> {
  const isInRange = dateRangeFilter(query);
  const paymentForm = query.get('payment_form');
  const invoice = query.get('invoice');
  const matches = [...state.receipts.values()]
    .filter(
      (receipt) =>
        isInRange(receipt.date) &&
        (paymentForm === null || receipt.payment_form === paymentForm) &&
        (invoice === null || receipt.invoice === invoice),
    )
    .sort((a, b) => Date.parse(b.date) - Date.parse(a.date) || b.folio_number - a.folio_number);
  return pageOf(matches, query, 50);
}
