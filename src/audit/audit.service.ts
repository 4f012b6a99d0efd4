import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { BadRequestError, NotFoundError } from '../core/errors';
import { totalFromLastPage } from '../core/paging';
import { authorize } from '../permissions/permissions.api';
import * as repo from './audit.repo';
import type { AcknowledgeBreakBody, AuditEntryView, AuditQuery, AuditVerifyReply } from './audit.schemas';
import { auditAnchorOf } from './audit-anchor';
import { entryHash, GENESIS_HASH, isSignedHead } from './audit-hash';
import { auditKeyOf } from './audit-key';
import { recordAudit } from './record-audit';

/** How many entries verifying reads at once: memory stays flat however long the log grows. */
const VERIFY_BATCH = 1000;

export const REASONS = {
  missing: 'An entry before this one is missing: it was deleted',
  changed: 'The entry does not match its hash: it was changed',
  unlinked: 'The previous hash does not match the entry before: this entry or that one was changed',
  truncated: 'Entries after this one are missing: the newest were deleted',
  headMissing: 'The signed head of the chain is missing: the newest entries cannot be vouched for',
  headForged: 'The head of the chain does not match its signature: it was changed',
  rolledBack:
    'A head published outside the database (the anchor file beside it, or a Z report) is not in the ' +
    'chain: the newest entries were deleted and an older head put back',
  breakOpen:
    'Before this entry the chain did not end where its signed head said (entries deleted or the head ' +
    'changed): an administrator has not acknowledged it yet',
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
export async function verifyAudit(
  ctx: AppContext,
  principal: Principal,
  printed?: { seq: number; hash: string },
): Promise<AuditVerifyReply> {
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
  // A head published outside the database (the anchor file, a printed Z report) must still be in the
  // chain: a head copied earlier and put back after deleting the newest entries is not.
  for (const published of [auditAnchorOf(ctx.db)?.latest(), printed]) {
    if (published === undefined) continue;
    const entry = published.seq === 0 ? { hash: GENESIS_HASH } : await repo.entryAt(ctx.db, published.seq);
    if (published.seq > walk.seq || entry?.hash !== published.hash) {
      return brokenAt(walk.last, REASONS.rolledBack);
    }
  }
  const openBreak = await repo.oldestOpenBreak(ctx.db);
  if (openBreak) return brokenAt(openBreak, REASONS.breakOpen);
  return { ok: true, entries: walk.seq };
}

/**
 * An administrator has looked at a break the chain recorded (`audit.chain_broken`) and vouches for
 * the log from there on: an `audit.break_acknowledged` entry names it, with the caller and their
 * note, and verifying no longer fails on it. Anything else, or a break already acknowledged: 400/404.
 */
export async function acknowledgeBreak(
  ctx: AppContext,
  principal: Principal,
  id: string,
  body: AcknowledgeBreakBody,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const entry = await repo.findEntry(trx, id);
    if (!entry) throw new NotFoundError();
    if (entry.action !== 'audit.chain_broken') throw new BadRequestError('That entry records no break');
    if (await repo.isBreakAcknowledged(trx, id))
      throw new BadRequestError('That break is already acknowledged');
    await recordAudit(trx, {
      at: now,
      actor: principal,
      action: 'audit.break_acknowledged',
      target: { type: 'audit_log', id },
      after: { note: body.note },
    });
  });
  // The administrator vouches for the log from here on: the anchor moves to the head as it is now,
  // even behind a head published before a rollback that this acknowledgment closes.
  const head = await publishedHead(ctx.db);
  if (head) auditAnchorOf(ctx.db)?.publish({ ...head, at: now }, true);
}

/**
 * The chain's head as its signature vouches for it, to publish where the database cannot rewrite it
 * (the Z report, the server's log at each shift close): a log later cut back or forged no longer
 * reaches a head that was printed. Null when the stored head is missing or not signed with the key.
 */
export async function publishedHead(db: Db): Promise<{ seq: number; hash: string } | null> {
  const head = await repo.readHead(db);
  return head && isSignedHead(auditKeyOf(db), head) ? { seq: head.seq, hash: head.hash } : null;
}

/**
 * Writes the signed head to the anchor outside the database (audit-anchor.ts), unless it is older
 * than the one there: the job every minute, each shift close and each Z report call it, after their
 * commits (a head published from inside a transaction could be rolled back). False: the stored head
 * went back behind the published one, which verifying reports.
 */
export async function publishAuditHead(db: Db, now: number): Promise<boolean> {
  const anchor = auditAnchorOf(db);
  const head = await publishedHead(db);
  if (!anchor || !head) return true;
  return anchor.publish({ ...head, at: now });
}
