import type { Db } from '../core/db/database';
import { newId } from '../core/ids';
import { insertEntry, lastEntry, lockChain, oldestOpenBreak, readHead, writeHead } from './audit.repo';
import { auditAnchorOf } from './audit-anchor';
import { entryHash, GENESIS_HASH, isSignedHead, signHead } from './audit-hash';
import { auditKeyOf } from './audit-key';

/**
 * The sensitive actions the log records (contract-operations.md, Audit log). `shift.closed` is for
 * the shifts feature: its close writes one entry with the shift as target and the counted, expected
 * and difference amounts in `after`.
 */
export const AUDIT_ACTIONS = [
  'auth.login',
  'auth.login_failed',
  'auth.approval_granted',
  'user.created',
  'user.updated',
  'user.deleted',
  'role.created',
  'role.updated',
  'role.deleted',
  'ticket.discounted',
  'dish.voided',
  'dish.price_overridden',
  'dish.availability_changed',
  'order.cancelled',
  'order.denied',
  'order.deleted',
  'order.moved',
  'order.reassigned',
  'order.merged',
  'dish.moved',
  'payment.refunded',
  'payment.refund_requested',
  'payment.canceled',
  'payment.refund_undone',
  'wallet.payment_sent',
  'settings.updated',
  'invoice.canceled',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'shift.closed',
  'shift.pay_out_forced',
  'cli.user_created',
  'cli.pin_reset',
  'cli.wallet_password_set',
  'cli.audit_rekeyed',
  'audit.chain_broken',
  'audit.break_acknowledged',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who acted: a signed-in user (a Principal fits), or no user at all (a failed login, the command line). */
export type AuditActor = Readonly<{ id: string | null; name: string }>;

/** The actor of commands typed on the server's command line, where nobody signs in. */
export const COMMAND_LINE_ACTOR: AuditActor = { id: null, name: 'command line' };

/** The actor of the entries the chain writes about itself: a break it found before appending. */
const AUDIT_CHAIN_ACTOR: AuditActor = { id: null, name: 'audit chain' };

export type AuditEntry = {
  at: number;
  actor: AuditActor;
  action: AuditAction;
  target: { type: string; id: string | null };
  /** The record before and after the change, as plain JSON. Never PINs, hashes, secrets or tokens. */
  before?: unknown;
  after?: unknown;
};

/**
 * Appends one entry to the chain inside the caller's transaction, so it exists exactly when the
 * change commits, and moves the signed head to it in the same transaction, so the newest entries
 * cannot be deleted unnoticed. Call it last in the transaction: on PostgreSQL it holds the chain's
 * lock until commit, and taking other locks after it could deadlock with a writer waiting for this one.
 *
 * The chain must still end where its signed head says. When it does not (its newest entries were
 * deleted, the head removed or forged), an `audit.chain_broken` entry saying what the head named and
 * where the chain really ended is appended first: the new entries could otherwise re-use the deleted
 * positions and a signed head would vouch for the shortened log. Verifying keeps failing on that
 * entry until an administrator acknowledges it (audit.service.ts).
 */
export async function recordAudit(trx: Db, entry: AuditEntry): Promise<void> {
  const key = auditKeyOf(trx);
  await lockChain(trx);
  let previous = await lastEntry(trx);
  const head = await readHead(trx);
  const end = previous ?? { seq: 0, hash: GENESIS_HASH };
  const isHeadAtEnd =
    head !== undefined && isSignedHead(key, head) && head.seq === end.seq && head.hash === end.hash;
  // A chain that ends before the head published outside the database was cut back, whatever its own
  // head says (a copy of an older head put back is signed too).
  // Once: the open break stands for the rollback until an administrator acknowledges it, which moves
  // the published head to the chain as it is.
  const published = auditAnchorOf(trx)?.latest();
  const isBehindPublished =
    published !== undefined && end.seq < published.seq && (await oldestOpenBreak(trx)) === undefined;
  if (!isHeadAtEnd || isBehindPublished) {
    const signed = head && isSignedHead(key, head) ? { seq: head.seq, hash: head.hash } : null;
    previous = await append(trx, key, previous, {
      at: entry.at,
      actor: AUDIT_CHAIN_ACTOR,
      action: 'audit.chain_broken',
      target: { type: 'audit_log', id: null },
      before: {
        signed_head: signed,
        head_found: head !== undefined,
        ...(isBehindPublished && { published_head: { seq: published.seq, hash: published.hash } }),
      },
      after: { chain_end: { seq: end.seq, hash: end.hash } },
    });
  }
  await append(trx, key, previous, entry);
}

async function append(
  trx: Db,
  key: Buffer,
  previous: { seq: number; hash: string } | undefined,
  entry: AuditEntry,
): Promise<{ seq: number; hash: string }> {
  const row = {
    id: newId(),
    seq: (previous?.seq ?? 0) + 1,
    at: entry.at,
    actor_id: entry.actor.id,
    actor_name: entry.actor.name,
    action: entry.action,
    target_type: entry.target.type,
    target_id: entry.target.id,
    before: entry.before === undefined ? null : JSON.stringify(entry.before),
    after: entry.after === undefined ? null : JSON.stringify(entry.after),
    prev_hash: previous?.hash ?? GENESIS_HASH,
  };
  const hash = entryHash(key, row);
  await insertEntry(trx, { ...row, hash });
  await writeHead(trx, signHead(key, { seq: row.seq, hash }));
  return { seq: row.seq, hash };
}
