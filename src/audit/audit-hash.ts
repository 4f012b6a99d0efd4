import { createHash } from 'node:crypto';

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

/**
 * SHA-256 (hex) of a canonical serialisation: a JSON array in a fixed order, so no key order or
 * separator choice can make two different entries serialise alike. `before` and `after` go in as the
 * stored JSON text, never re-serialised, so verifying reproduces the bytes that were hashed.
 */
export function entryHash(entry: HashedEntry): string {
  const canonical = JSON.stringify([
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
  return createHash('sha256').update(canonical).digest('hex');
}
