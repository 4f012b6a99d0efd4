import type { Db } from '../core/db/database';
import type { DeliveryChannel } from '../core/delivery-platform';

export type ChannelPriceRow = { dish_id: string; channel: string; price_cents: number };

/** The delivery apps' own prices of these dishes (or of every dish). */
export function findChannelPrices(db: Db, dishIds: string[] | 'all'): Promise<ChannelPriceRow[]> {
  if (dishIds !== 'all' && dishIds.length === 0) return Promise.resolve([]);
  let query = db.selectFrom('dish_channel_prices').selectAll();
  if (dishIds !== 'all') query = query.where('dish_id', 'in', dishIds);
  return query.orderBy('dish_id').orderBy('channel').execute();
}

/** One delivery app's prices by dish id: what its published menu charges instead of the dish's price. */
export async function findPricesOnChannel(db: Db, channel: DeliveryChannel): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('dish_channel_prices')
    .select(['dish_id', 'price_cents'])
    .where('channel', '=', channel)
    .execute();
  return new Map(rows.map((row) => [row.dish_id, Number(row.price_cents)]));
}

/** Sets (cents) or removes (null) a dish's price on each channel named; the others keep theirs. */
export async function writeChannelPrices(
  db: Db,
  dishId: string,
  prices: Partial<Record<DeliveryChannel, number | null>>,
): Promise<void> {
  for (const [channel, priceCents] of Object.entries(prices)) {
    if (priceCents === undefined) continue;
    if (priceCents === null) {
      await db
        .deleteFrom('dish_channel_prices')
        .where('dish_id', '=', dishId)
        .where('channel', '=', channel)
        .execute();
      continue;
    }
    await db
      .insertInto('dish_channel_prices')
      .values({ dish_id: dishId, channel, price_cents: priceCents })
      .onConflict((conflict) =>
        conflict.columns(['dish_id', 'channel']).doUpdateSet({ price_cents: priceCents }),
      )
      .execute();
  }
}
