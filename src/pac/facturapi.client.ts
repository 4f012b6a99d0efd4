/**
 * The few calls of Facturapi's REST API v2 the POS makes (its OpenAPI document, `openapi_v2.en.yaml` of
 * FacturAPI/facturapi-docs), typed here rather than through the official SDK: each call needs its own
 * timeout, the error body's `code` and the `Retry-After` header kept whole, and the files as bytes,
 * and these ten calls are all we use of it.
 */

import {
  type NewPacReceipt,
  type Pac,
  type PacCustomer,
  type PacInvoice,
  type PacReceipt,
  PacRefusal,
  type PacSearch,
  PacUnavailable,
  RECEIPTS_PAGE,
} from '../core/pac';

export class FacturapiClient implements Pac {
  constructor(
    private readonly baseUrl: string,
    private readonly key: string,
    private readonly timeoutMs: number,
  ) {}

  withTimeout(timeoutMs: number): Pac {
    return new FacturapiClient(this.baseUrl, this.key, timeoutMs);
  }

  createReceipt(body: NewPacReceipt): Promise<PacReceipt> {
    return this.json('POST', '/receipts', body);
  }

  /** One page of the receipts dated in [from, to]: at most 30 pages of `limit` (100) can be read. */
  listReceipts(query: {
    from: string;
    to: string;
    page: number;
    limit?: number;
  }): Promise<PacSearch<PacReceipt>> {
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
    const found = await this.json<PacSearch<PacInvoice>>('GET', `/invoices?${params}`);
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
