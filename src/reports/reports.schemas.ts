import { type Static, Type } from 'typebox';
import { Uuid } from '../core/schemas';
import { FiscalReportRow } from '../fiscal/fiscal.schemas';

export const SALES_GROUPINGS = ['day', 'hour', 'payment_method', 'dish', 'category', 'waiter'] as const;

/** The period of a report: local days, both included (the range every report takes). */
const FirstDay = Type.String({
  format: 'date',
  description: 'First local day (zone of GET /settings)',
  example: '2026-11-01',
});
const LastDay = Type.String({
  format: 'date',
  description: 'Last local day, inclusive; at most 366 days after from',
  example: '2026-11-30',
});

export const SalesQuery = Type.Object(
  {
    from: FirstDay,
    to: LastDay,
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
      balance: Type.Number({ description: "what the order still owes (the order view's balance), above 0" }),
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

const AdjustmentSection = (what: string) =>
  Type.Object(
    {
      count: Type.Integer(),
      amount: Type.Number({ description: 'The money they took off' }),
      by_reason: Type.Array(
        Type.Object({
          reason: Type.Union([Type.String(), Type.Null()]),
          count: Type.Integer(),
          amount: Type.Number(),
        }),
        { description: 'Largest amount first' },
      ),
      by_person: Type.Array(
        Type.Object({
          user_id: Type.Union([Uuid(), Type.Null()], { description: 'Who did it; null where not kept' }),
          user_name: Type.Union([Type.String(), Type.Null()]),
          approved_by_id: Type.Union([Uuid(), Type.Null()], {
            description:
              "The manager whose approval let them (POST /auth/approvals); null: their own role's right",
          }),
          approved_by_name: Type.Union([Type.String(), Type.Null()]),
          count: Type.Integer(),
          amount: Type.Number(),
        }),
        { description: 'Per person and approver, largest amount first' },
      ),
    },
    { description: what },
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
  covers: Type.Integer({
    description:
      'Guests of the orders whose last bill was paid that day (each order once, as GET /reports/dashboard counts them)',
  }),
  average_bill: Type.Union([Type.Number(), Type.Null()], {
    description: 'net_sales / bills, to the cent; null with no bill',
  }),
  average_per_cover: Type.Union([Type.Number(), Type.Null()], {
    description: 'net_sales / covers, to the cent; null with no covers',
  }),
  payments_by_method: Type.Array(DayMethodTotal, {
    description: 'Counted payments settled that day, whatever shift took them (or none)',
  }),
  payments_total: Type.Number(),
  refunds_recorded: Type.Number({ description: 'Refunds recorded that day, whatever bill, whatever shift' }),
  lightning_sats: Type.Integer({
    description:
      'Sats the node counted as received for the Lightning payments settled that day, net of its ' +
      'liquidity fees (a payment that paid for more liquidity than it brought counts negative)',
  }),
  lightning_fees_msat: Type.Integer({
    description: 'Liquidity fees the node took from those payments, in millisatoshis',
  }),
  lightning_fees: Type.Number({
    description:
      'The same fees in the base currency, each at its payment’s rate: the cost of taking Lightning. ' +
      'The bills count each paid invoice in full; the wallet holds lightning_sats',
  }),
  shifts: Type.Array(DayShiftLine, {
    description:
      'Per shift, oldest first, then the line outside any shift (shift_id null) when money moved outside ' +
      'one: the lines add up to payments_total and refunds_recorded',
  }),
  by_channel: Type.Array(
    Type.Object({
      channel: Type.String({ description: '`dine_in`, `ubereats` or `rappi`', example: 'ubereats' }),
      orders: Type.Integer({ description: 'Orders of the bills paid that day' }),
      sales: Type.Number({ description: 'Net sales (gross − discounts − refunds) of those bills' }),
      commission: Type.Number({
        description:
          "What the platform keeps: its own figure per order where its API gives one, else the channel's " +
          '`commission_percent` of the sales; 0 for dine in',
      }),
      net: Type.Number({ description: 'sales − commission' }),
    }),
    {
      description:
        'The sales split by where the orders came from, dine in first: the lines add up to net_sales. ' +
        "A delivery app's money never enters a drawer, so the shifts' Z reports do not show it",
    },
  ),
  voids: AdjustmentSection('Plates voided that day, at their price'),
  comps: AdjustmentSection(
    'Bills made that day and discounted 100 % (not cancelled), at the amount given away',
  ),
  other_discounts: AdjustmentSection(
    'Bills made that day with a discount of less than 100 % (not cancelled), at the amount discounted',
  ),
  fiscal: Type.Union([FiscalReportRow, Type.Null()], {
    description: "The day's row of GET /reports/fiscal: null while e-invoicing has never been on",
  }),
});
export type DayReport = Static<typeof DayReport>;

export const InventoryQuery = Type.Object({ from: FirstDay, to: LastDay }, { additionalProperties: false });
export type InventoryQuery = Static<typeof InventoryQuery>;

export const InventoryRow = Type.Object({
  item_type: Type.Union([Type.Literal('ingredient'), Type.Literal('product')]),
  item_id: Uuid(),
  name: Type.String(),
  unit: Type.String({ description: "The ingredient's unit; empty for a product (whole units)" }),
  opening: Type.Number({ description: 'Stock at the start of the first day' }),
  sales: Type.Number({ description: 'Taken by plates sent to the kitchen (0 or less)' }),
  void_returns: Type.Number({
    description: 'Put back by plates voided before the kitchen started (0 or more)',
  }),
  waste: Type.Number({ description: 'Recorded as waste (0 or less)' }),
  receiving: Type.Number({ description: 'Deliveries received (0 or more)' }),
  adjustments: Type.Number({ description: 'Adjustments, either way' }),
  counts: Type.Number({ description: 'What counts found more (or less) than the books said' }),
  closing: Type.Number({
    description: 'Stock at the end of the last day: opening plus every column between, exactly',
  }),
});
export type InventoryRow = Static<typeof InventoryRow>;

export const InventoryReport = Type.Object({
  from: Type.String({ format: 'date' }),
  to: Type.String({ format: 'date' }),
  items: Type.Array(InventoryRow, {
    description:
      'Every live item and every deleted one that moved in the period: ingredients, then products, by name',
  }),
});
export type InventoryReport = Static<typeof InventoryReport>;
