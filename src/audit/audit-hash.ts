import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The previous hash of the first entry: there is nothing before it. */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields an entry's hash covers: all of it except the hash itself. */
export type HashedEntry = {
  id: string;
  seq: number;
  at: number;
  actor_id: string | null;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: string | null;
  before: string | null;
  after: string | null;
  prev_hash: string;
};

/** The newest place of the chain, signed: `mac` is only made with the audit key. */
export type AuditHead = { seq: number; hash: string; mac: string };

/**
 * A canonical serialisation: a JSON array in a fixed order, so no key order or separator choice can
 * make two different entries serialise alike. `before` and `after` go in as the stored JSON text,
 * never re-serialised, so verifying reproduces the bytes that were hashed.
 */
function canonical(entry: HashedEntry): string {
  return JSON.stringify([
    entry.prev_hash,
    entry.seq,
    entry.id,
    entry.at,
    entry.actor_id,
    entry.actor_name,
    entry.action,
    entry.target_type,
    entry.target_id,
    entry.before,
    entry.after,
  ]);
}

/**
 * HMAC-SHA256 (hex) of the entry, keyed with the audit key (core/secrets.ts), which is not in the
 * database: someone who can write the database but lacks the key cannot recompute it, so an entry
 * edited and re-hashed (and every later one re-hashed) no longer verifies.
 */
export function entryHash(key: Buffer, entry: HashedEntry): string {
  return createHmac('sha256', key).update(canonical(entry)).digest('hex');
}

/** The unkeyed SHA-256 chains were written with before the key: only read to re-key one (audit-chain.ts). */
export function unkeyedEntryHash(entry: HashedEntry): string {
  return createHash('sha256').update(canonical(entry)).digest('hex');
}

export function signHead(key: Buffer, head: { seq: number; hash: string }): AuditHead {
  const mac = createHmac('sha256', key)
    .update(JSON.stringify(['audit-head', head.seq, head.hash]))
    .digest('hex');
  return { seq: head.seq, hash: head.hash, mac };
}

export function isSignedHead(key: Buffer, head: AuditHead): boolean {
  const expected = Buffer.from(signHead(key, head).mac, 'hex');
  const given = Buffer.from(head.mac, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
