import type { AppContext } from '../context';
import type { Principal } from '../core/auth-guard';
import { totalFromLastPage } from '../core/paging';
import { authorize } from '../roles/permissions';
import * as repo from './audit.repo';
import type { AuditEntryView, AuditQuery, AuditVerifyReply } from './audit.schemas';
import { entryHash, GENESIS_HASH, isSignedHead } from './audit-hash';
import { auditKeyOf } from './audit-key';

/** How many entries verifying reads at once: memory stays flat however long the log grows. */
const VERIFY_BATCH = 1000;

export const REASONS = {
  missing: 'An entry before this one is missing: it was deleted',
  changed: 'The entry does not match its hash: it was changed',
  unlinked: 'The previous hash does not match the entry before: this entry or that one was changed',
  truncated: 'Entries after this one are missing: the newest were deleted',
  headMissing: 'The signed head of the chain is missing: the newest entries cannot be vouched for',
  headForged: 'The head of the chain does not match its signature: it was changed',
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

/** A broken chain, named at `row`: null when no entry is left to name (every one was deleted). */
function brokenAt(row: repo.AuditRow | undefined, reason: string): AuditVerifyReply {
  const broken_at = row ? { id: row.id, seq: row.seq, at: row.at, action: row.action } : null;
  return { ok: false, broken_at, reason };
}

/**
 * Recomputes the chain from the first entry in order and names the first entry where it breaks: a
 * gap in `seq` (a deleted row), a keyed hash that does not match the row (an edited row, re-hashed or
 * not: only the key makes a hash that matches), or a previous hash that does not match the entry
 * before. Then the chain must end where its signed head says, so deleting the newest entries shows.
 *
 * What the key cannot prove is freshness: someone who can write the database can put back an older
 * state of the log together with its head (a backup, or a new database's empty log), and that older
 * state verifies. Keeping `entries` of a verification outside the database bounds it.
 *
 * Entries appended while it runs are checked too or not at all, never half: each entry commits with
 * the head that names it, and the head is read after the entries.
 */
export async function verifyAudit(ctx: AppContext, principal: Principal): Promise<AuditVerifyReply> {
  authorize(principal, 'audit.read');
  const key = auditKeyOf(ctx.db);
  const walk = { seq: 0, hash: GENESIS_HASH, last: undefined as repo.AuditRow | undefined };
  /** Checks the entries after the walk's position; the first break, or undefined. */
  const walkOn = async (): Promise<AuditVerifyReply | undefined> => {
    for (;;) {
      const batch = await repo.entriesAfter(ctx.db, walk.seq, VERIFY_BATCH);
      for (const row of batch) {
        const reason =
          row.seq !== walk.seq + 1
            ? REASONS.missing
            : entryHash(key, row) !== row.hash
              ? REASONS.changed
              : row.prev_hash !== walk.hash
                ? REASONS.unlinked
                : undefined;
        if (reason) return brokenAt(row, reason);
        walk.seq = row.seq;
        walk.hash = row.hash;
        walk.last = row;
      }
      if (batch.length < VERIFY_BATCH) return undefined;
    }
  };
  const broken = await walkOn();
  if (broken) return broken;
  const head = await repo.readHead(ctx.db);
  if (!head)
    return brokenAt(walk.last, (await repo.hasHead(ctx.db)) ? REASONS.headForged : REASONS.headMissing);
  if (!isSignedHead(key, head)) return brokenAt(walk.last, REASONS.headForged);
  // Entries appended after the walk ended come with a newer head: walk on to it.
  if (head.seq > walk.seq) {
    const later = await walkOn();
    if (later) return later;
    if (head.seq > walk.seq) return brokenAt(walk.last, REASONS.truncated);
  }
  // The head signs the hash of its entry: an older chain's head put back over this one does not fit.
  const headEntry = head.seq === 0 ? { hash: GENESIS_HASH } : await repo.entryAt(ctx.db, head.seq);
  if (headEntry?.hash !== head.hash) return brokenAt(walk.last, REASONS.headForged);
  return { ok: true, entries: walk.seq };
}
