/** What the other features may use of fiscal: the rest of src/fiscal/ is its own (docs/architecture.md). */

export { findDocument } from './fiscal.repo';
export { cfdiFileResponse, sendInvoiceFile } from './fiscal.routes';
export { invoiceTicket } from './fiscal-invoices';
export { includedTaxCents, receiptBeforePaper } from './fiscal-receipts';
export { fiscalDay } from './fiscal-report';
export { isFiscalOn, loadFiscalSettings } from './fiscal-settings';
export { guestDownloadKey, guestInvoiceOffer, ticketInvoiceFile } from './fiscal-views';
