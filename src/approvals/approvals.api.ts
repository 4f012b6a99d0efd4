/** What the other features may use of approvals: the rest of src/approvals/ is its own (docs/architecture.md). */

export type { Approver } from './approvals.service';
export { authorizeApprovable } from './approvals.service';
