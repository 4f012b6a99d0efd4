import type { Db } from '../core/db/database';
import { BadRequestError } from '../core/errors';
import * as repo from './audit.repo';
import { entryHash, GENESIS_HASH, signHead, unkeyedEntryHash } from './audit-hash';
import { bindAuditKey } from './audit-key';
import { COMMAND_LINE_ACTOR, recordAudit } from './record-audit';

const REKEY_BATCH = 1000;

/** Marks a database whose unkeyed log was moved to the keyed chain: the command runs once. */
const REKEYED_SETTING = 'audit_rekeyed_at';

/**
 * Readies the chain of a database for this process: binds its audit key, and gives a new database
 * (an empty log) the signed head of an empty chain. A log with entries but no head is left as found,
 * and `GET /audit/verify` fails on it: it is either an old unkeyed log, which an operator moves to the
 * keyed chain with `npm run pos -- audit-rekey`, or a forged one whose head was deleted, and only a
 * person can tell which (issue 35). Re-keying here, silently, would sign a forgery.
 *
 * Run under the chain's lock, so instances starting together write one head.
 */
export async function prepareAuditChain(db: Db, key: Buffer): Promise<void> {
  bindAuditKey(db, key);
  await db.transaction().execute(async (trx) => {
    await repo.lockChain(trx);
    if (await repo.hasHead(trx)) return;
    if (await repo.lastEntry(trx)) return;
    await repo.writeHead(trx, signHead(key, { seq: 0, hash: GENESIS_HASH }));
  });
}

/**
 * The explicit move of a log from before the key (plain SHA-256) to the keyed chain: every entry
 * re-hashed with the key and the head signed, in one transaction, then recorded as
 * `cli.audit_rekeyed`. Entries this server appended after the upgrade and before the command (keyed
 * already, the first of them an `audit.chain_broken`: there was no head) are linked again behind the
 * re-keyed ones; only the key makes their hashes, so they are ours. Once per database: refused when
 * it was re-keyed before, when the log is keyed already, or when it does not verify as written (then
 * nothing is written and verify names the break). Not a migration: migrations never see the key,
 * which is kept outside the database.
 */
export async function rekeyAuditLog(db: Db, key: Buffer, now: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await repo.lockChain(trx);
    if (await repo.hasSetting(trx, REKEYED_SETTING)) {
      throw new BadRequestError('The audit log was already moved to the keyed chain once');
    }
    const rekeyed = await rekeyUnkeyedChain(trx, key);
    if ('refused' in rekeyed) throw new BadRequestError(rekeyed.refused);
    await repo.writeHead(trx, signHead(key, rekeyed));
    await repo.writeSetting(trx, REKEYED_SETTING, String(now));
    await recordAudit(trx, {
      at: now,
      actor: COMMAND_LINE_ACTOR,
      action: 'cli.audit_rekeyed',
      target: { type: 'audit_log', id: null },
      after: { entries: rekeyed.unkeyed },
    });
    return rekeyed.unkeyed;
  });
}

/**
 * Re-hashes an intact chain of unkeyed entries, then keyed ones, with the key; a refusal (and nothing
 * written) when the log is keyed from its first entry or does not hold as written.
 */
async function rekeyUnkeyedChain(
  trx: Db,
  key: Buffer,
): Promise<{ seq: number; hash: string; unkeyed: number } | { refused: string }> {
  let seq = 0;
  let unkeyed = 0;
  let storedPrevious = GENESIS_HASH;
  let keyedPrevious = GENESIS_HASH;
  const rewrites: { seq: number; prev_hash: string; hash: string }[] = [];
  for (;;) {
    const batch = await repo.entriesAfter(trx, seq, REKEY_BATCH);
    for (const row of batch) {
      const isLinked = row.seq === seq + 1 && row.prev_hash === storedPrevious;
      const isUnkeyed = unkeyed === seq && unkeyedEntryHash(row) === row.hash;
      if (!isLinked || (!isUnkeyed && entryHash(key, row) !== row.hash)) {
        return { refused: 'The audit log is not an intact unkeyed chain: nothing changed' };
      }
      if (isUnkeyed) unkeyed = row.seq;
      const hash = entryHash(key, { ...row, prev_hash: keyedPrevious });
      rewrites.push({ seq: row.seq, prev_hash: keyedPrevious, hash });
      storedPrevious = row.hash;
      keyedPrevious = hash;
      seq = row.seq;
    }
    if (batch.length < REKEY_BATCH) break;
  }
  if (unkeyed === 0) return { refused: 'The audit log is keyed already: nothing changed' };
  // Written only once the whole chain is known intact: a break found late leaves it untouched.
  for (const { seq: at, ...hashes } of rewrites) await repo.setEntryHashes(trx, at, hashes);
  return { seq, hash: keyedPrevious, unkeyed };
}
