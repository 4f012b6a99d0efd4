import { PacError } from './errors';
import { getInvoiceRecord } from './invoices';
import type { InvoiceRecord, SimInvoice } from './model';
import { endOfNextBusinessDay } from './periods';
import { CANCELLATION_MOTIVES, FOREIGN_TAX_ID, GENERAL_PUBLIC } from './sat-catalogs';
import type { PacState } from './state';

/**
 * `DELETE /invoices/{id}?motive=…&substitution=…`. The SAT (RMF rule 2.7.1.35) cancels at once, without
 * the receiver, a CFDI of up to $1,000, a credit note (egreso), one to the public at large or to a
 * foreigner, and any CFDI cancelled by the end of the business day after it was issued; every other
 * one waits for the receiver to accept (`cancellation_status: 'pending'`).
 */
export function cancelInvoice(state: PacState, id: string, query: URLSearchParams): SimInvoice {
  const record = getInvoiceRecord(state, id);
  const { invoice } = record;
  const motive = query.get('motive');
  if (motive === null || CANCELLATION_MOTIVES[motive] === undefined)
    throw queryError(
      'motive',
      motive === null ? 'required' : 'invalid_value',
      'El parámetro "motive" debe ser 01, 02, 03 o 04.',
    );
  if (invoice.status !== 'valid')
    throw new PacError(409, 'invoice_not_cancelable', `La factura ${invoice.id} ya está cancelada.`);
  if (invoice.cancellation_status === 'pending' || invoice.cancellation_status === 'verifying')
    throw new PacError(
      409,
      'invoice_cancellation_in_progress',
      `La factura ${invoice.id} ya tiene una solicitud de cancelación en curso.`,
    );
  const substitution = readSubstitution(state, motive, query.get('substitution'));
  if (hasLiveRelatedDocument(state, invoice))
    throw new PacError(
      400,
      'invoice_not_cancelable_by_sat',
      'El SAT no permite cancelar el CFDI porque tiene documentos relacionados vigentes; cancélalos primero.',
    );
  const now = state.now();
  record.cancellation = {
    motive,
    requestedAt: now.toISOString(),
    ...(substitution !== undefined && { substitution }),
  };
  if (needsReceiverConsent(invoice, now)) invoice.cancellation_status = 'pending';
  else finishCancellation(invoice, now);
  return invoice;
}

function readSubstitution(state: PacState, motive: string, substitution: string | null): string | undefined {
  if (motive !== '01') return undefined;
  if (substitution === null || substitution === '')
    throw new PacError(
      400,
      'substitution_invoice_required',
      'El motivo 01 requiere el parámetro "substitution" con la factura que sustituye a la cancelada.',
    );
  const replacement = state.findInvoice(substitution);
  if (replacement === undefined)
    throw new PacError(
      400,
      'substitution_invoice_not_found',
      `No se encontró la factura sustituta "${substitution}".`,
    );
  if (replacement.invoice.status === 'canceled')
    throw new PacError(400, 'substitution_invoice_canceled', 'La factura sustituta está cancelada.');
  return replacement.invoice.uuid as string;
}

/** A CFDI that a valid one relates to (a credit note, say) cannot be cancelled; a substitute (04) does not count. */
function hasLiveRelatedDocument(state: PacState, invoice: SimInvoice): boolean {
  for (const { invoice: other } of state.invoices.values()) {
    if (other.id === invoice.id || other.status !== 'valid') continue;
    for (const group of other.related_documents)
      if (group.relationship !== '04' && group.documents.includes(invoice.uuid ?? '')) return true;
  }
  return false;
}

function needsReceiverConsent(invoice: SimInvoice, now: Date): boolean {
  if (invoice.total <= 1000) return false;
  if (invoice.type === 'E') return false;
  if (invoice.customer.tax_id === GENERAL_PUBLIC.taxId || invoice.customer.tax_id === FOREIGN_TAX_ID)
    return false;
  return now > endOfNextBusinessDay(new Date(invoice.stamp.date));
}

function finishCancellation(invoice: SimInvoice, now: Date): void {
  invoice.status = 'canceled';
  invoice.cancellation_status = 'accepted';
  invoice.canceled_at = now.toISOString();
}

/** The receiver answers a pending request (what the SAT's buzón tributario lets them do). */
export function resolveCancellation(state: PacState, id: string, accept: boolean): InvoiceRecord {
  const record = getInvoiceRecord(state, id);
  if (record.invoice.cancellation_status !== 'pending')
    throw new PacError(
      409,
      'invoice_cancellation_not_found',
      `La factura ${id} no tiene una cancelación pendiente.`,
    );
  if (accept) finishCancellation(record.invoice, state.now());
  else record.invoice.cancellation_status = 'rejected';
  return record;
}

function queryError(path: string, code: string, message: string): PacError {
  return new PacError(400, 'invalid_request', message, [
    { message, code, source: 'facturapi', location: 'query', path },
  ]);
}
