/**
 * The PAC port: what the POS asks of Facturapi (REST API v2), in its own vocabulary. pac/ implements it
 * over HTTP and the composition root builds it when POS_PAC_KEY is set; the fiscal feature uses it from
 * the context and never constructs it.
 */

export type PacReceipt = {
  id: string;
  date: string;
  status: 'open' | 'canceled' | 'invoiced_to_customer' | 'invoiced_globally';
  total: number;
  expires_at?: string | null;
  self_invoice_url?: string | null;
  invoice?: string | null;
  external_id?: string | null;
};

export type PacInvoice = {
  id: string;
  /** Null while the PAC is still stamping it (a 202 `pending`) and once that `failed`. */
  uuid: string | null;
  status: string;
  series?: string | null;
  folio_number?: number | null;
  cancellation_status?: string | null;
  total: number;
  customer?: { legal_name?: string; tax_id?: string } | null;
};

export type PacCustomer = {
  legal_name: string;
  tax_id: string;
  tax_system: string;
  email?: string;
  address: { zip: string };
};

export type PacItem = {
  quantity: number;
  discount?: number;
  product: {
    description: string;
    product_key: string;
    unit_key: string;
    price: number;
    tax_included: true;
    taxes: { type: 'IVA'; rate: number }[];
    sku?: string;
  };
};

/** The PAC refused the request (a 4xx other than 429): retrying the same call cannot help. */
export class PacRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: readonly { code?: string; message?: string; path?: string }[],
  ) {
    super(message);
  }
}

/** No answer, a timeout, a 5xx or a 429: the work may or may not be done; ask again later. */
export class PacUnavailable extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** Facturapi's `GET /receipts`: `limit` at most 100 and `page` at most 30 (openapi `listReceipts`). */
export const RECEIPTS_PAGE = 100;
export const RECEIPTS_MAX_PAGES = 30;

/** One page of a Facturapi search. */
export type PacSearch<T> = { page: number; total_pages: number; total_results: number; data: T[] };

export type NewPacReceipt = {
  items: PacItem[];
  payment_form: string;
  date: string;
  external_id: string;
  idempotency_key: string;
  branch?: string;
};

export interface Pac {
  createReceipt(body: NewPacReceipt): Promise<PacReceipt>;
  /** One page of the receipts dated in [from, to]: at most 30 pages of `limit` (100) can be read. */
  listReceipts(query: {
    from: string;
    to: string;
    page: number;
    limit?: number;
  }): Promise<PacSearch<PacReceipt>>;
  getReceipt(id: string): Promise<PacReceipt>;
  cancelReceipt(id: string): Promise<PacReceipt>;
  invoiceReceipt(
    id: string,
    body: { customer: PacCustomer; use: string; series?: string },
  ): Promise<PacInvoice>;
  /** The PAC answers `null` when the period has no open receipt. */
  globalInvoice(body: {
    periodicity: string;
    from: string;
    to: string;
    series?: string;
  }): Promise<PacInvoice | null>;
  createInvoice(body: Record<string, unknown>): Promise<PacInvoice>;
  findInvoiceByExternalId(externalId: string): Promise<PacInvoice | undefined>;
  getInvoice(id: string): Promise<PacInvoice>;
  cancelInvoice(id: string, motive: string, substitution?: string): Promise<PacInvoice>;
  download(id: string, format: 'pdf' | 'xml'): Promise<Buffer>;
  /** The same PAC with a shorter wait per call, for a caller that cannot wait the usual time. */
  withTimeout(timeoutMs: number): Pac;
}
