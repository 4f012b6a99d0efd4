/** What the other features may use of printing: the rest of src/printing/ is its own (docs/architecture.md). */
export { escposOf } from './escpos';
export { enqueueKitchenChits, enqueuePackingSlip, isBeingMade } from './kitchen-chits';
export type { PaperWords, ReportPaperSetup } from './paper-language';
export {
  formatCount,
  formatPaperDate,
  formatPaperDateTime,
  formatPercent,
  moneyFormatter,
  paperWords,
  paymentMethodName,
  reportMethodName,
  reportPaperSetup,
  tableLabel,
} from './paper-language';
export { hasReceiptJobInStatus } from './print-jobs.repo';
export { enqueueOnReceiptPrinter, enqueuePrintJob, NO_RECEIPT_PRINTER } from './print-queue';
export { lockReceiptPrinter } from './printers.repo';
export type { ReceiptWidth } from './text-layout';
export { centered, indented, pair, rule, wrap } from './text-layout';
