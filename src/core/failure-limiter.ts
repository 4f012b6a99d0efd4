import { sql } from 'kysely';
import type { Clock } from './clock';
import type { Db } from './db/database';
import { TooManyRequestsError, UnauthorizedError } from './errors';

/** At most `max` failures per key in each fixed window of `windowMs`; `scope` keeps rules apart. */
export type FailureRule = Readonly<{ scope: string; max: number; windowMs: number }>;
export type FailureBucket = Readonly<{ rule: FailureRule; key: string }>;

type Claim = { bucket: FailureBucket; windowStart: number; failures: number; expiresAt: number };

/**
 * Runs a secret check (a PIN, a password) under failure budgets kept in the database, so every
 * instance on it shares them. The attempt first claims one unit in each bucket with an atomic
 * upsert-increment: a burst of parallel guesses cannot all slip in while the count still looks low.
 * Only a failure keeps its unit; a success, a refusal or any other error gives it back, so a device
 * that logs in often is never locked out by succeeding. A failure is the attempt throwing
 * UnauthorizedError, or what `isFailure` says for secrets whose miss is answered otherwise.
 */
export async function limitFailures<T>(
  db: Db,
  clock: Clock,
  buckets: readonly FailureBucket[],
  attempt: () => Promise<T>,
  isFailure: (error: unknown) => boolean = (error) => error instanceof UnauthorizedError,
): Promise<T> {
  const now = clock.now();
  const claims: Claim[] = [];
  for (const bucket of buckets) claims.push(await claimUnit(db, bucket, now));

  const full = claims.filter((claim) => claim.failures > claim.bucket.rule.max);
  if (full.length > 0) {
    await giveBack(db, claims);
    const retryAfterMs = Math.max(...full.map((claim) => claim.expiresAt - now));
    throw new TooManyRequestsError(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  }

  let result: T;
  try {
    result = await attempt();
  } catch (error) {
    if (!isFailure(error)) await giveBack(db, claims);
    throw error;
  }
  await giveBack(db, claims);
  return result;
}

async function claimUnit(db: Db, bucket: FailureBucket, now: number): Promise<Claim> {
  const { scope, windowMs } = bucket.rule;
  const windowStart = now - (now % windowMs);
  const expiresAt = windowStart + windowMs;
  const row = await db
    .insertInto('failure_counters')
    .values({ scope, bucket_key: bucket.key, window_start: windowStart, failures: 1, expires_at: expiresAt })
    .onConflict((conflict) =>
      conflict
        .columns(['scope', 'bucket_key', 'window_start'])
        .doUpdateSet({ failures: sql<number>`failure_counters.failures + 1` }),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  const failures = Number(row.failures);
  // A first unit usually means a new row; that is when rows of past windows are swept, through the
  // expires_at index, so the table stays about as large as one window's traffic.
  if (failures === 1) await db.deleteFrom('failure_counters').where('expires_at', '<=', now).execute();
  return { bucket, windowStart, failures, expiresAt };
}

async function giveBack(db: Db, claims: readonly Claim[]): Promise<void> {
  for (const { bucket, windowStart } of claims) {
    await db
      .updateTable('failure_counters')
      .set({ failures: sql<number>`failures - 1` })
      .where('scope', '=', bucket.rule.scope)
      .where('bucket_key', '=', bucket.key)
      .where('window_start', '=', windowStart)
      .where('failures', '>', 0)
      .execute();
  }
}
