import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../core/db/database';
import { forUpdate } from '../core/db/locks';
import type { Database } from '../core/db/schema';

export type WebhookRow = Selectable<Database['webhooks']>;
type WebhookChanges = Pick<Insertable<Database['webhooks']>, 'url' | 'events' | 'description' | 'updated_at'>;

export function listWebhooks(db: Db): Promise<WebhookRow[]> {
  return db.selectFrom('webhooks').selectAll().orderBy('created_at').orderBy('id').execute();
}

export function findWebhook(db: Db, id: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertWebhook(db: Db, webhook: Insertable<Database['webhooks']>): Promise<void> {
  await db.insertInto('webhooks').values(webhook).execute();
}

/** False when there is no such webhook. */
export async function updateWebhook(db: Db, id: string, changes: WebhookChanges): Promise<boolean> {
  const result = await db.updateTable('webhooks').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes the webhook and, by the foreign keys' cascade, its deliveries. False when there is none. */
export async function deleteWebhook(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export function listCursors(db: Db): Promise<Pick<WebhookRow, 'id' | 'cursor'>[]> {
  return db.selectFrom('webhooks').select(['id', 'cursor']).orderBy('id').execute();
}

/**
 * The webhook, locked until the transaction ends, for moving its cursor. Undefined when it is gone or,
 * on PostgreSQL, when another instance holds it: that instance is fanning out the same events.
 */
export function lockWebhookForFanOut(db: Db, id: string): Promise<WebhookRow | undefined> {
  return forUpdate(db, db.selectFrom('webhooks').selectAll().where('id', '=', id), {
    skipLocked: true,
  }).executeTakeFirst();
}

export async function moveCursor(db: Db, id: string, cursor: number): Promise<void> {
  await db.updateTable('webhooks').set({ cursor }).where('id', '=', id).execute();
}
