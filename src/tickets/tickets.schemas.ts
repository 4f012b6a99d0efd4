import { type Static, Type } from 'typebox';
import type { TicketStatus } from '../core/db/ticket-status';
import { CENTS_KEYWORD, MAX_AMOUNT, PositiveMoney } from '../core/money';
import { Page } from '../core/paging';
import { UnixMsQuery, Uuid } from '../core/schemas';

/** The spec's ticket codes. */
export const TicketStatusSchema = Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)], {
  description: '1 Pending, 2 Paid, 3 Canceled',
});

// Where the payment and refund schemas have always imported it from.
export { PositiveMoney };

export const Discount = Type.Object(
  {
    type: Type.Union([Type.Literal('percent'), Type.Literal('amount')]),
    value: Type.Number({
      minimum: 0.01,
      maximum: MAX_AMOUNT,
      multipleOf: 0.01,
      [CENTS_KEYWORD]: true,
      description: 'A percentage of the subtotal (at most 100) or an amount of money (at most the subtotal)',
    }),
    reason: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  },
  { additionalProperties: false },
);
export type Discount = Static<typeof Discount>;

const MAX_DISHES_PER_BILL = 500;

export const TicketBody = Type.Object(
  {
    order_dish_ids: Type.Optional(
      Type.Array(Uuid({ description: 'An order-dish id of this order' }), {
        minItems: 1,
        maxItems: MAX_DISHES_PER_BILL,
        uniqueItems: true,
        description: 'Split by items: exactly these dishes of the order',
      }),
    ),
    amount: Type.Optional(
      PositiveMoney({ description: 'Split by amount: this share of the unbilled balance' }),
    ),
    by_seat: Type.Optional(
      Type.Boolean({
        description:
          'Split by seat: one bill per seat with unbilled plates, and one more for plates without a seat',
      }),
    ),
    discount: Type.Optional(Discount),
  },
  { additionalProperties: false },
);
export type TicketBody = Static<typeof TicketBody>;

export const CreatedTicketsReply = Type.Object({
  id: Uuid({ description: 'The (first) bill made' }),
  ids: Type.Optional(
    Type.Array(Uuid(), { description: 'By seat: every bill made, by seat, the one without a seat last' }),
  ),
  message: Type.String(),
});

export const TicketView = Type.Object({
  id: Uuid(),
  order_id: Uuid(),
  status: TicketStatusSchema,
  subtotal: Type.Number(),
  discount: Type.Number(),
  total: Type.Number({ description: 'subtotal − discount' }),
  paid: Type.Number({ description: 'Settled payments minus refunds, tips excluded' }),
  tips: Type.Number(),
  balance: Type.Number({ description: 'total − paid; negative means overpaid' }),
  order_dish_ids: Type.Array(Uuid()),
  created_at: Type.String({ format: 'date-time' }),
  paid_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type TicketView = Static<typeof TicketView>;

export const TicketPageReply = Type.Array(TicketView, {
  headers: { 'X-Total-Count': { type: 'integer', description: 'How many bills match, across all pages' } },
});

export const TicketsQuery = Type.Object(
  {
    ...Page.properties,
    status: Type.Optional(TicketStatusSchema),
    order_id: Type.Optional(Uuid()),
    from: Type.Optional(UnixMsQuery('Created at or after (Unix ms)')),
    to: Type.Optional(UnixMsQuery('Created at or before (Unix ms)')),
  },
  { additionalProperties: false },
);
export type TicketsQuery = Static<typeof TicketsQuery>;

export type TicketFilter = {
  status?: TicketStatus | undefined;
  orderId?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
};
