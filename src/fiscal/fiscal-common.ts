import type { AppContext } from '../core/context';
import { BadRequestError } from '../core/errors';
import { fromCents } from '../core/money';
import { type PacCustomer, type PacInvoice, PacUnavailable } from '../core/pac';
import { recordEvent } from '../events/events.api';
import * as repo from './fiscal.repo';
import type { InvoiceView } from './fiscal.schemas';
import { type FiscalSettings, isFiscalOn, loadFiscalSettings } from './fiscal-settings';

const FISCAL_OFF = 'E-invoicing is not enabled';
export const PAC_UNAVAILABLE = 'The e-invoicing provider is unavailable: try again in a moment';

/** E-invoicing's settings, or 400 while it is off. */
export async function requireFiscal(ctx: AppContext): Promise<FiscalSettings> {
  const settings = await loadFiscalSettings(ctx.db);
  if (!isFiscalOn(ctx, settings)) throw new BadRequestError(FISCAL_OFF);
  return settings;
}

export function toInvoiceView(row: repo.FiscalInvoiceRow): InvoiceView {
  return {
    id: row.id,
    uuid: row.uuid,
    folio: row.folio,
    kind: row.kind,
    status: row.status,
    customer_rfc: row.customer_rfc,
    customer_name: row.customer_name,
    total: fromCents(Number(row.total_cents)),
    ticket_id: row.ticket_id,
    period_start: row.period_start,
    period_end: row.period_end,
    created_at: Number(row.created_at),
  };
}

/** The receiver of an invoice the PAC made without us (the guest's self-invoice), as it answers it. */
export function customerOf(invoice: PacInvoice): PacCustomer {
  return {
    legal_name: invoice.customer?.legal_name ?? '',
    tax_id: invoice.customer?.tax_id ?? '',
    tax_system: (invoice.customer as { tax_system?: string } | null)?.tax_system ?? '',
    address: { zip: (invoice.customer as { address?: { zip?: string } } | null)?.address?.zip ?? '' },
  };
}

export async function recordCustomerInvoice(
  ctx: AppContext,
  ticketId: string,
  invoice: PacInvoice,
  customer: PacCustomer,
): Promise<InvoiceView> {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const known = await repo.findInvoiceByPacId(trx, invoice.id);
    if (known) return toInvoiceView(known);
    const stored = await repo.storeInvoice(
      trx,
      {
        kind: 'customer',
        pacId: invoice.id,
        uuid: stampedUuid(invoice),
        folio: folioOf(invoice),
        customer,
        totalCents: Math.round(invoice.total * 100),
        ticketId,
      },
      now,
    );
    await repo.updateDocument(trx, ticketId, {
      state: 'invoiced',
      invoice_id: stored.id,
      claimed_until: null,
      updated_at: now,
    });
    const view = toInvoiceView(stored);
    await recordEvent(trx, { type: 'fiscal.invoiced', data: view, at: now });
    return view;
  });
}

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
