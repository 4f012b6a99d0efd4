import type { AppContext } from '../core/context';
import {
  type DeliveryChannel,
  type DeliveryPlatform,
  PlatformError,
  type PlatformMenu,
  type PlatformOrder,
} from '../core/delivery-platform';
import { ConflictError } from '../core/errors';
import { getMenuBoard, type MenuBoard } from '../menu/menu.api';
import {
  claimChannelOrdersToCheck,
  findChannelOrdersKitchenDone,
  type OrderRow,
  stopCheckingChannelOrder,
} from '../orders/orders.api';
import { republishEditedMenus } from './channel-menu';
import {
  cancelByPlatform,
  isDeliveryChannel,
  markReady,
  PICKUP_CHECK_INTERVAL_MS,
  PICKUP_FOLLOW_MS,
  recordPlatformProgress,
  takeInOrder,
} from './channel-orders.service';
import { registerWebhooks } from './channel-webhooks';
import * as channels from './channels.repo';

/** Takes in what the platforms told us, every second: an order reaches the kitchen within one. */
export const CHANNEL_INBOX = 'channel-inbox';
export const CHANNEL_INBOX_INTERVAL_MS = 1000;
/** Tells the platforms what we decided (accept, deny, ready, availability, pause), every second. */
export const CHANNEL_CALLS = 'channel-calls';
export const CHANNEL_CALLS_INTERVAL_MS = 1000;
/**
 * Reads the platforms when their interval allows, tells them what the kitchen finished, and turns a
 * dish's 86 into a suspension: every 2 s, so an 86 reaches every platform well within 10 s.
 */
export const CHANNEL_WATCH = 'channel-watch';
export const CHANNEL_WATCH_INTERVAL_MS = 2000;

/** Rappi hands each order out once and asks 45 s between reads; Uber's reads only back up its webhooks. */
const READ_INTERVAL_MS: Readonly<Record<DeliveryChannel, number>> = { ubereats: 60_000, rappi: 45_000 };
/** Longer than one platform call can take (10 s); after it, a crashed instance's claim lapses. */
const CLAIM_MS = 60_000;
const BATCH = 20;
const MAX_RETRY_MS = 30_000;

function retryDelayMs(attempts: number): number {
  return Math.min(1000 * 2 ** attempts, MAX_RETRY_MS);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A platform's own "no" is final; anything else (the platform down, our database busy) is tried again. */
function isFinal(error: unknown): boolean {
  return error instanceof PlatformError && !error.isRetryable;
}

/** Without a configured platform the queues stay empty: the jobs then ask the database nothing. */
function hasPlatforms(ctx: AppContext): boolean {
  return Object.keys(ctx.deliveryApps).length > 0;
}

export async function takeInPending(ctx: AppContext): Promise<void> {
  if (!hasPlatforms(ctx)) return;
  const now = ctx.clock.now();
  for (const row of await channels.claimDueInbox(ctx.db, now, now + CLAIM_MS, BATCH)) {
    const { channel } = row;
    try {
      if (!isDeliveryChannel(channel)) throw new PlatformError(`Unknown channel ${channel}`, null, false);
      if (row.kind === 'cancel') {
        await cancelByPlatform(ctx, channel, row.channel_order_id, row.id);
        continue;
      }
      const order =
        row.payload === null ? await readOrder(ctx, channel, row.channel_order_id) : parse(row.payload);
      await takeInOrder(ctx, channel, order, row.id);
    } catch (error) {
      const at = ctx.clock.now();
      if (isFinal(error)) {
        await channels.finishInbox(ctx.db, row.id, {
          state: 'failed',
          last_error: describe(error),
          done_at: at,
        });
        if (isDeliveryChannel(channel)) await noteError(ctx, channel, error, at);
      } else {
        await channels.retryInbox(ctx.db, row, describe(error), at + retryDelayMs(Number(row.attempts)));
      }
    }
  }
}

function parse(payload: string): PlatformOrder {
  return JSON.parse(payload) as PlatformOrder;
}

function readOrder(ctx: AppContext, channel: DeliveryChannel, orderId: string): Promise<PlatformOrder> {
  const platform = ctx.deliveryApps[channel];
  if (!platform) throw new PlatformError(`${channel} is not configured`, null, false);
  return platform.getOrder(orderId);
}

async function noteError(
  ctx: AppContext,
  channel: DeliveryChannel,
  error: unknown,
  at: number,
): Promise<void> {
  await channels.ensureStore(ctx.db, channel, at);
  await channels.updateStore(ctx.db, channel, {
    last_error: describe(error),
    last_error_at: at,
    updated_at: at,
  });
}

async function noteSuccess(ctx: AppContext, channel: DeliveryChannel, at: number): Promise<void> {
  await channels.updateStore(ctx.db, channel, { last_ok_at: at, updated_at: at });
}

export async function sendDueCalls(ctx: AppContext): Promise<void> {
  if (!hasPlatforms(ctx)) return;
  const now = ctx.clock.now();
  for (const call of await channels.claimDueCalls(ctx.db, now, now + CLAIM_MS, BATCH)) {
    const platform = isDeliveryChannel(call.channel) ? ctx.deliveryApps[call.channel] : undefined;
    if (!platform) {
      await channels.finishCall(ctx.db, call, {
        state: 'failed',
        error: `${call.channel} is not configured`,
        now,
      });
      continue;
    }
    // A platform takes an order's calls in the order we made them: "ready" after "accept".
    if (call.order_id !== null && (await channels.hasEarlierOpenCall(ctx.db, call))) {
      await channels.postponeCall(ctx.db, call.id, now + 1000);
      continue;
    }
    try {
      await perform(platform, call);
      const at = ctx.clock.now();
      await channels.finishCall(ctx.db, call, { state: 'done', error: null, now: at });
      await noteSuccess(ctx, platform.channel, at);
    } catch (error) {
      const at = ctx.clock.now();
      if (isFinal(error) || at >= Number(call.give_up_at)) {
        await channels.finishCall(ctx.db, call, { state: 'failed', error: describe(error), now: at });
        await noteError(ctx, platform.channel, error, at);
      } else {
        await channels.retryCall(ctx.db, call, describe(error), at + retryDelayMs(Number(call.attempts)));
      }
    }
  }
}

function perform(platform: DeliveryPlatform, call: channels.CallRow): Promise<void> {
  const payload = JSON.parse(call.payload) as Record<string, unknown>;
  const orderId = String(payload.orderId);
  switch (call.action) {
    case 'accept':
      return platform.accept({
        id: orderId,
        pickupAt: Number(payload.pickupAt),
        cookingMinutes: Number(payload.cookingMinutes),
      });
    case 'deny':
      return platform.deny(orderId, {
        explanation: String(payload.explanation),
        unknownItems: payload.unknownItems as string[],
      });
    case 'cancel':
      return platform.cancel(orderId, String(payload.explanation));
    case 'ready':
      return platform.markReady(orderId);
    case 'availability':
      return platform.setAvailability(
        payload as { dishIds: string[]; optionIds: string[]; isAvailable: boolean },
      );
    case 'menu':
      return platform.publishMenu(payload as PlatformMenu);
    case 'pause':
      return platform.pause(Number(payload.until), String(payload.reason));
    case 'resume':
      return platform.resume();
  }
}

export async function watchChannels(ctx: AppContext): Promise<void> {
  if (!hasPlatforms(ctx)) return;
  const platforms = Object.values(ctx.deliveryApps);
  const now = ctx.clock.now();
  // Every 2 s on every instance: what is not due is only read, so an idle night writes (and syncs) nothing.
  for (const platform of platforms) {
    const store = await channels.ensureStore(ctx.db, platform.channel, now);
    const isReadDue = Number(store.next_read_at) <= now;
    if (
      isReadDue &&
      (await channels.claimRead(ctx.db, platform.channel, now, READ_INTERVAL_MS[platform.channel]))
    ) {
      await readPlatform(ctx, platform, now);
      // With the read's claim: one instance registers, and a failed registration waits for the next read.
      await registerWebhooks(ctx, platform).catch((error: unknown) =>
        noteError(ctx, platform.channel, error, ctx.clock.now()),
      );
    }
    if (store.paused_until !== null && Number(store.paused_until) <= now)
      await endPause(ctx, platform.channel, now);
  }
  for (const order of await findChannelOrdersKitchenDone(ctx.db, BATCH)) {
    await markReady(ctx, order.id).catch((error: unknown) => {
      // Another instance told it first.
      if (!(error instanceof ConflictError)) throw error;
    });
  }
  for (const order of await claimChannelOrdersToCheck(ctx.db, now, now + PICKUP_CHECK_INTERVAL_MS, BATCH))
    await checkPickup(ctx, order, now);
  const board = await getMenuBoard(ctx);
  await publishAvailability(ctx, platforms, board, now);
  await republishEditedMenus(ctx, platforms, board, now);
}

/**
 * One read of the platform's orders and cancellations, each stored in the inbox before anything else
 * (Rappi hands an order out only once). A platform that cannot be read is tried at the next interval.
 */
async function readPlatform(ctx: AppContext, platform: DeliveryPlatform, now: number): Promise<void> {
  const { channel } = platform;
  try {
    for (const order of await platform.readOrders()) {
      await channels.insertInboxEvent(ctx.db, {
        channel,
        event_id: `read:${order.id}`,
        kind: 'order',
        channel_order_id: order.id,
        payload: JSON.stringify(order),
        next_attempt_at: now,
        last_error: null,
        received_at: now,
        done_at: null,
      });
    }
    for (const orderId of await platform.readCancelledOrderIds()) {
      await channels.insertInboxEvent(ctx.db, {
        channel,
        event_id: `read-cancel:${orderId}`,
        kind: 'cancel',
        channel_order_id: orderId,
        payload: null,
        next_attempt_at: now,
        last_error: null,
        received_at: now,
        done_at: null,
      });
    }
    await noteSuccess(ctx, channel, ctx.clock.now());
  } catch (error) {
    await noteError(ctx, channel, error, ctx.clock.now());
  }
}

/**
 * Asks the platform where a ready order is, and shows it picked up or delivered when the platform says
 * so. A platform that fails is asked again at the next check; its own "no" (Rappi shows an order only
 * until it is taken) ends the following, as do three hours, the order moving on, or the platform's
 * configuration going away.
 */
async function checkPickup(ctx: AppContext, order: OrderRow, now: number): Promise<void> {
  const platform = isDeliveryChannel(order.channel) ? ctx.deliveryApps[order.channel] : undefined;
  const readyAt = Number(order.channel_ready_at);
  if (!platform || order.channel_state !== 'ready' || now - readyAt >= PICKUP_FOLLOW_MS) {
    await stopCheckingChannelOrder(ctx.db, order.id);
    return;
  }
  let state: PlatformOrder['state'];
  try {
    state = (await platform.getOrder(String(order.channel_order_id))).state;
  } catch (error) {
    if (isFinal(error)) await stopCheckingChannelOrder(ctx.db, order.id);
    return;
  }
  if (state === 'picked_up' || state === 'delivered') await recordPlatformProgress(ctx, order.id, state);
}

/** Rappi's store pause has no "until": when the minutes are up we turn the store on again ourselves. */
async function endPause(ctx: AppContext, channel: DeliveryChannel, now: number): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await channels.clearPauseIfOver(trx, channel, now))) return;
    if (channel === 'rappi') {
      await channels.enqueueCall(trx, {
        channel,
        action: 'resume',
        orderId: null,
        payload: {},
        now,
        giveUpAt: now + 60 * 60_000,
      });
    }
  });
}

type Availability = { id: string; kind: 'dish' | 'option'; isAvailable: boolean };

function availabilityOf(board: MenuBoard): Availability[] {
  const items = new Map<string, Availability>();
  for (const category of board.categories) {
    for (const dish of category.dishes) {
      items.set(dish.id, { id: dish.id, kind: 'dish', isAvailable: dish.available });
      for (const group of dish.modifier_groups) {
        for (const option of group.options)
          items.set(option.id, { id: option.id, kind: 'option', isAvailable: option.available });
      }
    }
  }
  return [...items.values()];
}

/**
 * An 86 or a stock-out suspends the item on every platform, and its return lifts the suspension.
 * Each platform's last word per item is kept, so only changes are sent; an item never told is
 * taken as available (the menu upload published it so).
 */
async function publishAvailability(
  ctx: AppContext,
  platforms: DeliveryPlatform[],
  board: MenuBoard,
  now: number,
): Promise<void> {
  const items = availabilityOf(board);
  const isChanged = (told: Map<string, boolean>) =>
    items.filter((item) => (told.get(item.id) ?? true) !== item.isAvailable);
  for (const { channel } of platforms) {
    if (isChanged(await channels.findPublishedAvailability(ctx.db, channel)).length === 0) continue;
    await ctx.db.transaction().execute(async (trx) => {
      const told = await channels.lockPublishedAvailability(trx, channel);
      const changed = isChanged(told);
      if (changed.length === 0) return;
      for (const isAvailable of [false, true]) {
        const these = changed.filter((item) => item.isAvailable === isAvailable);
        if (these.length === 0) continue;
        await channels.enqueueCall(trx, {
          channel,
          action: 'availability',
          orderId: null,
          payload: {
            dishIds: these.filter((item) => item.kind === 'dish').map((item) => item.id),
            optionIds: these.filter((item) => item.kind === 'option').map((item) => item.id),
            isAvailable,
          },
          now,
          giveUpAt: now + 60 * 60_000,
        });
      }
      await channels.savePublishedAvailability(trx, channel, changed);
    });
  }
}
