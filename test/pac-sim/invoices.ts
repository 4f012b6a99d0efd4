import { checkReceiver, parseCustomer } from './customers';
import { invalidField, notFound, PacError } from './errors';
import { Fields } from './fields';
import { EGRESS_DEFAULTS, INCOME_DEFAULTS, lineAmounts, parseItems, type SimItem } from './items';
import {
  type Concept,
  fakeSignature,
  fromCents,
  type InvoiceRecord,
  ISSUER,
  newUuid,
  objectId,
  SAT_CERTIFICATE_NUMBER,
  type SimCustomer,
  type SimInvoice,
} from './model';
import { HOUR_MS, PERIODICITIES, type Periodicity } from './periods';
import { idempotencyKeyInUse, receiptNotOpen } from './receipts';
import { GENERAL_PUBLIC, RELATIONSHIP_TYPES } from './sat-catalogs';
import { dateRangeFilter, pageOf, type SearchResult } from './search';
import type { PacState } from './state';

type StampRequest = {
  type: 'I' | 'E';
  customer: SimCustomer;
  use: string;
  paymentForm: string;
  items: SimItem[];
  concepts: Concept[];
  date: Date;
  series: string | undefined;
  folioNumber: number | undefined;
  externalId?: string;
  idempotencyKey?: string;
  relatedDocuments?: SimInvoice['related_documents'];
  global?: SimInvoice['global'];
  receiptIds?: string[];
};

/** A line of the request as its CFDI Concepto. */
function conceptOf(item: SimItem): Concept {
  const amounts = lineAmounts(item);
  return {
    productKey: item.product.product_key,
    ...(item.product.sku !== undefined && { sku: item.product.sku }),
    quantity: item.quantity,
    unitKey: item.product.unit_key,
    unitName: item.product.unit_name,
    description: item.product.description,
    unitValue: amounts.unitValue,
    importeCents: amounts.importeCents,
    discountCents: amounts.discountCents,
    transfers:
      amounts.rate === null
        ? []
        : [{ rate: amounts.rate, baseCents: amounts.baseCents, taxCents: amounts.taxCents }],
  };
}

export function conceptTotalCents(concept: Concept): number {
  const taxes = concept.transfers.reduce((sum, transfer) => sum + transfer.taxCents, 0);
  return concept.importeCents - concept.discountCents + taxes;
}

/** The PAC stamps at once (Facturapi's synchronous issuing): the answer is a valid CFDI with its UUID. */
export function stamp(state: PacState, request: StampRequest): InvoiceRecord {
  const now = state.now();
  const uuid = newUuid();
  const totalCents = request.concepts.reduce((sum, concept) => sum + conceptTotalCents(concept), 0);
  const series = request.series ?? '';
  const signature = fakeSignature();
  const customerId = objectId(now);
  const invoice: SimInvoice = {
    id: objectId(now),
    created_at: now.toISOString(),
    livemode: false,
    status: 'valid',
    cancellation_status: 'none',
    verification_url:
      'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx' +
      `?id=${uuid.toUpperCase()}&re=${ISSUER.rfc}&rr=${request.customer.tax_id}` +
      `&tt=${fromCents(totalCents).toFixed(6)}&fe=${encodeURIComponent(signature.slice(-8))}`,
    date: request.date.toISOString(),
    type: request.type,
    customer: { id: customerId, ...request.customer },
    use: request.use,
    total: fromCents(totalCents),
    uuid,
    folio_number: state.takeInvoiceFolio(series, request.folioNumber),
    series,
    external_id: request.externalId ?? null,
    idempotency_key: request.idempotencyKey ?? null,
    payment_form: request.paymentForm,
    payment_method: 'PUE',
    currency: 'MXN',
    exchange: 1,
    items: request.items,
    related_documents: request.relatedDocuments ?? [],
    ...(request.global !== undefined && { global: request.global }),
    stamp: {
      date: now.toISOString(),
      sat_signature: fakeSignature(),
      sat_cert_number: SAT_CERTIFICATE_NUMBER,
      signature,
    },
  };
  const record: InvoiceRecord = { invoice, concepts: request.concepts, receiptIds: request.receiptIds ?? [] };
  state.invoices.set(invoice.id, record);
  return record;
}

/** The SAT takes an issue date from 72 hours ago up to now. */
export function checkIssueDate(state: PacState, date: Date, path: string): void {
  const now = state.now().getTime();
  if (date.getTime() > now || date.getTime() < now - 72 * HOUR_MS)
    throw new PacError(
      400,
      'invalid_date',
      'La fecha de emisión no puede ser anterior a 72 horas ni posterior al momento actual.',
      [
        {
          message: 'La fecha de emisión no puede ser anterior a 72 horas ni posterior al momento actual.',
          code: 'invalid_value',
          source: 'facturapi',
          location: 'body',
          path,
        },
      ],
    );
}

/** `POST /receipts/{id}/invoice`: the receipt's sale to one customer; the receipt is then closed. */
export function invoiceReceipt(state: PacState, receiptId: string, body: unknown): SimInvoice {
  const receipt = state.receipts.get(receiptId);
  if (receipt === undefined)
    throw notFound('receipt_not_found', `No se encontró el recibo con id "${receiptId}".`);
  if (receipt.status !== 'open') throw receiptNotOpen(receipt);
  const fields = new Fields(body);
  const customer = parseCustomer(fields.values.customer);
  const use = fields.optionalString('use') ?? 'G01';
  checkReceiver(customer, use, state.registry);
  const record = stamp(state, {
    type: 'I',
    customer,
    use,
    paymentForm: receipt.payment_form,
    items: receipt.items,
    concepts: receipt.items.map(conceptOf),
    date: state.now(),
    series: fields.optionalString('series'),
    folioNumber: fields.optionalInteger('folio_number'),
    receiptIds: [receipt.id],
  });
  receipt.status = 'invoiced_to_customer';
  receipt.invoice = record.invoice.id;
  return record.invoice;
}

/** `POST /invoices` for an income invoice or a credit note (type E) with its related CFDIs. */
export function createInvoice(state: PacState, body: unknown): SimInvoice {
  const fields = new Fields(body);
  const type = fields.optionalString('type') ?? 'I';
  if (type !== 'I' && type !== 'E')
    throw invalidField(
      'type',
      'not_allowed',
      'El simulador solo emite facturas de ingreso (I) y egreso (E).',
    );
  const customer = parseCustomer(fields.values.customer);
  const paymentForm = fields.paymentForm();
  const items = parseItems(fields.values.items, type === 'E' ? EGRESS_DEFAULTS : INCOME_DEFAULTS);
  const use = fields.optionalString('use') ?? 'G01';
  const relatedDocuments = parseRelatedDocuments(fields.values.related_documents);
  const global = parseGlobal(fields.values.global, customer);
  const date = fields.optionalDate('date') ?? state.now();
  checkIssueDate(state, date, 'date');
  const idempotencyKey = fields.optionalString('idempotency_key');
  if (idempotencyKey !== undefined && state.isIdempotencyKeyUsed('invoice', idempotencyKey))
    throw idempotencyKeyInUse(idempotencyKey);
  checkReceiver(customer, use, state.registry);
  const paymentMethod = fields.optionalString('payment_method') ?? 'PUE';
  if (paymentMethod !== 'PUE')
    throw invalidField(
      'payment_method',
      'not_allowed',
      'El simulador solo emite facturas PUE (pago en una exhibición).',
    );
  const record = stamp(state, {
    type,
    customer,
    use,
    paymentForm,
    items,
    concepts: items.map(conceptOf),
    date,
    series: fields.optionalString('series'),
    folioNumber: fields.optionalInteger('folio_number'),
    ...optional('externalId', fields.optionalString('external_id')),
    ...optional('idempotencyKey', idempotencyKey),
    relatedDocuments,
    ...optional('global', global),
  });
  if (state.stampingOutage.count > 0) interruptStamping(state, record);
  return record.invoice;
}

/** Facturapi retries the SAT's side every 10 minutes, five times: a recovery ends by 50 minutes. */
const RECOVERY_STEP_MS = 10 * 60_000;

/**
 * An intermittent error of the SAT's side while stamping (openapi `createInvoice`, "Recovery from
 * intermittent stamping errors"): the invoice is kept `pending` with no UUID and the answer is a 202;
 * it becomes `valid` at a recovery attempt, or `failed` after the fifth.
 */
function interruptStamping(state: PacState, record: InvoiceRecord): void {
  const { outcome } = state.stampingOutage;
  state.stampingOutage = { ...state.stampingOutage, count: state.stampingOutage.count - 1 };
  const issuedAt = state.now().getTime();
  record.recovery = {
    uuid: record.invoice.uuid as string,
    outcome,
    settlesAt: issuedAt + (outcome === 'valid' ? 1 : 5) * RECOVERY_STEP_MS,
  };
  record.invoice.status = 'pending';
  record.invoice.uuid = null;
}

/** Recoveries whose attempt is due have happened by the time anyone asks. */
export function settleRecoveries(state: PacState): void {
  const now = state.now().getTime();
  for (const record of state.invoices.values()) {
    const { recovery } = record;
    if (recovery === undefined || record.invoice.status !== 'pending' || now < recovery.settlesAt) continue;
    record.invoice.status = recovery.outcome;
    if (recovery.outcome === 'valid') record.invoice.uuid = recovery.uuid;
  }
}

/** `global` on `POST /invoices`: a global invoice built by hand, only to the public at large. */
function parseGlobal(value: unknown, customer: SimCustomer): SimInvoice['global'] {
  if (value === undefined || value === null) return undefined;
  const global = new Fields(value);
  const periodicity = global.string('periodicity') as Periodicity;
  if (!PERIODICITIES.includes(periodicity))
    throw invalidField(
      'global.periodicity',
      'invalid_value',
      `La periodicidad "${periodicity}" no es válida.`,
    );
  const months = global.string('months');
  const code = Number(months);
  const monthsAllowed = periodicity === 'two_months' ? code >= 13 && code <= 18 : code >= 1 && code <= 12;
  if (!/^\d{2}$/.test(months) || !monthsAllowed)
    throw invalidField(
      'global.months',
      'invalid_value',
      `La clave de meses "${months}" no corresponde a la periodicidad.`,
    );
  const year = global.optionalInteger('year');
  if (year === undefined)
    throw invalidField('global.year', 'required', 'El campo "global.year" es requerido.');
  if (customer.tax_id !== GENERAL_PUBLIC.taxId)
    throw invalidField(
      'global',
      'not_allowed',
      `La información global solo aplica a facturas a ${GENERAL_PUBLIC.taxId}.`,
    );
  return { periodicity, months, year };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parseRelatedDocuments(value: unknown): SimInvoice['related_documents'] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw invalidField(
      'related_documents',
      'invalid_type',
      'El campo "related_documents" debe ser una lista.',
    );
  return value.map((entry: unknown, index) => {
    const path = `related_documents.${index}`;
    const group = new Fields(entry);
    const relationship = group.string('relationship');
    if (RELATIONSHIP_TYPES[relationship] === undefined)
      throw invalidField(
        `${path}.relationship`,
        'invalid_value',
        `El tipo de relación "${relationship}" no existe en el catálogo del SAT.`,
      );
    // The egreso guide's own example sends one UUID as a plain string.
    const given = group.values.documents;
    const documents = typeof given === 'string' ? [given] : given;
    if (!Array.isArray(documents) || documents.length === 0)
      throw invalidField(
        `${path}.documents`,
        'required',
        `El campo "${path}.documents" debe listar al menos un UUID.`,
      );
    for (const [position, uuid] of documents.entries())
      if (typeof uuid !== 'string' || !UUID.test(uuid))
        throw invalidField(
          `${path}.documents.${position}`,
          'invalid_format',
          'El folio fiscal relacionado debe ser un UUID.',
        );
    return { relationship, documents: documents.map((uuid: string) => uuid.toLowerCase()) };
  });
}

export function getInvoiceRecord(state: PacState, id: string): InvoiceRecord {
  const record = state.invoices.get(id);
  if (record === undefined) throw notFound('invoice_not_found', `No se encontró la factura con id "${id}".`);
  return record;
}

/**
 * `GET /invoices`: newest first by `date`, filtered on the exact-match fields the POS may look an
 * invoice up by (`external_id` after a lost answer, `uuid`), `type`, `series`, `folio_number`,
 * `cancellation_status` (repeatable) and the `date` range.
 */
export function listInvoices(state: PacState, query: URLSearchParams): SearchResult<SimInvoice> {
  const isInRange = dateRangeFilter(query);
  const exact: [string, (invoice: SimInvoice) => string | null][] = [
    ['external_id', (invoice) => invoice.external_id],
    ['uuid', (invoice) => invoice.uuid],
    ['type', (invoice) => invoice.type],
    ['series', (invoice) => invoice.series],
    ['folio_number', (invoice) => String(invoice.folio_number)],
    ['customer', (invoice) => invoice.customer.id],
  ];
  const statuses = query.getAll('cancellation_status').flatMap((value) => value.split(','));
  const matches = [...state.invoices.values()]
    .map((record) => record.invoice)
    .filter(
      (invoice) =>
        isInRange(invoice.date) &&
        exact.every(([name, read]) => {
          const wanted = query.get(name);
          return wanted === null || read(invoice)?.toLowerCase() === wanted.toLowerCase();
        }) &&
        (statuses.length === 0 || statuses.includes(invoice.cancellation_status)),
    )
    .sort((a, b) => Date.parse(b.date) - Date.parse(a.date) || b.created_at.localeCompare(a.created_at));
  return pageOf(matches, query, 100);
}
