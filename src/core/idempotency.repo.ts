import type { Selectable } from 'kysely';
import type { Db } from './db/database';
import { forUpdate } from './db/locks';
import { prepared } from './db/prepared';
import type { Database } from './db/schema';

export type IdempotencyRow = Selectable<Database['idempotency_keys']>;
type KeyId = { scope: string; key: string };

type Claim = { requestHash: string; now: number; expiredBefore: number };

const claimedKey = prepared((db, { id, claim }: { id: KeyId; claim: Claim }) =>
  db
    .insertInto('idempotency_keys')
    .values({
      scope: id.scope,
      idempotency_key: id.key,
      request_hash: claim.requestHash,
      created_at: claim.now,
    })
    .onConflict((conflict) =>
      conflict
        .columns(['scope', 'idempotency_key'])
        .doUpdateSet({
          request_hash: claim.requestHash,
          status_code: null,
          response_body: null,
          created_at: claim.now,
        })
        .where('idempotency_keys.created_at', '<', claim.expiredBefore),
    ),
);

/**
 * Claims a key for this transaction: inserts it, or takes over a row claimed before `expiredBefore`.
 * False when another request holds the key; on PostgreSQL a claim still in flight makes this wait for
 * that transaction, so the loser sees its committed answer.
 */
export async function claimKey(db: Db, id: KeyId, claim: Claim): Promise<boolean> {
  return (await claimedKey.run(db, { id, claim })) > 0;
}

const storedKey = prepared((db, id: KeyId) =>
  db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('scope', '=', id.scope)
    .where('idempotency_key', '=', id.key),
);

export function findKey(db: Db, id: KeyId): Promise<IdempotencyRow | undefined> {
  return storedKey.first(db, id);
}

const answeredKey = prepared(
  (db, { id, statusCode, body }: { id: KeyId; statusCode: number; body: string }) =>
    db
      .updateTable('idempotency_keys')
      .set({ status_code: statusCode, response_body: body })
      .where('scope', '=', id.scope)
      .where('idempotency_key', '=', id.key),
);

export async function storeResponse(db: Db, id: KeyId, statusCode: number, body: string): Promise<void> {
  await answeredKey.run(db, { id, statusCode, body });
}

const expiredKeysRemoved = prepared(
  (db, { expiredBefore, limit }: { expiredBefore: number; limit: number }) => {
    const expired = db
      .selectFrom('idempotency_keys')
      .select(['scope', 'idempotency_key'])
      .where('created_at', '<', expiredBefore)
      .orderBy('created_at')
      .limit(limit);
    return db
      .deleteFrom('idempotency_keys')
      .where(({ eb, refTuple }) =>
        eb(
          refTuple('scope', 'idempotency_key'),
          'in',
          forUpdate(db, expired, { skipLocked: true }).$asTuple('scope', 'idempotency_key'),
        ),
      );
  },
);

/**
 * Deletes at most `limit` keys claimed before `expiredBefore`, oldest first. On PostgreSQL rows another
 * transaction is already deleting or taking over are skipped rather than waited for, so concurrent
 * requests never queue behind each other's clean-up.
 */
export async function deleteExpiredKeys(db: Db, expiredBefore: number, limit: number): Promise<void> {
  await expiredKeysRemoved.run(db, { expiredBefore, limit });
}

const releasedKey = prepared((db, id: KeyId) =>
  db
    .deleteFrom('idempotency_keys')
    .where('scope', '=', id.scope)
    .where('idempotency_key', '=', id.key)
    .where('response_body', 'is', null),
);

/** Gives up a claim that has no answer yet, so the same key may be tried again. */
export async function releaseKey(db: Db, id: KeyId): Promise<void> {
  await releasedKey.run(db, id);
}
