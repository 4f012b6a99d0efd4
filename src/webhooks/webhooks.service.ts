import { recordAudit } from '../audit/audit.api';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { BadRequestError, ConflictError, NotFoundError } from '../core/errors';
import { newId } from '../core/ids';
import { totalFromLastPage } from '../core/paging';
import { toIsoUtc, toIsoUtcOrNull } from '../core/time';
import { latestPosition } from '../events/events.api';
import { authorize } from '../permissions/permissions.api';
import { loadSettings } from '../settings/settings.api';
import * as deliveries from './deliveries.repo';
import { newWebhookSecret } from './webhook-sender';
import { isPrivateTarget, maskUrl, PRIVATE_TARGET } from './webhook-targets';
import * as webhooks from './webhooks.repo';
import type {
  CreatedWebhookView,
  DeliveriesQuery,
  DeliveryAttemptView,
  DeliveryView,
  WebhookBody,
  WebhookView,
} from './webhooks.schemas';

export const URL_NOT_HTTP = 'The URL must be an absolute http or https URL';
export const DELIVERY_BEING_SENT = 'The delivery is being sent right now';

export async function listWebhooks(ctx: AppContext, principal: Principal): Promise<WebhookView[]> {
  authorize(principal, 'webhooks.manage');
  return (await webhooks.listWebhooks(ctx.db)).map(toWebhookView);
}

export async function getWebhook(ctx: AppContext, principal: Principal, id: string): Promise<WebhookView> {
  authorize(principal, 'webhooks.manage');
  const row = await webhooks.findWebhook(ctx.db, id);
  if (!row) throw new NotFoundError();
  return toWebhookView(row);
}

/**
 * A new webhook starts at the latest event: it gets what happens from now on, not the whole outbox.
 * Its secret is in this answer only.
 */
export async function createWebhook(
  ctx: AppContext,
  principal: Principal,
  input: WebhookBody,
): Promise<CreatedWebhookView> {
  authorize(principal, 'webhooks.manage');
  const fields = webhookFields(input);
  await assertAllowedTarget(ctx, fields.url);
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const row = {
      id: newId(),
      ...fields,
      secret: newWebhookSecret(),
      cursor: await latestPosition(trx),
      created_at: now,
      updated_at: now,
    };
    await webhooks.insertWebhook(trx, row);
    const view = toWebhookView(row);
    await recordAudit(trx, {
      at: now,
      actor: principal,
      action: 'webhook.created',
      target: { type: 'webhook', id: row.id },
      after: view,
    });
    return { ...view, secret: row.secret };
  });
}

/**
 * Replaces URL, events and description; deliveries already made keep going to the new URL. The
 * masked URL the views show, sent back as it is, keeps the stored one with its credentials.
 */
export async function updateWebhook(
  ctx: AppContext,
  principal: Principal,
  id: string,
  input: WebhookBody,
): Promise<WebhookView> {
  authorize(principal, 'webhooks.manage');
  const fields = webhookFields(input);
  const stored = await webhooks.findWebhook(ctx.db, id);
  if (!stored) throw new NotFoundError();
  const url = fields.url === maskUrl(stored.url) ? stored.url : fields.url;
  await assertAllowedTarget(ctx, url);
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const existing = await webhooks.findWebhook(trx, id);
    if (!existing) throw new NotFoundError();
    const changes = { ...fields, url, updated_at: now };
    await webhooks.updateWebhook(trx, id, changes);
    const view = toWebhookView({ ...existing, ...changes });
    await recordAudit(trx, {
      at: now,
      actor: principal,
      action: 'webhook.updated',
      target: { type: 'webhook', id },
      before: toWebhookView(existing),
      after: view,
    });
    return view;
  });
}

/** Its deliveries go with it: nothing more is sent to that URL. */
export async function deleteWebhook(ctx: AppContext, principal: Principal, id: string): Promise<void> {
  authorize(principal, 'webhooks.manage');
  await ctx.db.transaction().execute(async (trx) => {
    const existing = await webhooks.findWebhook(trx, id);
    if (!existing || !(await webhooks.deleteWebhook(trx, id))) throw new NotFoundError();
    await recordAudit(trx, {
      at: ctx.clock.now(),
      actor: principal,
      action: 'webhook.deleted',
      target: { type: 'webhook', id },
      before: toWebhookView(existing),
    });
  });
}

export async function listDeliveries(
  ctx: AppContext,
  principal: Principal,
  webhookId: string,
  query: DeliveriesQuery,
): Promise<{ items: DeliveryView[]; totalCount: number }> {
  authorize(principal, 'webhooks.manage');
  if (!(await webhooks.findWebhook(ctx.db, webhookId))) throw new NotFoundError();
  const rows = await deliveries.listDeliveries(ctx.db, webhookId, query);
  const attempts = new Map<string, deliveries.DeliveryAttemptRow[]>();
  for (const attempt of await deliveries.attemptsOf(
    ctx.db,
    rows.map((row) => row.id),
  )) {
    const ofDelivery = attempts.get(attempt.delivery_id);
    if (ofDelivery) ofDelivery.push(attempt);
    else attempts.set(attempt.delivery_id, [attempt]);
  }
  const totalCount =
    totalFromLastPage(query, rows.length) ?? (await deliveries.countDeliveries(ctx.db, webhookId));
  return {
    items: rows.map((row) => toDeliveryView(row, attempts.get(row.id) ?? [])),
    totalCount,
  };
}

/**
 * Sends a delivery again now: a failed or delivered one gets a new 24 h window, a pending one skips
 * the rest of its backoff. It keeps its place in the webhook's order, so later pending deliveries
 * wait for it.
 */
export async function retryDelivery(
  ctx: AppContext,
  principal: Principal,
  webhookId: string,
  deliveryId: string,
): Promise<void> {
  authorize(principal, 'webhooks.manage');
  const delivery = await deliveries.findDelivery(ctx.db, webhookId, deliveryId);
  if (!delivery) throw new NotFoundError();
  if (!(await deliveries.requeueDelivery(ctx.db, deliveryId, ctx.clock.now()))) {
    throw new ConflictError(DELIVERY_BEING_SENT);
  }
}

function webhookFields(input: WebhookBody) {
  return {
    url: httpUrl(input.url),
    events: JSON.stringify(input.events),
    description: input.description?.trim() || null,
  };
}

/** With `webhooks_block_private_targets` on, a URL at a private address is refused when saved. */
async function assertAllowedTarget(ctx: AppContext, url: string): Promise<void> {
  if (!(await loadSettings(ctx.db)).webhooksBlockPrivateTargets) return;
  if (await isPrivateTarget(url)) throw new BadRequestError(PRIVATE_TARGET);
}

function httpUrl(text: string): string {
  const trimmed = text.trim();
  if (!URL.canParse(trimmed)) throw new BadRequestError(URL_NOT_HTTP);
  const { protocol } = new URL(trimmed);
  if (protocol !== 'http:' && protocol !== 'https:') throw new BadRequestError(URL_NOT_HTTP);
  return trimmed;
}

function toWebhookView(row: webhooks.WebhookRow): WebhookView {
  return {
    id: row.id,
    url: maskUrl(row.url),
    events: JSON.parse(row.events) as string[],
    description: row.description,
    created_at: toIsoUtc(Number(row.created_at)),
    updated_at: toIsoUtc(Number(row.updated_at)),
  };
}

function toDeliveryView(
  row: deliveries.DeliveryRow,
  attempts: deliveries.DeliveryAttemptRow[],
): DeliveryView {
  const isUnfinished = row.state === 'pending' || row.state === 'sending';
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    event_id: Number(row.event_position),
    event_type: row.event_type,
    state: row.state,
    next_attempt_at: isUnfinished ? toIsoUtc(Number(row.next_attempt_at)) : null,
    created_at: toIsoUtc(Number(row.created_at)),
    finished_at: toIsoUtcOrNull(row.finished_at),
    attempts: attempts.map(toAttemptView),
  };
}

function toAttemptView(row: deliveries.DeliveryAttemptRow): DeliveryAttemptView {
  return {
    at: toIsoUtc(Number(row.at)),
    status_code: row.status_code === null ? null : Number(row.status_code),
    duration_ms: Number(row.duration_ms),
    error: row.error,
  };
}
