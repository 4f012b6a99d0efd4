import { type Static, Type } from 'typebox';
import { Money } from '../core/money';
import { Uuid } from '../core/schemas';
import { PositiveMoney, TicketStatusSchema } from '../tickets/tickets.schemas';

export const MethodCode = Type.String({
  minLength: 1,
  maxLength: 32,
  pattern: '^[a-z][a-z0-9_-]*$',
  description: 'Lower-case letters, digits, `_` and `-`, e.g. `cash`, `transfer`',
});

export const PaymentBody = Type.Object(
  {
    method: MethodCode,
    amount: PositiveMoney({ description: 'Counts against the balance; at most the balance' }),
    tip: Type.Optional(Money({ description: 'On top of the amount; not part of the balance. Default 0' })),
    tendered: Type.Optional(
      Money({ description: 'Cash only: what the customer handed over, at least amount + tip' }),
    ),
  },
  { additionalProperties: false },
);
export type PaymentBody = Static<typeof PaymentBody>;

export const PaymentCreatedReply = Type.Object({
  id: Uuid(),
  message: Type.String(),
  ticket_status: TicketStatusSchema,
  change: Type.Number({ description: 'tendered − amount − tip; 0 when nothing was tendered' }),
});

export const PaymentStatusSchema = Type.Union([
  Type.Literal('pending'),
  Type.Literal('settled'),
  Type.Literal('expired'),
  Type.Literal('refunded'),
  Type.Literal('partially_refunded'),
  Type.Literal('action_required'),
  Type.Literal('failed'),
  Type.Literal('canceled'),
]);

export const TerminalDetails = Type.Object({
  terminal_id: Type.String(),
  state: Type.String({
    description:
      "The provider's order status: `created` (sent), `at_terminal` (the terminal shows it), `action_required` " +
      '(check the terminal), `processed`, `failed`, `canceled`, `expired`',
  }),
  provider_order_id: Type.Union([Type.String(), Type.Null()], {
    description: "Mercado Pago's order; null while the charge is still being sent",
  }),
  expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  cancel_requested: Type.Boolean({ description: 'The till asked to cancel; the terminal confirms it' }),
  failure_reason: Type.Union([Type.String(), Type.Null()], { description: 'In Spanish, for the cashier' }),
  card_brand: Type.Union([Type.String(), Type.Null()], {
    description: '`visa`, `master`, `amex`, `debvisa`…',
  }),
  card_type: Type.Union([Type.Literal('credit'), Type.Literal('debit'), Type.Null()]),
  last_four: Type.Union([Type.String(), Type.Null()]),
  authorization_code: Type.Union([Type.String(), Type.Null()]),
  provider_payment_id: Type.Union([Type.String(), Type.Null()], { description: 'The Payments API id' }),
  fee: Type.Union([Type.Number(), Type.Null()], {
    description: "The provider's fees, where it reports them",
  }),
});

export const LightningDetails = Type.Object({
  amount_sat: Type.Integer(),
  rate: Type.Number({ description: 'The price of 1 BTC in the base currency used for amount_sat' }),
  payment_hash: Type.String(),
  invoice: Type.String(),
  expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  received_sat: Type.Union([Type.Integer(), Type.Null()], {
    description:
      'Once settled: what the node counted as received, net of the liquidity fee it took (less than ' +
      'amount_sat, even negative). The payment counts in full all the same: the node accepts only ' +
      'an invoice paid in full',
  }),
  fees_msat: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Once settled: the liquidity fee the node took from it, in millisatoshis',
  }),
});

export const PaymentView = Type.Object({
  id: Uuid(),
  ticket_id: Uuid(),
  method: Type.String(),
  amount: Type.Number(),
  tip: Type.Number(),
  status: PaymentStatusSchema,
  created_at: Type.String({ format: 'date-time' }),
  settled_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  created_by: Type.Union([Uuid(), Type.Null()], { description: 'null for a payment made by a guest' }),
  source: Type.Union([Type.Literal('staff'), Type.Literal('guest')], {
    description: '`guest`: paid from the guest page of the bill (POST /guest/{token}/lightning)',
  }),
  lightning: Type.Optional(LightningDetails),
  terminal: Type.Optional(TerminalDetails),
});
export type PaymentView = Static<typeof PaymentView>;

export const PaymentMethodView = Type.Object({
  id: Uuid(),
  code: Type.String(),
  name: Type.String(),
  is_active: Type.Boolean(),
});
export type PaymentMethodView = Static<typeof PaymentMethodView>;

const MethodName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });

export const PaymentMethodBody = Type.Object(
  { code: MethodCode, name: MethodName },
  { additionalProperties: false },
);
export type PaymentMethodBody = Static<typeof PaymentMethodBody>;

export const PaymentMethodUpdateBody = Type.Object(
  {
    name: Type.Optional(MethodName),
    is_active: Type.Optional(Type.Boolean({ description: 'false: the method takes no new payments' })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type PaymentMethodUpdateBody = Static<typeof PaymentMethodUpdateBody>;

export const RefundBody = Type.Object(
  {
    amount: Type.Optional(PositiveMoney({ description: "Defaults to what is left of the payment's amount" })),
    reason: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    invoice: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4000,
        pattern: '^\\S+$',
        description:
          "Lightning payments only (and required for them): the customer's BOLT11 invoice, paid through the node",
      }),
    ),
    shift_id: Type.Optional(
      Uuid({
        description:
          "Cash payments only: the open shift whose drawer the cash comes out of, when not the refunder's own " +
          '(another user’s needs `shifts.manage`)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type RefundBody = Static<typeof RefundBody>;

export const RefundCreatedReply = Type.Object({
  id: Uuid(),
  message: Type.String(),
  payment_status: PaymentStatusSchema,
  status: Type.Union([Type.Literal('pending'), Type.Literal('processed'), Type.Literal('failed')], {
    description:
      '`processed` for refunds made at the till; a card-terminal refund is `pending` until Mercado Pago ' +
      "processes it, and only then leaves the bill's paid amount",
  }),
});

export const CardTerminalBody = Type.Object(
  {
    amount: Type.Optional(
      PositiveMoney({
        description:
          'Counts against the balance; default the balance less the charges pending on terminals for this bill',
      }),
    ),
    tip: Type.Optional(
      Money({ description: 'On top of the amount, charged with it; kept apart. Default 0' }),
    ),
    terminal_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: '^[A-Za-z0-9_-]+$',
        description: "The terminal to charge on; default the restaurant's default terminal",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CardTerminalBody = Static<typeof CardTerminalBody>;

export const CardTerminalCharge = Type.Object({
  payment_id: Uuid(),
  status: Type.Literal('pending'),
  terminal_id: Type.String(),
  expires_at: Type.String({ format: 'date-time' }),
});
export type CardTerminalCharge = Static<typeof CardTerminalCharge>;

export const TerminalView = Type.Object({
  id: Type.String({ description: "Mercado Pago's terminal id (`<model>__<serial>`)" }),
  operating_mode: Type.String({ description: '`PDV` (charges from the POS) or `STANDALONE`' }),
  store_id: Type.Union([Type.String(), Type.Null()]),
  pos_id: Type.Union([Type.String(), Type.Null()]),
  is_default: Type.Boolean(),
});
export type TerminalView = Static<typeof TerminalView>;

export const TerminalSettingsBody = Type.Object(
  {
    default_terminal_id: Type.Union([
      Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' }),
      Type.Null(),
    ]),
  },
  { additionalProperties: false },
);
export type TerminalSettingsBody = Static<typeof TerminalSettingsBody>;

export const LightningBillBody = Type.Object(
  {
    amount: Type.Optional(
      PositiveMoney({ description: 'Counts against the balance; default the whole balance' }),
    ),
    tip: Type.Optional(Money({ description: 'On top of the amount; not part of the balance. Default 0' })),
    expiry_seconds: Type.Optional(
      Type.Integer({
        minimum: 60,
        maximum: 86_400,
        description: 'How long the invoice can be paid; default 900',
      }),
    ),
  },
  { additionalProperties: false },
);
export type LightningBillBody = Static<typeof LightningBillBody>;
