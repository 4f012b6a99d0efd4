/** What the other features may use of receipts: the rest of src/receipts/ is its own (docs/architecture.md). */
export { receiptText } from './receipt-layout';
export { buildReceipt } from './receipts.service';
