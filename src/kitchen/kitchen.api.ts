/** What the other features may use of the kitchen: the rest of src/kitchen/ is its own (docs/architecture.md). */
export { sendOrderIn, voidOrderPlatesIn } from './kitchen.service';
