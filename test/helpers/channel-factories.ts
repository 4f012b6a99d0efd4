import assert from 'node:assert/strict';
import { channelUser } from '../../src/channels/channel-users';
import type { Db } from '../../src/core/db/database';
import type { DeliveryChannel } from '../../src/core/delivery-platform';
import { type ChannelLine, insertChannelOrder } from '../../src/orders/orders.api';
import { ensureSystemUser } from '../../src/users/users.api';

/**
 * A delivery app's order as the channels feature takes it in (the inbox job's own function, without
 * a configured platform): `awaiting` acceptance, or `held` when a line names no dish of ours
 * (`dishId: null`).
 */
export async function insertDeliveryOrder(
  db: Db,
  now: number,
  order: {
    channel: DeliveryChannel;
    code: string;
    customer: string;
    pickupAt: number | null;
    acceptBy?: number;
    lines: { dishId: string | null; name: string; quantity?: number; priceCents?: number; notes?: string }[];
  },
): Promise<string> {
  const lines: ChannelLine[] = order.lines.map((line) => ({
    dishId: line.dishId,
    optionIds: [],
    name: line.name,
    quantity: line.quantity ?? 1,
    unitPriceCents: line.priceCents ?? 9900,
    notes: line.notes ?? '',
  }));
  await ensureSystemUser(db, channelUser(order.channel), now);
  const row = await db.transaction().execute((trx) =>
    insertChannelOrder(
      trx,
      {
        channel: order.channel,
        channelOrderId: `${order.channel}-${order.code}`,
        code: order.code,
        customerFirstName: order.customer,
        pickupAt: order.pickupAt,
        acceptBy: order.acceptBy ?? now + 11.5 * 60_000,
        commissionCents: null,
        user: channelUser(order.channel),
        lines,
        notes: '',
      },
      now,
    ),
  );
  assert.ok(row, 'the delivery order was taken in');
  return row.id;
}
