import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Db } from '../core/db/database';
import { forUpdate } from '../core/db/locks';
import type { Database } from '../core/db/schema';
import { newId } from '../core/ids';

export type InboxRow = Selectable<Database['channel_inbox']>;
export type CallRow = Selectable<Database['channel_calls']>;
export type StoreRow = Selectable<Database['channel_stores']>;
export type CallAction = Database['channel_calls']['action'];

/**
 * Stores what a platform told us, once per `(channel, event_id)`: a webhook sent twice, or an order
 * both pushed and read, adds nothing the second time. True when the row is new.
 */
export async function insertInboxEvent(
  db: Db,
  event: Omit<Insertable<Database['channel_inbox']>, 'id' | 'state' | 'attempts' | 'claimed_until'>,
): Promise<boolean> {
  const inserted = await db
    .insertInto('channel_inbox')
    .values({ ...event, id: newId(), state: 'pending', claimed_until: null })
    .onConflict((conflict) => conflict.columns(['channel', 'event_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Pending rows of a queue whose next attempt is due and which no live claim holds, oldest first. */
function dueRows<T extends 'channel_inbox' | 'channel_calls'>(db: Db, table: T, now: number, limit: number) {
  const base = db as unknown as Kysely<Pick<Database, 'channel_inbox' | 'channel_calls'>>;
  return base
    .selectFrom(table as 'channel_inbox')
    .select('id')
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((w) => w.or([w('claimed_until', 'is', null), w('claimed_until', '<=', now)]))
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
}

/**
 * Claims the due rows one by one with a conditional update: of two instances, each row goes to one,
 * and a crashed instance's claim lapses at `until`.
 */
async function claimDue<T extends 'channel_inbox' | 'channel_calls'>(
  db: Db,
  table: T,
  now: number,
  until: number,
  limit: number,
): Promise<Selectable<Database[T]>[]> {
  const claimed: Selectable<Database[T]>[] = [];
  for (const { id } of await dueRows(db, table, now, limit)) {
    const base = db as unknown as Kysely<Pick<Database, 'channel_inbox'>>;
    const row = await base
      .updateTable(table as 'channel_inbox')
      .set({ claimed_until: until })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .where((w) => w.or([w('claimed_until', 'is', null), w('claimed_until', '<=', now)]))
      .returningAll()
      .executeTakeFirst();
    if (row) claimed.push(row as unknown as Selectable<Database[T]>);
  }
  return claimed;
}

export function claimDueInbox(db: Db, now: number, until: number, limit: number): Promise<InboxRow[]> {
  return claimDue(db, 'channel_inbox', now, until, limit);
}

export function claimDueCalls(db: Db, now: number, until: number, limit: number): Promise<CallRow[]> {
  return claimDue(db, 'channel_calls', now, until, limit);
}

export async function finishInbox(
  db: Db,
  id: string,
  changes: Pick<Updateable<Database['channel_inbox']>, 'state' | 'last_error' | 'done_at' | 'payload'>,
): Promise<void> {
  await db
    .updateTable('channel_inbox')
    .set({ ...changes, claimed_until: null })
    .where('id', '=', id)
    .execute();
}

export async function retryInbox(db: Db, row: InboxRow, error: string, at: number): Promise<void> {
  await db
    .updateTable('channel_inbox')
    .set({ attempts: Number(row.attempts) + 1, last_error: error, next_attempt_at: at, claimed_until: null })
    .where('id', '=', row.id)
    .execute();
}

export async function enqueueCall(
  db: Db,
  call: {
    channel: string;
    action: CallAction;
    orderId: string | null;
    payload: unknown;
    now: number;
    giveUpAt: number;
  },
): Promise<void> {
  await db
    .insertInto('channel_calls')
    .values({
      id: newId(),
      channel: call.channel,
      action: call.action,
      order_id: call.orderId,
      payload: JSON.stringify(call.payload),
      state: 'pending',
      next_attempt_at: call.now,
      give_up_at: call.giveUpAt,
      claimed_until: null,
      last_error: null,
      created_at: call.now,
      done_at: null,
    })
    .execute();
}

export async function finishCall(
  db: Db,
  row: CallRow,
  outcome: { state: 'done' | 'failed'; error: string | null; now: number },
): Promise<void> {
  await db
    .updateTable('channel_calls')
    .set({
      state: outcome.state,
      attempts: Number(row.attempts) + 1,
      last_error: outcome.error,
      done_at: outcome.now,
      claimed_until: null,
    })
    .where('id', '=', row.id)
    .execute();
}

export async function retryCall(db: Db, row: CallRow, error: string, at: number): Promise<void> {
  await db
    .updateTable('channel_calls')
    .set({ attempts: Number(row.attempts) + 1, last_error: error, next_attempt_at: at, claimed_until: null })
    .where('id', '=', row.id)
    .execute();
}

/** Leaves the call for later without counting an attempt. */
export async function postponeCall(db: Db, id: string, at: number): Promise<void> {
  await db
    .updateTable('channel_calls')
    .set({ next_attempt_at: at, claimed_until: null })
    .where('id', '=', id)
    .execute();
}

/** Whether a call made before this one for the same order is still unanswered. */
export async function hasEarlierOpenCall(db: Db, call: CallRow): Promise<boolean> {
  if (call.order_id === null) return false;
  const row = await db
    .selectFrom('channel_calls')
    .select('id')
    .where('order_id', '=', call.order_id)
    .where('state', '=', 'pending')
    .where('created_at', '<', call.created_at)
    .executeTakeFirst();
  return row !== undefined;
}

export async function findCallsOfOrder(db: Db, orderId: string): Promise<CallRow[]> {
  return db
    .selectFrom('channel_calls')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .execute();
}

/** The channel's store row, made with the defaults the first time anyone asks. */
export async function ensureStore(db: Db, channel: string, now: number): Promise<StoreRow> {
  const found = await findStore(db, channel);
  if (found) return found;
  await db
    .insertInto('channel_stores')
    .values({ channel, updated_at: now, paused_until: null, last_order_at: null, last_error: null })
    .onConflict((conflict) => conflict.column('channel').doNothing())
    .execute();
  return (await findStore(db, channel)) as StoreRow;
}

function findStore(db: Db, channel: string): Promise<StoreRow | undefined> {
  return db.selectFrom('channel_stores').selectAll().where('channel', '=', channel).executeTakeFirst();
}

export async function updateStore(
  db: Db,
  channel: string,
  changes: Omit<Updateable<Database['channel_stores']>, 'channel'>,
): Promise<void> {
  await db.updateTable('channel_stores').set(changes).where('channel', '=', channel).execute();
}

/**
 * Takes the channel's next read: true for exactly one instance once `next_read_at` has come, which
 * then moves it on by the platform's interval, so reads never come closer than the platform allows.
 */
export async function claimRead(db: Db, channel: string, now: number, intervalMs: number): Promise<boolean> {
  const result = await db
    .updateTable('channel_stores')
    .set({ next_read_at: now + intervalMs })
    .where('channel', '=', channel)
    .where('next_read_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Ends a pause whose time is up, once: true for the one caller whose update did it. */
export async function clearPauseIfOver(db: Db, channel: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('channel_stores')
    .set({ paused_until: null, updated_at: now })
    .where('channel', '=', channel)
    .where('paused_until', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * What the platform was last told of each item, read under the store row's lock: two instances
 * comparing at once would both send the same suspension.
 */
export async function lockPublishedAvailability(db: Db, channel: string): Promise<Map<string, boolean>> {
  await forUpdate(
    db,
    db.selectFrom('channel_stores').select('channel').where('channel', '=', channel),
  ).execute();
  return findPublishedAvailability(db, channel);
}

export async function findPublishedAvailability(db: Db, channel: string): Promise<Map<string, boolean>> {
  const rows = await db
    .selectFrom('channel_availability')
    .select(['item_id', 'is_available'])
    .where('channel', '=', channel)
    .execute();
  return new Map(rows.map((row) => [row.item_id, Number(row.is_available) === 1]));
}

export async function savePublishedAvailability(
  db: Db,
  channel: string,
  items: { id: string; kind: 'dish' | 'option'; isAvailable: boolean }[],
): Promise<void> {
  for (const item of items) {
    const value = item.isAvailable ? 1 : 0;
    await db
      .insertInto('channel_availability')
      .values({ channel, item_id: item.id, kind: item.kind, is_available: value })
      .onConflict((conflict) => conflict.columns(['channel', 'item_id']).doUpdateSet({ is_available: value }))
      .execute();
  }
}

export type WebhookRow = Selectable<Database['channel_webhooks']>;

/** The webhooks registered through the platform's API, one per event. */
export function findWebhooks(db: Db, channel: string): Promise<WebhookRow[]> {
  return db.selectFrom('channel_webhooks').selectAll().where('channel', '=', channel).execute();
}

/** Keeps one event's webhook: a registration at another URL, or with a new secret, replaces the old one. */
export async function saveWebhook(db: Db, webhook: WebhookRow): Promise<void> {
  await db
    .insertInto('channel_webhooks')
    .values(webhook)
    .onConflict((conflict) =>
      conflict.columns(['channel', 'event']).doUpdateSet({
        url: webhook.url,
        secret: webhook.secret,
        registered_at: webhook.registered_at,
      }),
    )
    .execute();
}
