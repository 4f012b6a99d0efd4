import { type Static, Type } from 'typebox';
import { CENTS_KEYWORD, MAX_AMOUNT, Money } from '../core/money';
import { Page } from '../core/paging';
import { OptionalText, UnixMsQuery, Uuid } from '../core/schemas';

const Instant = Type.String({ format: 'date-time', example: '2026-11-22T18:00:00.000Z' });

export const OpenShiftBody = Type.Object(
  { opening_cash: Money({ description: 'Cash in the drawer when the shift starts' }) },
  { additionalProperties: false },
);
export type OpenShiftBody = Static<typeof OpenShiftBody>;

export const CashMovementBody = Type.Object(
  {
    amount: Type.Number({
      minimum: -MAX_AMOUNT,
      maximum: MAX_AMOUNT,
      multipleOf: 0.01,
      [CENTS_KEYWORD]: true,
      description: 'A pay-in (positive) or a pay-out (negative); never 0',
      example: -20,
    }),
    reason: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '\\S',
      example: 'Ice from the shop next door',
    }),
    force: Type.Optional(
      Type.Boolean({
        description:
          'Record a pay-out larger than the expected cash anyway (needs shifts.manage); it is marked as ' +
          'forced and listed on the Z report. Default false',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CashMovementBody = Static<typeof CashMovementBody>;

export const CloseShiftBody = Type.Object(
  {
    counted_cash: Money({ description: 'The cash counted in the drawer at close' }),
    notes: OptionalText(Type.String({ maxLength: 1000 }), 'null or omitted: none'),
  },
  { additionalProperties: false },
);
export type CloseShiftBody = Static<typeof CloseShiftBody>;

export const ShiftsQuery = Type.Object(
  {
    ...Page.properties,
    user_id: Type.Optional(
      Uuid({ description: 'Only this user’s shifts (others than your own need shifts.manage)' }),
    ),
    from: Type.Optional(UnixMsQuery('Opened at or after (Unix ms)')),
    to: Type.Optional(UnixMsQuery('Opened at or before (Unix ms)')),
    date: Type.Optional(
      Type.String({
        format: 'date',
        description: 'Opened on this local day (zone of GET /settings)',
        example: '2026-11-22',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ShiftsQuery = Static<typeof ShiftsQuery>;

export const CashMovementView = Type.Object({
  id: Uuid(),
  amount: Type.Number({ description: 'Positive: pay-in; negative: pay-out' }),
  reason: Type.String(),
  forced: Type.Boolean({ description: 'A pay-out beyond the expected cash that a manager forced' }),
  created_by: Uuid(),
  created_at: Instant,
});

export const ShiftView = Type.Object({
  id: Uuid(),
  user_id: Uuid(),
  user_name: Type.String(),
  status: Type.Union([Type.Literal('open'), Type.Literal('closed')]),
  opening_cash: Type.Number(),
  opened_at: Instant,
  closed_at: Type.Union([Instant, Type.Null()]),
  closed_by: Type.Union([Uuid(), Type.Null()]),
  cash_movements: Type.Array(CashMovementView),
  expected_cash: Type.Union([Type.Number(), Type.Null()], {
    description:
      'Opening cash + cash payments (amount + tip) − cash refunds + pay-ins − pay-outs; for an open shift, so ' +
      'far. Null while the shift is open and the blind count is on (setting blind_shift_close) for a user ' +
      'without shifts.manage',
  }),
  counted_cash: Type.Union([Type.Number(), Type.Null()]),
  difference: Type.Union([Type.Number({ description: 'counted − expected' }), Type.Null()]),
  notes: Type.Union([Type.String(), Type.Null()]),
});
export type ShiftView = Static<typeof ShiftView>;

const MethodTotal = Type.Object({
  method: Type.String(),
  payments: Type.Integer(),
  amount: Type.Number(),
  tips: Type.Number(),
});

export const ShiftReport = Type.Object({
  shift: ShiftView,
  orders: Type.Integer({ description: 'Orders of the bills this shift closed' }),
  bills: Type.Integer({ description: 'Bills this shift closed: Paid bills whose last payment it took' }),
  gross_sales: Type.Number({ description: 'Subtotal of the bills this shift closed' }),
  discounts: Type.Number({ description: 'Discounts of those bills' }),
  refunds: Type.Number({ description: 'Refunds recorded during the shift, every method' }),
  net_sales: Type.Number({ description: 'gross_sales − discounts − refunds' }),
  tax: Type.Number({ description: 'The tax in net_sales at the tax rate of GET /settings' }),
  covers: Type.Integer({
    description:
      'Guests of the orders whose last bill this shift closed (each order once, as the day report counts them)',
  }),
  average_bill: Type.Union([Type.Number(), Type.Null()], {
    description: 'net_sales / bills, to the cent; null with no bill',
  }),
  average_per_cover: Type.Union([Type.Number(), Type.Null()], {
    description: 'net_sales / covers, to the cent; null with no covers',
  }),
  payments_by_method: Type.Array(MethodTotal, { description: 'Payments the shift took, by method' }),
  payments_total: Type.Number({ description: 'Sum of payments_by_method amounts' }),
  tips_total: Type.Number(),
  tips_by_waiter: Type.Array(Type.Object({ user_id: Uuid(), name: Type.String(), tips: Type.Number() }), {
    description: 'Tips of the shift’s payments, by the waiter of each order',
  }),
  lightning_sats: Type.Integer({
    description: 'Sats received by the shift’s Lightning payments, net of the node’s liquidity fees',
  }),
  lightning_fees_msat: Type.Integer({
    description: 'Liquidity fees the node took from those payments, in millisatoshis',
  }),
  lightning_fees: Type.Number({
    description:
      'The same fees in the base currency, each at its payment’s rate: the cost of taking Lightning',
  }),
  card_terminal_by_brand: Type.Array(
    Type.Object({
      brand: Type.String({
        description: "The card's brand as Mercado Pago names it (`visa`, `master`…); '' unknown",
      }),
      payments: Type.Integer(),
      amount: Type.Number(),
      tips: Type.Number(),
      fees: Type.Number({ description: "Mercado Pago's fees on them, where it reported them" }),
    }),
    { description: "The shift's card-terminal payments by card brand" },
  ),
  card_terminal_fees: Type.Number({ description: "Mercado Pago's fees on the shift's terminal payments" }),
  forced_pay_outs: Type.Array(CashMovementView, {
    description: 'Pay-outs beyond the expected cash that a manager forced, oldest first',
  }),
  expected_cash: Type.Union([Type.Number(), Type.Null()], { description: 'Null when hidden: see ShiftView' }),
  counted_cash: Type.Union([Type.Number(), Type.Null()]),
  difference: Type.Union([Type.Number(), Type.Null()]),
  audit_head: Type.Union(
    [
      Type.Object({ seq: Type.Integer({ minimum: 0 }), hash: Type.String({ pattern: '^[0-9a-f]{64}$' }) }),
      Type.Null(),
    ],
    {
      description:
        'The audit chain’s signed head when the report was made: printed or kept, it anchors the log ' +
        'outside the database. Null when the head is missing or forged (GET /audit/verify says why)',
    },
  ),
});
export type ShiftReport = Static<typeof ShiftReport>;
