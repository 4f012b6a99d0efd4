/** What the other features may use of payments: the rest of src/payments/ is its own (docs/architecture.md). */

export { payableInvoicesCents } from './lightning.repo';
export { makeInvoice, reserveIn } from './lightning-bills.service';
export { toPaymentView } from './payment-views';
export type { PaymentRow } from './payments.repo';
export { findPayment, findPaymentsOfTicket } from './payments.repo';
export { recordPaymentIn } from './payments.service';
export { refundWholeIn } from './refunds.service';
