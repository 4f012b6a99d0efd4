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
 * The explicit move of a log from before the key (plain SHA-256, no head) to the keyed chain: every
 * entry re-hashed with the key and the head signed, in one transaction, then recorded as
 * `cli.audit_rekeyed`. Once per database: refused when the log has a head, was re-keyed before, or
 * does not verify as an unkeyed chain (then nothing is written and verify names the break). Not a
 * migration: migrations never see the key, which is kept outside the database.
 */
export async function rekeyAuditLog(db: Db, key: Buffer, now: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await repo.lockChain(trx);
    if (await repo.hasHead(trx)) throw new BadRequestError('The audit log already has a signed head');
    if (await repo.hasSetting(trx, REKEYED_SETTING)) {
      throw new BadRequestError('The audit log was already moved to the keyed chain once');
    }
    const head = await rekeyUnkeyedChain(trx, key);
    if (!head) throw new BadRequestError('The audit log is not an intact unkeyed chain: nothing changed');
    await repo.writeHead(trx, signHead(key, head));
    await repo.writeSetting(trx, REKEYED_SETTING, String(now));
    await recordAudit(trx, {
      at: now,
      actor: COMMAND_LINE_ACTOR,
      action: 'cli.audit_rekeyed',
      target: { type: 'audit_log', id: null },
      after: { entries: head.seq },
    });
    return head.seq;
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
