import type { AppContext } from '../core/context';
import { isForeignKeyViolation } from '../core/db/locks';
import { newId } from '../core/ids';
import { eventsAfter, latestPosition, type StoredEvent } from '../events/events.api';
import { loadSettings } from '../settings/settings.api';
import * as deliveries from './deliveries.repo';
import type { AttemptOutcome, WebhookTransport } from './webhook-sender';
import * as webhooks from './webhooks.repo';
import { ALL_EVENTS } from './webhooks.schemas';

/** The background job that turns new events into deliveries and sends the due ones, every second. */
export const WEBHOOK_DELIVERIES = 'webhook-deliveries';
export const WEBHOOK_DELIVERIES_INTERVAL_MS = 1000;

/** Removes finished deliveries once nobody will look for them, hourly. */
export const PRUNE_WEBHOOK_DELIVERIES = 'webhook-deliveries-prune';
export const PRUNE_WEBHOOK_DELIVERIES_INTERVAL_MS = 60 * 60_000;
/** Finished deliveries stay in the log for a month; their bodies would otherwise pile up for ever. */
export const FINISHED_DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60_000;
const PRUNED_PER_BATCH = 500;

/** The contract retries for 24 h after the first attempt, then gives up so the queue moves on. */
export const RETRY_WINDOW_MS = 24 * 60 * 60_000;
const FIRST_RETRY_MS = 10_000;
const MAX_RETRY_MS = 60 * 60_000;
/** Longer than one attempt can take (10 s timeout); after it, a crashed instance's claim lapses. */
const CLAIM_MS = 60_000;
/** Events read per webhook and transaction, so one fan-out never holds its lock for long. */
const FAN_OUT_BATCH = 500;
/** Per webhook and run, so one long queue does not hold the run forever. */
const MAX_DELIVERIES_PER_RUN = 50;

/** Delay before attempt `attempts + 1`: doubling from 10 s, at most 1 hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(attempts - 1, 0), MAX_RETRY_MS);
}

/** One run of the job: new events become deliveries, then every webhook's due deliveries go out. */
export async function deliverWebhooks(ctx: AppContext, transport: WebhookTransport): Promise<void> {
  await fanOutEvents(ctx);
  await sendDueDeliveries(ctx, transport);
}

export async function fanOutEvents(ctx: AppContext): Promise<void> {
  // Most seconds bring no event: one cheap read then spares every webhook its locking transaction.
  const latest = await latestPosition(ctx.db);
  for (const webhook of await webhooks.listCursors(ctx.db)) {
    if (Number(webhook.cursor) >= latest) continue;
    while (await fanOutBatch(ctx, webhook.id));
  }
}

/**
 * Turns the next events after the webhook's cursor into its deliveries and moves the cursor past them,
 * in one transaction with the webhook row locked: each event becomes exactly one delivery, whichever
 * instance gets there. Only positioned events are read, in position order, so none is ever skipped.
 * True when more events may be waiting.
 */
async function fanOutBatch(ctx: AppContext, webhookId: string): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    const webhook = await webhooks.lockWebhookForFanOut(trx, webhookId);
    if (!webhook) return false;
    const events = await eventsAfter(trx, Number(webhook.cursor), FAN_OUT_BATCH);
    const last = events.at(-1);
    if (!last) return false;
    const now = ctx.clock.now();
    const wanted = new Set(JSON.parse(webhook.events) as string[]);
    const isWanted = (event: StoredEvent) => wanted.has(ALL_EVENTS) || wanted.has(event.type);
    await deliveries.insertDeliveries(
      trx,
      events.filter(isWanted).map((event) => ({
        id: newId(),
        webhook_id: webhookId,
        event_position: Number(event.position),
        event_type: event.type,
        body: deliveryBody(event),
        state: 'pending' as const,
        next_attempt_at: now,
        claimed_until: null,
        retry_until: null,
        last_error: null,
        created_at: now,
        finished_at: null,
      })),
    );
    await webhooks.moveCursor(trx, webhookId, Number(last.position));
    return events.length === FAN_OUT_BATCH;
  });
}

/** The stored event `{type, at, data}` with its position first as `id`, as the receiver dedupes by it. */
function deliveryBody(event: StoredEvent): string {
  return JSON.stringify({ id: Number(event.position), ...(JSON.parse(event.payload) as object) });
}

/** Sends every due delivery, webhooks in parallel, each webhook's deliveries in event order. */
export async function sendDueDeliveries(ctx: AppContext, transport: WebhookTransport): Promise<void> {
  const webhookIds = await deliveries.webhooksWithUnfinishedDeliveries(ctx.db);
  if (webhookIds.length === 0) return;
  const { webhooksBlockPrivateTargets } = await loadSettings(ctx.db);
  await Promise.all(
    webhookIds.map((webhookId) => drainWebhook(ctx, transport, webhookId, webhooksBlockPrivateTargets)),
  );
}

async function drainWebhook(
  ctx: AppContext,
  transport: WebhookTransport,
  webhookId: string,
  blockPrivateTargets: boolean,
): Promise<void> {
  for (let sent = 0; sent < MAX_DELIVERIES_PER_RUN; sent += 1) {
    const head = await deliveries.findQueueHead(ctx.db, webhookId);
    const now = ctx.clock.now();
    if (!head || !isClaimable(head, now)) return;
    const claimed = { id: head.id, attempts: Number(head.attempts) };
    const retryUntil = head.retry_until === null ? now + RETRY_WINDOW_MS : Number(head.retry_until);
    if (
      !(await deliveries.claimDelivery(ctx.db, claimed, { now, claimedUntil: now + CLAIM_MS, retryUntil }))
    ) {
      return;
    }
    const outcome = await transport({
      url: head.url,
      secret: head.secret,
      eventId: Number(head.event_position),
      body: head.body,
      unixSeconds: Math.floor(now / 1000),
      blockPrivateTargets,
    });
    const state = await recordAttempt(
      ctx,
      { id: head.id, attempts: claimed.attempts + 1 },
      { at: now, retryUntil, outcome },
    );
    // The receiver is down or refusing: the rest of this webhook's queue waits behind this delivery.
    if (state === 'pending') return;
  }
}

/** Due and not being sent, or being sent by an instance whose claim has lapsed. */
function isClaimable(head: deliveries.QueueHead, now: number): boolean {
  if (head.state === 'sending') return Number(head.claimed_until) <= now;
  return Number(head.next_attempt_at) <= now;
}

/**
 * Keeps the attempt for the log and decides what comes next: delivered, tried again after the backoff
 * (the last try exactly when the 24 h window closes), or failed. A webhook deleted meanwhile took the
 * delivery with it; there is nothing left to record.
 */
async function recordAttempt(
  ctx: AppContext,
  delivery: { id: string; attempts: number },
  attempt: { at: number; retryUntil: number; outcome: AttemptOutcome },
): Promise<'pending' | 'delivered' | 'failed'> {
  const { outcome } = attempt;
  const now = ctx.clock.now();
  const isGivenUp = outcome.error !== null && now >= attempt.retryUntil;
  const state = outcome.error === null ? 'delivered' : isGivenUp ? 'failed' : 'pending';
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await deliveries.insertAttempt(trx, {
        id: newId(),
        delivery_id: delivery.id,
        number: delivery.attempts,
        at: attempt.at,
        status_code: outcome.statusCode,
        duration_ms: outcome.durationMs,
        error: outcome.error,
      });
      await deliveries.finishAttempt(trx, delivery, {
        state,
        nextAttemptAt: Math.min(now + retryDelayMs(delivery.attempts), attempt.retryUntil),
        error: outcome.error,
        at: now,
      });
    });
  } catch (error) {
    if (!isForeignKeyViolation(error)) throw error;
  }
  return state;
}

/** Deletes finished deliveries older than the retention, in small batches so no transaction runs long. */
export async function pruneFinishedDeliveries(ctx: AppContext): Promise<void> {
  const before = ctx.clock.now() - FINISHED_DELIVERY_RETENTION_MS;
  while ((await deliveries.deleteFinishedDeliveries(ctx.db, before, PRUNED_PER_BATCH)) === PRUNED_PER_BATCH);
}
