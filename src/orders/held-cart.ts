import type { OrderRow } from './orders.repo';

/** A line of a delivery app's cart, as the channels feature read it (contract-channels.md). */
export type ChannelLine = {
  dishId: string | null;
  optionIds: (string | null)[];
  name: string;
  quantity: number;
  /** What the platform charged for one unit, its options included: the plate's price. */
  unitPriceCents: number;
  notes: string;
};

/** A line that names no dish or option of ours (or one we cannot make): the order is held for a person. */
export type UnmappedLine = { index: number; name: string; quantity: number; reason: string };

/** What a held order keeps until a person maps its lines: the whole cart, and which lines failed. */
export type HeldCart = { lines: ChannelLine[]; notes: string; unmapped: UnmappedLine[] };

export function heldCartOf(row: Pick<OrderRow, 'channel_unmapped'>): HeldCart | null {
  return row.channel_unmapped === null ? null : (JSON.parse(row.channel_unmapped) as HeldCart);
}
