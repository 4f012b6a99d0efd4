import type { Db } from '../core/db/database';
import { newId } from '../core/ids';
import { insertEntry, lastEntry, lockChain, writeHead } from './audit.repo';
import { entryHash, GENESIS_HASH, signHead } from './audit-hash';
import { auditKeyOf } from './audit-key';

/**
 * The sensitive actions the log records (contract-operations.md, Audit log). `shift.closed` is for
 * the shifts feature: its close writes one entry with the shift as target and the counted, expected
 * and difference amounts in `after`.
 */
export const AUDIT_ACTIONS = [
  'auth.login',
  'auth.login_failed',
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
  'order.deleted',
  'order.moved',
  'order.merged',
  'dish.moved',
  'payment.refunded',
  'payment.refund_undone',
  'wallet.payment_sent',
  'settings.updated',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'shift.closed',
  'shift.pay_out_forced',
  'cli.user_created',
  'cli.pin_reset',
  'cli.wallet_password_set',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who acted: a signed-in user (a Principal fits), or no user at all (a failed login, the command line). */
export type AuditActor = Readonly<{ id: string | null; name: string }>;

/** The actor of commands typed on the server's command line, where nobody signs in. */
export const COMMAND_LINE_ACTOR: AuditActor = { id: null, name: 'command line' };

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
 */
export async function recordAudit(trx: Db, entry: AuditEntry): Promise<void> {
  const key = auditKeyOf(trx);
  await lockChain(trx);
  const previous = await lastEntry(trx);
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
}
