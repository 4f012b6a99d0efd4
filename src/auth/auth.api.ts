/** What the other features may use of auth: the rest of src/auth/ is its own (docs/architecture.md). */
export { checkCredentials, pinFailureBuckets } from './auth.service';
