/** What the other features may use of audit: the rest of src/audit/ is its own (docs/architecture.md). */
export { publishAuditHead, publishedHead } from './audit.service';
export type { AuditActor, AuditEntry } from './record-audit';
export { COMMAND_LINE_ACTOR, recordAudit } from './record-audit';
