/**
 * The few calls of Facturapi's REST API v2 the POS makes (its OpenAPI document, `openapi_v2.en.yaml` of
 * FacturAPI/facturapi-docs), typed here rather than through the official SDK: each call needs its own
 * timeout, the error body's `code` and the `Retry-After` header kept whole, and the files as bytes,
 * and these ten calls are all we use of it.
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

/** The folio a CFDI was stamped with, as printed on it: series and number. */
export function folioOf(invoice: PacInvoice): string | null {
  if (invoice.folio_number === undefined || invoice.folio_number === null) return null;
  return `${invoice.series ?? ''}${invoice.folio_number}`;
}

/** The UUID of a stamped CFDI; one the PAC is still stamping is not ours to record yet. */
export function stampedUuid(invoice: PacInvoice): string {
  if (invoice.uuid === null || invoice.status === 'pending')
    throw new PacUnavailable(`The PAC is still stamping ${invoice.id}`);
  return invoice.uuid;
}

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

type Search<T> = { page: number; total_pages: number; total_results: number; data: T[] };

export class PacClient {
  constructor(
    private readonly baseUrl: string,
    private readonly key: string,
    private readonly timeoutMs: number,
  ) {}

  createReceipt(body: {
    items: PacItem[];
    payment_form: string;
    date: string;
    external_id: string;
    idempotency_key: string;
    branch?: string;
  }): Promise<PacReceipt> {
    return this.json('POST', '/receipts', body);
  }

  /** One page of the receipts dated in [from, to]: at most 30 pages of `limit` (100) can be read. */
  listReceipts(query: {
    from: string;
    to: string;
    page: number;
    limit?: number;
  }): Promise<Search<PacReceipt>> {
    const params = new URLSearchParams({
      'date[gte]': query.from,
      'date[lte]': query.to,
      page: String(query.page),
      limit: String(query.limit ?? RECEIPTS_PAGE),
    });
    return this.json('GET', `/receipts?${params}`);
  }

  getReceipt(id: string): Promise<PacReceipt> {
    return this.json('GET', `/receipts/${encodeURIComponent(id)}`);
  }

  cancelReceipt(id: string): Promise<PacReceipt> {
    return this.json('DELETE', `/receipts/${encodeURIComponent(id)}`);
  }

  invoiceReceipt(
    id: string,
    body: { customer: PacCustomer; use: string; series?: string },
  ): Promise<PacInvoice> {
    return this.json('POST', `/receipts/${encodeURIComponent(id)}/invoice`, body);
  }

  /** The PAC answers `null` when the period has no open receipt. */
  globalInvoice(body: {
    periodicity: string;
    from: string;
    to: string;
    series?: string;
  }): Promise<PacInvoice | null> {
    return this.json('POST', '/receipts/global-invoice', body);
  }

  createInvoice(body: Record<string, unknown>): Promise<PacInvoice> {
    return this.json('POST', '/invoices', body);
  }

  async findInvoiceByExternalId(externalId: string): Promise<PacInvoice | undefined> {
    const params = new URLSearchParams({ external_id: externalId, limit: '1' });
    const found = await this.json<Search<PacInvoice>>('GET', `/invoices?${params}`);
    return found.data[0];
  }

  getInvoice(id: string): Promise<PacInvoice> {
    return this.json('GET', `/invoices/${encodeURIComponent(id)}`);
  }

  cancelInvoice(id: string, motive: string, substitution?: string): Promise<PacInvoice> {
    const params = new URLSearchParams({ motive, ...(substitution && { substitution }) });
    return this.json('DELETE', `/invoices/${encodeURIComponent(id)}?${params}`);
  }

  async download(id: string, format: 'pdf' | 'xml'): Promise<Buffer> {
    const response = await this.send('GET', `/invoices/${encodeURIComponent(id)}/${format}`);
    return Buffer.from(await response.arrayBuffer());
  }

  private async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.send(method, path, body);
    const text = await response.text().catch((error: unknown) => {
      throw new PacUnavailable(`The answer was cut: ${String(error)}`);
    });
    if (text.trim() === '') return null as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new PacUnavailable('The answer is not JSON');
    }
  }

  private async send(method: string, path: string, body?: unknown): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.key}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new PacUnavailable(`No answer: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (response.ok) return response;
    const failure = (await response.json().catch(() => ({}))) as {
      code?: unknown;
      message?: unknown;
      errors?: unknown;
    };
    const code = typeof failure.code === 'string' ? failure.code : '';
    const message = typeof failure.message === 'string' ? failure.message : `HTTP ${response.status}`;
    if (response.status === 429 || response.status >= 500) {
      const seconds = Number(response.headers.get('retry-after'));
      throw new PacUnavailable(
        `${response.status} ${code}`,
        Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined,
      );
    }
    throw new PacRefusal(response.status, code, message, Array.isArray(failure.errors) ? failure.errors : []);
  }
}
