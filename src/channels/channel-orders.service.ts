import { recordAudit } from '../audit/audit.api';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { isUniqueViolation } from '../core/db/locks';
import { DELIVERY_CHANNELS, type DeliveryChannel, type PlatformOrder } from '../core/delivery-platform';
import { BadRequestError, ConflictError, NotFoundError } from '../core/errors';
import { fromCents } from '../core/money';
import { sendOrderIn, voidOrderPlatesIn } from '../kitchen/kitchen.api';
import {
  type ChannelLine,
  completeOrder,
  findChannelOrder,
  findLiveTicketsOfOrder,
  heldCartOf,
  insertChannelOrder,
  isActive,
  lockLiveOrder,
  type OrderRow,
  remapHeldOrder,
  setChannelState,
} from '../orders/orders.api';
import { findPaymentsOfTicket, recordPaymentIn, refundWholeIn } from '../payments/payments.api';
import { authorize } from '../permissions/permissions.api';
import { enqueuePackingSlip } from '../printing/printing.api';
import { cancelLockedTicket, createTicketIn, findTicket } from '../tickets/tickets.api';
import { ensureSystemUser } from '../users/users.api';
import { channelName, channelPrincipal, channelUser } from './channel-users';
import * as channels from './channels.repo';

/** When the platform names no pickup time: what a kitchen usually needs for a delivery order. */
const DEFAULT_PREP_MS = 15 * 60_000;
/** Each platform's time to accept or deny when its order does not say (Uber: 11.5 min; Rappi: 4). */
const ANSWER_WINDOW_MS: Readonly<Record<DeliveryChannel, number>> = {
  ubereats: 11.5 * 60_000,
  rappi: 4 * 60_000,
};
/** How long "ready" and a denial are retried: after that the courier is at the counter anyway. */
const LATE_CALL_WINDOW_MS = 30 * 60_000;
/** A ready order's platform is asked whether it was picked up this often, for this long after ready. */
export const PICKUP_CHECK_INTERVAL_MS = 30_000;
export const PICKUP_FOLLOW_MS = 3 * 60 * 60_000;

export function isDeliveryChannel(value: string): value is DeliveryChannel {
  return (DELIVERY_CHANNELS as readonly string[]).includes(value);
}

function linesOf(order: PlatformOrder): ChannelLine[] {
  return order.items.map((item) => ({
    dishId: item.externalId,
    optionIds: item.options.map((option) => option.externalId),
    name: item.name,
    quantity: item.quantity,
    unitPriceCents: item.unitPriceCents,
    notes: item.notes,
  }));
}

/**
 * Takes one platform order in, in one transaction with the inbox row that brought it: the order is
 * stored exactly once (a second arrival finds it), and with `auto_accept` on it is accepted at once.
 * An order the platform already cancelled or denied is not taken in.
 */
export async function takeInOrder(
  ctx: AppContext,
  channel: DeliveryChannel,
  order: PlatformOrder,
  inboxId: string,
): Promise<void> {
  const now = ctx.clock.now();
  const store = await channels.ensureStore(ctx.db, channel, now);
  await ensureSystemUser(ctx.db, channelUser(channel), now);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      if (order.state !== 'cancelled' && order.state !== 'denied') {
        const row = await insertChannelOrder(
          trx,
          {
            channel,
            channelOrderId: order.id,
            code: order.code,
            customerFirstName: order.customerFirstName,
            pickupAt: order.pickupAt,
            acceptBy: order.placedAt + ANSWER_WINDOW_MS[channel],
            commissionCents: order.commissionCents,
            user: channelUser(channel),
            lines: linesOf(order),
            notes: order.notes,
          },
          now,
        );
        if (row) {
          await channels.updateStore(trx, channel, { last_order_at: now, updated_at: now });
          if (row.channel_state === 'awaiting' && Number(store.auto_accept) === 1)
            await acceptIn(trx, channel, row, now);
        }
      }
      await channels.finishInbox(trx, inboxId, { state: 'done', done_at: now, last_error: null });
    });
  } catch (error) {
    // Two instances took the same order in from two inbox rows: the other one's commit stands.
    if (!isUniqueViolation(error)) throw error;
    await channels.finishInbox(ctx.db, inboxId, { state: 'done', done_at: now, last_error: null });
  }
}

/**
 * Accepting, as one step: the plates go to the kitchen (chits, stock), the order gets one bill paid in
 * full by the platform's method (the platform charged the customer), and the platform is told. The
 * order stays open while it cooks; "ready" closes it. The caller holds the order's lock.
 */
async function acceptIn(trx: Db, channel: DeliveryChannel, order: OrderRow, now: number): Promise<void> {
  const principal = channelPrincipal(channel);
  await sendOrderIn(trx, principal, order.id, undefined, now);
  await enqueuePackingSlip(trx, order.id, now);
  const totalCents = Number(order.total_cents);
  if (totalCents > 0) {
    const bill = await createTicketIn(trx, principal, order.id, {}, now);
    await recordPaymentIn(trx, principal, bill.id, { method: channel, amount: fromCents(totalCents) }, now, {
      closePaidOrders: false,
    });
  }
  await setChannelState(trx, order.id, { channel_state: 'accepted' }, now);
  const pickupAt = order.pickup_at === null ? now + DEFAULT_PREP_MS : Number(order.pickup_at);
  await channels.enqueueCall(trx, {
    channel,
    action: 'accept',
    orderId: order.id,
    payload: {
      orderId: order.channel_order_id,
      pickupAt,
      cookingMinutes: Math.max(1, Math.round((pickupAt - now) / 60_000)),
    },
    now,
    giveUpAt: answerDeadline(channel, order, now),
  });
}

function answerDeadline(channel: DeliveryChannel, order: OrderRow, now: number): number {
  return order.accept_by === null ? now + ANSWER_WINDOW_MS[channel] : Number(order.accept_by);
}

/** Locks a live delivery order, or answers 404 (no such order) or 400 (an order of the dining room). */
async function lockChannelOrder(trx: Db, orderId: string): Promise<OrderRow & { channel: DeliveryChannel }> {
  const order = await lockLiveOrder(trx, orderId);
  if (!order) throw new NotFoundError();
  const { channel } = order;
  if (!isDeliveryChannel(channel)) throw new BadRequestError('Only a delivery order is accepted or denied');
  return { ...order, channel };
}

const WRONG_STATE = (order: OrderRow) =>
  new ConflictError(`The order is ${order.channel_state ?? 'not waiting'}`);

/** POST /orders/{id}/accept: a person accepts what `auto_accept` off left waiting. */
export async function acceptOrder(ctx: AppContext, principal: Principal, orderId: string): Promise<void> {
  authorize(principal, 'orders.write');
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const order = await lockChannelOrder(trx, orderId);
    if (order.channel_state === 'held') throw new ConflictError('Map or deny the items the menu lacks first');
    if (order.channel_state !== 'awaiting') throw WRONG_STATE(order);
    if (now > answerDeadline(order.channel, order, now))
      throw new ConflictError('Too late: the platform has cancelled it');
    await acceptIn(trx, order.channel, order, now);
  });
}

/** POST /orders/{id}/deny: the order is cancelled here (nothing was cooked or charged) and at the platform. */
export async function denyOrder(
  ctx: AppContext,
  principal: Principal,
  orderId: string,
  reason: string,
): Promise<void> {
  authorize(principal, 'orders.write');
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const order = await lockChannelOrder(trx, orderId);
    if (order.channel_state !== 'awaiting' && order.channel_state !== 'held') throw WRONG_STATE(order);
    const unknownItems = heldCartOf(order)?.unmapped.map((line) => line.name) ?? [];
    await setChannelState(trx, order.id, { status: 'cancelled', channel_state: 'denied' }, now);
    await channels.enqueueCall(trx, {
      channel: order.channel,
      action: 'deny',
      orderId: order.id,
      payload: { orderId: order.channel_order_id, explanation: reason, unknownItems },
      now,
      giveUpAt: Math.max(answerDeadline(order.channel, order, now), now + LATE_CALL_WINDOW_MS),
    });
    await recordAudit(trx, {
      at: now,
      actor: principal,
      action: 'order.denied',
      target: { type: 'order', id: order.id },
      after: { channel: order.channel, channel_order_id: order.channel_order_id, reason },
    });
  });
}

/** POST /orders/{id}/map: a person names the dishes of a held order's unknown lines. */
export async function mapOrderItems(
  ctx: AppContext,
  principal: Principal,
  orderId: string,
  items: { index: number; dish_id: string; option_ids?: string[] | undefined }[],
): Promise<void> {
  authorize(principal, 'orders.write');
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const order = await lockChannelOrder(trx, orderId);
    const store = await channels.ensureStore(trx, order.channel, now);
    const mapped = await remapHeldOrder(
      trx,
      order,
      items.map((item) => ({ index: item.index, dishId: item.dish_id, optionIds: item.option_ids ?? [] })),
      now,
    );
    if (mapped.channel_state === 'awaiting' && Number(store.auto_accept) === 1)
      await acceptIn(trx, order.channel, mapped, now);
  });
}

/**
 * The kitchen is done (every plate ready), or a person says so by hand: the platform is told the food
 * is ready for the courier, and the order, paid since it was accepted, closes.
 */
export async function markReady(ctx: AppContext, orderId: string): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const order = await lockChannelOrder(trx, orderId);
    if (order.channel_state !== 'accepted') throw WRONG_STATE(order);
    const ready = await setChannelState(
      trx,
      order.id,
      { channel_state: 'ready', channel_ready_at: now, channel_check_at: now + PICKUP_CHECK_INTERVAL_MS },
      now,
    );
    if (isActive(ready.status)) await completeOrder(trx, ready, now);
    await channels.enqueueCall(trx, {
      channel: order.channel,
      action: 'ready',
      orderId: order.id,
      payload: { orderId: order.channel_order_id },
      now,
      giveUpAt: now + LATE_CALL_WINDOW_MS,
    });
  });
}

/**
 * The platform says the courier took a ready order (or delivered it): shown on the order, with the
 * event every screen follows, and the platform is asked no more. An order that moved on meanwhile (the
 * platform cancelled it) keeps its state.
 */
export async function recordPlatformProgress(
  ctx: AppContext,
  orderId: string,
  state: 'picked_up' | 'delivered',
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const order = await lockLiveOrder(trx, orderId);
    if (order?.channel_state !== 'ready') return;
    await setChannelState(trx, order.id, { channel_state: state, channel_check_at: null }, now);
  });
}

export async function markReadyByHand(ctx: AppContext, principal: Principal, orderId: string): Promise<void> {
  authorize(principal, 'orders.write');
  await markReady(ctx, orderId);
}

/**
 * The platform cancelled the order, in one transaction with the inbox row that said so. Its payment
 * goes back in our books (a refund by the platform's method, "Cancelado por …"), its bill is cancelled,
 * and its plates are voided: the kitchen sees it struck at once, plates not started give their stock
 * back and the rest is waste. The rule that a paid order cannot be cancelled is the dining room's:
 * here the platform already returned the customer's money.
 */
export async function cancelByPlatform(
  ctx: AppContext,
  channel: DeliveryChannel,
  channelOrderId: string,
  inboxId: string,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const found = await findChannelOrder(trx, channel, channelOrderId);
    const order = found && (await lockLiveOrder(trx, found.id));
    if (order && order.channel_state !== 'cancelled' && order.channel_state !== 'denied') {
      const principal = channelPrincipal(channel);
      const reason = `Cancelado por ${channelName(channel)}`;
      for (const bill of await findLiveTicketsOfOrder(trx, order.id)) {
        for (const payment of await findPaymentsOfTicket(trx, bill.id)) {
          if (payment.status === 'settled' || payment.status === 'partially_refunded')
            await refundWholeIn(trx, principal, payment.id, reason, now);
        }
        const refunded = await findTicket(trx, bill.id);
        if (refunded) await cancelLockedTicket(trx, refunded, now);
      }
      await voidOrderPlatesIn(trx, principal, order.id, reason, now);
      await setChannelState(trx, order.id, { status: 'cancelled', channel_state: 'cancelled' }, now);
      await recordAudit(trx, {
        at: now,
        actor: principal,
        action: 'order.cancelled',
        target: { type: 'order', id: order.id },
        after: { channel, channel_order_id: channelOrderId, reason },
      });
    }
    await channels.finishInbox(trx, inboxId, { state: 'done', done_at: now, last_error: null });
  });
}
