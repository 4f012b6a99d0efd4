import type { TaxpayerRegistry } from './customers';
import type { InvoiceRecord, SimReceipt } from './model';
import type { Periodicity } from './periods';

/** The organization's receipt settings (`OrganizationReceiptsInput`): defaults as Facturapi's. */
export type ReceiptSettings = { periodicity: Periodicity; durationDays: number };

/** Everything the simulated organization holds; `reset` empties it, settings included. */
export class PacState {
  readonly receipts = new Map<string, SimReceipt>();
  readonly invoices = new Map<string, InvoiceRecord>();
  readonly registry: TaxpayerRegistry = { receivers: new Map(), unregistered: new Set() };
  receiptSettings: ReceiptSettings = { periodicity: 'month', durationDays: 7 };
  selfInvoiceDomain: string | null;
  nextReceiptFolio = 1;
  /** The next `count` invoices of POST /invoices hit an intermittent stamping error and end `outcome`. */
  stampingOutage: { count: number; outcome: 'valid' | 'failed' } = { count: 0, outcome: 'valid' };
  /** Facturapi numbers invoices per series. */
  readonly nextInvoiceFolio = new Map<string, number>();

  constructor(
    private readonly initialDomain: string | null,
    readonly now: () => Date,
  ) {
    this.selfInvoiceDomain = initialDomain;
  }

  reset(): void {
    this.receipts.clear();
    this.invoices.clear();
    this.registry.receivers.clear();
    this.registry.unregistered.clear();
    this.receiptSettings = { periodicity: 'month', durationDays: 7 };
    this.selfInvoiceDomain = this.initialDomain;
    this.nextReceiptFolio = 1;
    this.stampingOutage = { count: 0, outcome: 'valid' };
    this.nextInvoiceFolio.clear();
  }

  takeInvoiceFolio(series: string, requested: number | undefined): number {
    const next = this.nextInvoiceFolio.get(series) ?? 1;
    const folio = requested ?? next;
    this.nextInvoiceFolio.set(series, Math.max(next, folio + 1));
    return folio;
  }

  /** Each kind of document has its own idempotency keys (the docs call them unique "for each document"). */
  isIdempotencyKeyUsed(kind: 'receipt' | 'invoice', key: string): boolean {
    if (kind === 'receipt') {
      for (const receipt of this.receipts.values()) if (receipt.idempotency_key === key) return true;
      return false;
    }
    for (const record of this.invoices.values()) if (record.invoice.idempotency_key === key) return true;
    return false;
  }

  findInvoice(idOrUuid: string): InvoiceRecord | undefined {
    const byId = this.invoices.get(idOrUuid);
    if (byId !== undefined) return byId;
    const uuid = idOrUuid.toLowerCase();
    for (const record of this.invoices.values()) if (record.invoice.uuid === uuid) return record;
    return undefined;
  }
}
