import { type Static, Type } from 'typebox';
import { Uuid } from '../core/schemas';

export const SALES_GROUPINGS = ['day', 'hour', 'payment_method', 'dish', 'category', 'waiter'] as const;

export const SalesQuery = Type.Object(
  {
    from: Type.String({
      format: 'date',
      description: 'First local day (zone of GET /settings)',
      example: '2026-11-01',
    }),
    to: Type.String({
      format: 'date',
      description: 'Last local day, inclusive; at most 366 days after from',
      example: '2026-11-30',
    }),
    group_by: Type.Union(
      SALES_GROUPINGS.map((grouping) => Type.Literal(grouping)),
      {
        default: 'day',
        description: 'Rows per local day, local hour, payment method, dish, category or waiter',
      },
    ),
  },
  { additionalProperties: false },
);
export type SalesQuery = Static<typeof SalesQuery>;

export const SalesRow = Type.Object({
  key: Type.String({
    description:
      '`2026-11-22` (day), `2026-11-22 19:00` (hour), or the method code, dish, category or waiter name',
  }),
  orders: Type.Integer({ description: 'Orders with a bill in this row (an order may be in several rows)' }),
  items: Type.Integer({ description: 'Dishes billed by item; bills split by amount add money but no items' }),
  gross: Type.Number({ description: 'Subtotal of the bills paid in the period' }),
  discounts: Type.Number(),
  refunds: Type.Number({ description: "Refunds on the bills' payments, whenever made" }),
  net: Type.Number({ description: 'gross − discounts − refunds' }),
  tips: Type.Number(),
});
export type SalesRow = Static<typeof SalesRow>;

const Instant = Type.String({ format: 'date-time' });

export const OpenBalances = Type.Object({
  orders: Type.Array(
    Type.Object({
      id: Uuid(),
      status: Type.Union([Type.Literal('completed'), Type.Literal('cancelled')]),
      waiter: Type.String(),
      total: Type.Number(),
      discount: Type.Number({ description: 'Discounts on its live bills' }),
      paid: Type.Number(),
      balance: Type.Number({ description: 'total − discount − paid, above 0' }),
      created_at: Instant,
    }),
    { description: 'Completed or cancelled orders not paid in full, newest first (at most 1000)' },
  ),
  overpaid_bills: Type.Array(
    Type.Object({
      id: Uuid(),
      order_id: Uuid(),
      status: Type.Integer({ description: 'The bill status: 1 Pending, 2 Paid, 3 Canceled' }),
      total: Type.Number(),
      paid: Type.Number(),
      balance: Type.Number({ description: 'total − paid (a cancelled bill owes 0: −paid), below 0' }),
      paid_at: Type.Union([Instant, Type.Null()]),
    }),
    {
      description:
        'Bills that took more than they owe (cancelled bills owe nothing), newest first (at most 1000)',
    },
  ),
});
export type OpenBalances = Static<typeof OpenBalances>;
