/** What the other features may use of wallet: the rest of src/wallet/ is its own (docs/architecture.md). */
export { callNode, NOT_CONFIGURED } from './node-call';
