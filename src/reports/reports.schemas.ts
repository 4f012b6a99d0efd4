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

export const DayParams = Type.Object(
  {
    date: Type.String({
      format: 'date',
      description: 'A local day (zone of GET /settings)',
      example: '2026-11-22',
    }),
  },
  { additionalProperties: false },
);
export type DayParams = Static<typeof DayParams>;

const DayMethodTotal = Type.Object({
  method: Type.String(),
  payments: Type.Integer(),
  amount: Type.Number(),
  tips: Type.Number(),
});

const DayShiftLine = Type.Object(
  {
    shift_id: Type.Union([Uuid(), Type.Null()], { description: 'Null: the line of money outside any shift' }),
    user_id: Type.Union([Uuid(), Type.Null()]),
    user_name: Type.Union([Type.String(), Type.Null()]),
    status: Type.Union([Type.Literal('open'), Type.Literal('closed'), Type.Null()]),
    payments: Type.Integer({ description: 'Counted payments it took that day' }),
    payments_total: Type.Number(),
    tips: Type.Number(),
    refunds: Type.Number({ description: 'Refunds recorded in it that day' }),
    expected_cash: Type.Union([Type.Number(), Type.Null()], { description: 'At close; null while open' }),
    counted_cash: Type.Union([Type.Number(), Type.Null()]),
    difference: Type.Union([Type.Number(), Type.Null()]),
  },
  { description: 'One shift that took or gave back money that day, or was opened that day' },
);

export const DayReport = Type.Object({
  date: Type.String({ format: 'date' }),
  from: Type.String({ format: 'date-time', description: 'Start of the local day' }),
  to: Type.String({ format: 'date-time', description: 'Start of the next local day' }),
  orders: Type.Integer({ description: 'Orders of the bills paid that day' }),
  bills: Type.Integer({ description: 'Bills paid that day' }),
  items: Type.Integer(),
  gross_sales: Type.Number({ description: 'Subtotal of the bills paid that day' }),
  discounts: Type.Number(),
  refunds: Type.Number({ description: 'Refunds of the bills paid that day, as /reports/sales counts them' }),
  net_sales: Type.Number({
    description: 'gross − discounts − refunds: the net of /reports/sales for the day',
  }),
  tax: Type.Number({ description: 'The tax in net_sales at the tax rate of GET /settings' }),
  tips_total: Type.Number({ description: 'Tips of the bills paid that day' }),
  payments_by_method: Type.Array(DayMethodTotal, {
    description: 'Counted payments settled that day, whatever shift took them (or none)',
  }),
  payments_total: Type.Number(),
  refunds_recorded: Type.Number({ description: 'Refunds recorded that day, whatever bill, whatever shift' }),
  lightning_sats: Type.Integer(),
  shifts: Type.Array(DayShiftLine, {
    description:
      'Per shift, oldest first, then the line outside any shift (shift_id null) when money moved outside ' +
      'one: the lines add up to payments_total and refunds_recorded',
  }),
});
export type DayReport = Static<typeof DayReport>;
