import type { Db } from '../core/db/database';
import * as repo from './audit.repo';
import { entryHash, GENESIS_HASH, signHead, unkeyedEntryHash } from './audit-hash';
import { bindAuditKey } from './audit-key';

const REKEY_BATCH = 1000;

/**
 * Readies the chain of a database for this process: binds its audit key, and gives a chain without a
 * signed head one. A new database gets the head of an empty chain. A database from before the key
 * holds a chain hashed with plain SHA-256: when it still verifies, every entry is re-hashed with the
 * key and the head signed, in one transaction, so the whole log verifies one way from then on. (Not a
 * migration: migrations never see the key, which is kept outside the database.) A chain that does not
 * verify either way is left as found, without a head, and `GET /audit/verify` names where it breaks.
 *
 * Run under the chain's lock, so instances starting together re-key once.
 */
export async function prepareAuditChain(db: Db, key: Buffer): Promise<void> {
  bindAuditKey(db, key);
  await db.transaction().execute(async (trx) => {
    await repo.lockChain(trx);
    if (await repo.hasHead(trx)) return;
    const last = await repo.lastEntry(trx);
    if (!last) {
      await repo.writeHead(trx, signHead(key, { seq: 0, hash: GENESIS_HASH }));
      return;
    }
    const head = await rekeyUnkeyedChain(trx, key);
    if (head) await repo.writeHead(trx, signHead(key, head));
  });
}

/** Re-hashes an intact unkeyed chain with the key; undefined (and nothing written) when it is not intact. */
async function rekeyUnkeyedChain(trx: Db, key: Buffer): Promise<{ seq: number; hash: string } | undefined> {
  let seq = 0;
  let unkeyedPrevious = GENESIS_HASH;
  let keyedPrevious = GENESIS_HASH;
  const rewrites: { seq: number; prev_hash: string; hash: string }[] = [];
  for (;;) {
    const batch = await repo.entriesAfter(trx, seq, REKEY_BATCH);
    for (const row of batch) {
      const isIntact =
        row.seq === seq + 1 && row.prev_hash === unkeyedPrevious && unkeyedEntryHash(row) === row.hash;
      if (!isIntact) return undefined;
      const hash = entryHash(key, { ...row, prev_hash: keyedPrevious });
      rewrites.push({ seq: row.seq, prev_hash: keyedPrevious, hash });
      unkeyedPrevious = row.hash;
      keyedPrevious = hash;
      seq = row.seq;
    }
    if (batch.length < REKEY_BATCH) break;
  }
  // Written only once the whole chain is known intact: a break found late leaves it untouched.
  for (const { seq: at, ...hashes } of rewrites) await repo.setEntryHashes(trx, at, hashes);
  return { seq, hash: keyedPrevious };
}
