import { createHmac } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { principalOf } from './auth-guard';
import type { Db } from './db/database';
import { BadRequestError, ConflictError } from './errors';
import * as keys from './idempotency.repo';
import type { Secrets } from './secrets';

/**
 * `Idempotency-Key` on creating POSTs: a tablet that lost the answer to a timeout retries with the same
 * key and gets the first answer back instead of a second order. Only successful answers are kept (a
 * failure rolls the claim back with everything else), so a replay always carries the success status.
 * A key counts for 24 hours: later the same key is a new request, and each new claim deletes a few
 * expired rows so the table stays about one day of keys long without a scheduled job.
 */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description:
        'Optional. A retry with the same key and body returns the first answer and creates nothing; ' +
        'the same key with another body is refused with 400. Keys are scoped per user and route and ' +
        'remembered for 24 hours; an older key counts as new.',
      example: 'a4c1f0e2-tablet-7-0042',
    }),
  ),
});

export type IdempotencyClaim = Readonly<{ scope: string; key: string; requestHash: string }>;

const KEY_REUSED = 'Idempotency-Key was already used with a different request';
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** More than one, so clean-up outpaces the one row each claim adds; few, so a claim stays cheap. */
const EXPIRED_KEYS_DELETED_PER_CLAIM = 10;

/**
 * The claim a request makes, or undefined when it sent no `Idempotency-Key`. The request's fingerprint
 * is keyed with a server secret: a body may carry a PIN (POST /users), and a plain hash of a few
 * digits would give it away to anyone who reads the table.
 */
export function idempotencyClaimOf(
  ctx: Readonly<{ secrets: Secrets }>,
  request: FastifyRequest,
  /** Whose keys these are when no user is signed in (a guest page: its token's hash). */
  caller?: string,
): IdempotencyClaim | undefined {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string') return undefined;
  return {
    scope: `${caller ?? principalOf(request).id} ${request.method} ${request.routeOptions.url}`,
    key,
    requestHash: createHmac('sha256', ctx.secrets.pinKey)
      .update(`idempotency:${canonicalJson({ params: request.params, body: request.body })}`)
      .digest('hex'),
  };
}

/**
 * Runs `work` in one transaction that first claims the key, so the claim and the write commit or
 * vanish together. A request whose key is already claimed gets the stored answer, never a second write.
 */
export function inIdempotentTransaction<T>(
  db: Db,
  options: { claim: IdempotencyClaim | undefined; statusCode: number; now: number },
  work: (trx: Db) => Promise<T>,
): Promise<T> {
  const { claim, statusCode, now } = options;
  return db.transaction().execute(async (trx) => {
    if (!claim) return work(trx);
    if (!(await claimKey(trx, claim, now))) return replay<T>(trx, claim);
    const result = await work(trx);
    await keys.storeResponse(trx, claim, statusCode, JSON.stringify(result));
    return result;
  });
}

/** Claims a key unless another request holds it; each new claim clears a few expired ones. */
export async function claimKey(db: Db, claim: IdempotencyClaim, now: number): Promise<boolean> {
  const expiredBefore = now - KEY_LIFETIME_MS;
  const isClaimed = await keys.claimKey(db, claim, { requestHash: claim.requestHash, now, expiredBefore });
  if (isClaimed) await keys.deleteExpiredKeys(db, expiredBefore, EXPIRED_KEYS_DELETED_PER_CLAIM);
  return isClaimed;
}

/** The stored row of a key some request already holds; a different request under the same key is refused. */
export async function heldKey(db: Db, claim: IdempotencyClaim): Promise<keys.IdempotencyRow | undefined> {
  const stored = await keys.findKey(db, claim);
  if (stored && stored.request_hash !== claim.requestHash) throw new BadRequestError(KEY_REUSED);
  return stored;
}

async function replay<T>(db: Db, claim: IdempotencyClaim): Promise<T> {
  const stored = await heldKey(db, claim);
  // Claims are written and answered in one transaction, so a visible claim without an answer means
  // the row was tampered with outside the service; refuse rather than guess.
  if (!stored?.response_body) throw new ConflictError('Idempotency-Key has no stored answer');
  return JSON.parse(stored.response_body) as T;
}

/** JSON with object keys sorted, so the same body sent with its keys in another order is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
