import type { AppContext } from '../core/context';
import { DELIVERY_CHANNELS, type DeliveryChannel, type DeliveryPlatform } from '../core/delivery-platform';
import { NotFoundError, UnauthorizedError } from '../core/errors';
import { toIsoUtcOrNull } from '../core/time';
import { getMenuBoard } from '../menu/menu.api';
import { loadSettings } from '../settings/settings.api';
import { platformMenuOf, queueMenuUpload } from './channel-menu';
import { isDeliveryChannel } from './channel-orders.service';
import * as channels from './channels.repo';
import type { ChannelSettingsBody, ChannelView } from './channels.schemas';

/** The configured platform of a path's `{channel}`; 404 for a channel we do not know or have. */
export function platformOf(ctx: AppContext, channel: string): DeliveryPlatform {
  const platform = isDeliveryChannel(channel) ? ctx.deliveryApps[channel] : undefined;
  if (!platform) throw new NotFoundError();
  return platform;
}

/**
 * A platform's webhook: verified over the exact bytes, then only stored (each event once) for the
 * inbox job, so the platform gets its 200 at once and nothing it sent is lost if we stop now.
 */
export async function receiveWebhook(
  ctx: AppContext,
  channel: string,
  rawBody: string,
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Promise<void> {
  const platform = platformOf(ctx, channel);
  const registered = platform.webhooks ? await channels.findWebhooks(ctx.db, platform.channel) : [];
  const events = platform.verifyWebhook(rawBody, headers, registered);
  if (events === null) throw new UnauthorizedError('Invalid signature');
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    for (const event of events) {
      if (event.kind === 'other') continue;
      await channels.insertInboxEvent(trx, {
        channel: platform.channel,
        event_id: event.eventId,
        kind: event.kind,
        channel_order_id: event.orderId,
        payload: event.kind === 'order' && event.order ? JSON.stringify(event.order) : null,
        next_attempt_at: now,
        last_error: null,
        received_at: now,
        done_at: null,
      });
    }
  });
}

export async function listChannels(ctx: AppContext): Promise<ChannelView[]> {
  const now = ctx.clock.now();
  const views: ChannelView[] = [];
  for (const channel of DELIVERY_CHANNELS) {
    const platform = ctx.deliveryApps[channel];
    if (!platform) continue;
    views.push(viewOf(platform, await channels.ensureStore(ctx.db, channel, now), now));
  }
  return views;
}

function viewOf(platform: DeliveryPlatform, store: channels.StoreRow, now: number): ChannelView {
  const pausedUntil = store.paused_until === null ? null : Number(store.paused_until);
  const isPaused = pausedUntil !== null && pausedUntil > now;
  const lastErrorAt = store.last_error_at === null ? null : Number(store.last_error_at);
  const isFailing = lastErrorAt !== null && lastErrorAt > Number(store.last_ok_at ?? 0);
  return {
    channel: platform.channel,
    store_id: platform.storeId,
    status: isPaused ? 'paused' : isFailing ? 'error' : 'online',
    paused_until: isPaused ? toIsoUtcOrNull(pausedUntil) : null,
    last_order_at: toIsoUtcOrNull(store.last_order_at === null ? null : Number(store.last_order_at)),
    last_error: isFailing ? store.last_error : null,
    auto_accept: Number(store.auto_accept) === 1,
    commission_percent: Number(store.commission_bp) / 100,
  };
}

async function changeStore(
  ctx: AppContext,
  channel: string,
  change: (platform: DeliveryPlatform, now: number) => Promise<void>,
): Promise<ChannelView> {
  const platform = platformOf(ctx, channel);
  const now = ctx.clock.now();
  await channels.ensureStore(ctx.db, platform.channel, now);
  await change(platform, now);
  return viewOf(platform, await channels.ensureStore(ctx.db, platform.channel, now), now);
}

/** "Sin pedidos 20 min": the platform stops sending orders until the minutes are up. */
export function pauseChannel(ctx: AppContext, channel: string, minutes: number): Promise<ChannelView> {
  return changeStore(ctx, channel, (platform, now) =>
    ctx.db.transaction().execute(async (trx) => {
      const until = now + minutes * 60_000;
      await channels.updateStore(trx, platform.channel, { paused_until: until, updated_at: now });
      await channels.enqueueCall(trx, {
        channel: platform.channel,
        action: 'pause',
        orderId: null,
        payload: { until, reason: 'Cocina llena' },
        now,
        giveUpAt: until,
      });
    }),
  );
}

export function resumeChannel(ctx: AppContext, channel: string): Promise<ChannelView> {
  return changeStore(ctx, channel, (platform, now) =>
    ctx.db.transaction().execute(async (trx) => {
      await channels.updateStore(trx, platform.channel, { paused_until: null, updated_at: now });
      await channels.enqueueCall(trx, {
        channel: platform.channel,
        action: 'resume',
        orderId: null,
        payload: {},
        now,
        giveUpAt: now + 60 * 60_000,
      });
    }),
  );
}

export function updateChannelSettings(
  ctx: AppContext,
  channel: string,
  input: ChannelSettingsBody,
): Promise<ChannelView> {
  return changeStore(ctx, channel, (platform, now) =>
    channels.updateStore(ctx.db, platform.channel, {
      ...(input.auto_accept !== undefined && { auto_accept: input.auto_accept ? 1 : 0 }),
      ...(input.commission_percent !== undefined && {
        commission_bp: Math.round(input.commission_percent * 100),
      }),
      updated_at: now,
    }),
  );
}

/**
 * Publishes the whole menu to the platform (its upload replaces what it had); what it is told of each
 * item's availability is then what the menu said.
 */
export async function syncMenu(ctx: AppContext, channel: string): Promise<void> {
  const platform = platformOf(ctx, channel);
  const now = ctx.clock.now();
  const settings = await loadSettings(ctx.db);
  const menu = await platformMenuOf(ctx.db, platform.channel, await getMenuBoard(ctx), settings.baseCurrency);
  await channels.ensureStore(ctx.db, platform.channel, now);
  await ctx.db.transaction().execute(async (trx) => {
    await channels.lockPublishedAvailability(trx, platform.channel);
    await queueMenuUpload(trx, platform.channel, menu, now);
  });
}

export type { DeliveryChannel };
