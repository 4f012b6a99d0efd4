import type { AppContext } from '../context';
import type { Principal } from '../core/auth-guard';
import { totalFromLastPage } from '../core/paging';
import { authorize } from '../roles/permissions';
import * as repo from './audit.repo';
import type { AuditEntryView, AuditQuery, AuditVerifyReply } from './audit.schemas';
import { entryHash, GENESIS_HASH } from './audit-hash';

/** How many entries verifying reads at once: memory stays flat however long the log grows. */
const VERIFY_BATCH = 1000;

export const REASONS = {
  missing: 'An entry before this one is missing: it was deleted',
  changed: 'The entry does not match its hash: it was changed',
  unlinked: 'The previous hash does not match the entry before: this entry or that one was changed',
} as const;

function parseJson(text: string | null): unknown {
  return text === null ? null : JSON.parse(text);
}

function toView(row: repo.AuditRow): AuditEntryView {
  return { ...row, before: parseJson(row.before), after: parseJson(row.after) };
}

export async function listAudit(
  ctx: AppContext,
  principal: Principal,
  query: AuditQuery,
): Promise<{ items: AuditEntryView[]; totalCount: number }> {
  authorize(principal, 'audit.read');
  const filter = { from: query.from, to: query.to, actor: query.actor, action: query.action };
  const rows = await repo.findEntries(ctx.db, filter, query);
  const totalCount = totalFromLastPage(query, rows.length) ?? (await repo.countEntries(ctx.db, filter));
  return { items: rows.map(toView), totalCount };
}

/**
 * Recomputes the chain from the first entry in order and names the first entry where it breaks: a
 * gap in `seq` (a deleted row), a hash that does not match the row (an edited row), or a previous
 * hash that does not match the entry before (a row edited and re-hashed). Entries appended while it
 * runs are checked too or not at all, never half: each takes its place only once committed.
 */
export async function verifyAudit(ctx: AppContext, principal: Principal): Promise<AuditVerifyReply> {
  authorize(principal, 'audit.read');
  let expectedSeq = 1;
  let previousHash = GENESIS_HASH;
  for (;;) {
    const batch = await repo.entriesAfter(ctx.db, expectedSeq - 1, VERIFY_BATCH);
    for (const row of batch) {
      const reason =
        row.seq !== expectedSeq
          ? REASONS.missing
          : entryHash(row) !== row.hash
            ? REASONS.changed
            : row.prev_hash !== previousHash
              ? REASONS.unlinked
              : undefined;
      if (reason) {
        return { ok: false, broken_at: { id: row.id, seq: row.seq, at: row.at, action: row.action }, reason };
      }
      previousHash = row.hash;
      expectedSeq += 1;
    }
    if (batch.length < VERIFY_BATCH) return { ok: true, entries: expectedSeq - 1 };
  }
}
