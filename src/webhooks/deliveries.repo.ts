import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../core/db/database';
import type { Database, WebhookDeliveryState } from '../core/db/schema';
import type { Page } from '../core/paging';

export type DeliveryRow = Selectable<Database['webhook_deliveries']>;
export type DeliveryAttemptRow = Selectable<Database['webhook_delivery_attempts']>;
/** The first unfinished delivery of a webhook, with where to send it and how to sign it. */
export type QueueHead = DeliveryRow & { url: string; secret: string };

/** Written into the SQL (core/db/prepared.ts says why): the unfinished jobs' partial index matches them. */
const UNFINISHED = [sql.lit<WebhookDeliveryState>('pending'), sql.lit<WebhookDeliveryState>('sending')];

export async function insertDeliveries(
  db: Db,
  rows: Insertable<Database['webhook_deliveries']>[],
): Promise<void> {
  if (rows.length > 0) await db.insertInto('webhook_deliveries').values(rows).execute();
}

export async function webhooksWithUnfinishedDeliveries(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select('webhook_id')
    .distinct()
    .where('state', 'in', UNFINISHED)
    .execute();
  return rows.map((row) => row.webhook_id);
}

/** A webhook gets its events in order: only its oldest unfinished delivery may go. */
export function findQueueHead(db: Db, webhookId: string): Promise<QueueHead | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
    .selectAll('webhook_deliveries')
    .select(['webhooks.url', 'webhooks.secret'])
    .where('webhook_deliveries.webhook_id', '=', webhookId)
    .where('webhook_deliveries.state', 'in', UNFINISHED)
    .orderBy('webhook_deliveries.event_position')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Takes the delivery for one attempt until `claimedUntil`, when it is still due at `now`. The attempt
 * count read with it is the condition: of several instances that saw the same head, exactly one
 * updates it. The first attempt starts the retry window (`retryUntil`).
 */
export async function claimDelivery(
  db: Db,
  delivery: { id: string; attempts: number },
  claim: { now: number; claimedUntil: number; retryUntil: number },
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({
      state: 'sending',
      attempts: delivery.attempts + 1,
      claimed_until: claim.claimedUntil,
      retry_until: sql<number>`coalesce(retry_until, ${claim.retryUntil})`,
    })
    .where('id', '=', delivery.id)
    .where('attempts', '=', delivery.attempts)
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'pending'), eb('next_attempt_at', '<=', claim.now)]),
        eb.and([eb('state', '=', 'sending'), eb('claimed_until', '<=', claim.now)]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * After an attempt: delivered, back in the queue at `nextAttemptAt`, or given up on. Only while the
 * attempt is still the delivery's latest, so a slow instance never undoes a later claim.
 */
export async function finishAttempt(
  db: Db,
  delivery: { id: string; attempts: number },
  outcome: {
    state: 'pending' | 'delivered' | 'failed';
    nextAttemptAt: number;
    error: string | null;
    at: number;
  },
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({
      state: outcome.state,
      next_attempt_at: outcome.nextAttemptAt,
      last_error: outcome.error,
      claimed_until: null,
      finished_at: outcome.state === 'pending' ? null : outcome.at,
    })
    .where('id', '=', delivery.id)
    .where('state', '=', 'sending')
    .where('attempts', '=', delivery.attempts)
    .execute();
}

export async function insertAttempt(
  db: Db,
  attempt: Insertable<Database['webhook_delivery_attempts']>,
): Promise<void> {
  await db.insertInto('webhook_delivery_attempts').values(attempt).execute();
}

export function listDeliveries(db: Db, webhookId: string, page: Page): Promise<DeliveryRow[]> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('event_position', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countDeliveries(db: Db, webhookId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('webhook_id', '=', webhookId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The attempts of these deliveries, oldest first. */
export function attemptsOf(db: Db, deliveryIds: string[]): Promise<DeliveryAttemptRow[]> {
  if (deliveryIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('webhook_delivery_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('delivery_id')
    .orderBy('number')
    .execute();
}

export function findDelivery(db: Db, webhookId: string, id: string): Promise<DeliveryRow | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Queues a delivery that is not being sent to go at `now`, with a new 24 h window when it had
 * finished. False when an instance is sending it right now.
 */
export async function requeueDelivery(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({
      state: 'pending',
      next_attempt_at: now,
      claimed_until: null,
      retry_until: sql<number | null>`case when state = 'pending' then retry_until else null end`,
      finished_at: null,
    })
    .where('id', '=', id)
    .where('state', '!=', 'sending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes up to `limit` delivered or failed deliveries made before `before`; returns how many. */
export async function deleteFinishedDeliveries(db: Db, before: number, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where(
      'id',
      'in',
      db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('created_at', '<', before)
        .where('state', 'in', ['delivered', 'failed'])
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
