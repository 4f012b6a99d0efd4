import type { Selectable } from 'kysely';
import type { Db } from './db/database';
import type { Database } from './db/schema';

export type IdempotencyRow = Selectable<Database['idempotency_keys']>;
type KeyId = { scope: string; key: string };

/**
 * Claims a key for this transaction. False when another request already holds it; on PostgreSQL a
 * claim still in flight makes this wait for that transaction, so the loser sees its committed answer.
 */
export async function claimKey(db: Db, id: KeyId, requestHash: string, now: number): Promise<boolean> {
  const result = await db
    .insertInto('idempotency_keys')
    .values({ scope: id.scope, idempotency_key: id.key, request_hash: requestHash, created_at: now })
    .onConflict((conflict) => conflict.columns(['scope', 'idempotency_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export function findKey(db: Db, id: KeyId): Promise<IdempotencyRow | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('scope', '=', id.scope)
    .where('idempotency_key', '=', id.key)
    .executeTakeFirst();
}

export async function storeResponse(db: Db, id: KeyId, statusCode: number, body: string): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status_code: statusCode, response_body: body })
    .where('scope', '=', id.scope)
    .where('idempotency_key', '=', id.key)
    .execute();
}
