import { type Static, Type } from 'typebox';
import { Money as MoneySchema } from '../core/money';
import { Uuid } from '../core/schemas';
import { GuestInvoiceOffer } from '../fiscal/fiscal.schemas';
import { PositiveMoney } from '../tickets/tickets.schemas';

export const GuestTokenParams = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'The token of a guest link' }),
});

const Money = (description: string) => Type.Number({ description });

export const GuestBillView = Type.Object({
  restaurant: Type.String(),
  table: Type.Union([Type.String(), Type.Null()]),
  waiter_first_name: Type.String({ description: 'As a paper check shows it; no other staff data' }),
  currency: Type.String(),
  timezone: Type.String({
    description: "The restaurant's IANA time zone: dates on the page read as the paper's",
    example: 'America/Mexico_City',
  }),
  plates: Type.Array(
    Type.Object({
      name: Type.String(),
      options: Type.Array(Type.String()),
      seat: Type.Union([Type.Integer(), Type.Null()]),
      price: Money('The plate with its options'),
    }),
  ),
  seats: Type.Array(
    Type.Object({
      seat: Type.Integer(),
      total: Money(
        "The seat's part of the total: its plates' share, discount and tax as the bill's; the seats and the " +
          'plates without a seat add up to the total',
      ),
    }),
    {
      description: 'Each seat with plates, by number: what "pay one seat\'s plates" pays (at most `payable`)',
    },
  ),
  subtotal: Type.Number(),
  discounts: Money("The bill's discount"),
  tax_included: Money('The tax (IVA) within the total'),
  total: Type.Number(),
  paid: Type.Number(),
  balance: Type.Number(),
  payable: Money(
    'The balance less the Lightning invoices of this bill that may still be paid: the most a guest can pay now',
  ),
  status: Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)], {
    description: '1 pending, 2 paid, 3 canceled',
  }),
  tip_suggestions: Type.Array(Type.Integer()),
  max_tip_percent: Type.Integer(),
  lightning: Type.Boolean({
    description:
      'Whether a Lightning node is configured: without one POST /guest/{token}/lightning answers 503, so a ' +
      'page does not offer it',
  }),
  invoice: GuestInvoiceOffer,
});
export type GuestBillView = Static<typeof GuestBillView>;

export const GuestTaxInvoiceView = Type.Object({
  uuid: Type.String({ description: "The SAT's folio fiscal" }),
  total: Type.Number(),
  download_key: Type.String({
    description:
      'Opens /guest/{token}/invoice.pdf and .xml (`?key=`); given only in this answer, so the link alone ' +
      "never shows the customer's invoice",
  }),
});
export type GuestTaxInvoiceView = Static<typeof GuestTaxInvoiceView>;

export const GuestInvoiceFileQuery = Type.Object(
  { key: Type.Optional(Type.String({ maxLength: 100 })) },
  { additionalProperties: false },
);

export const GuestLightningBody = Type.Object(
  {
    amount: Type.Optional(PositiveMoney({ description: 'Default: all that is payable now' })),
    tip: Type.Optional(MoneySchema({ description: 'On top of the amount; at most max_tip_percent of it' })),
  },
  { additionalProperties: false },
);
export type GuestLightningBody = Static<typeof GuestLightningBody>;

export const GuestInvoiceView = Type.Object({
  payment_id: Type.String(),
  bolt11: Type.String(),
  amount_sat: Type.Integer(),
  amount: Type.Number(),
  tip: Type.Number(),
  expires_at: Type.String({ format: 'date-time' }),
});
export type GuestInvoiceView = Static<typeof GuestInvoiceView>;

export const GuestPaymentParams = Type.Object({
  token: GuestTokenParams.properties.token,
  id: Uuid({ description: 'The payment_id of a guest invoice' }),
});

export const GuestPaymentView = Type.Object({
  status: Type.Union([Type.Literal('pending'), Type.Literal('settled'), Type.Literal('expired')], {
    description:
      '`settled` once the money arrived (also after a refund), `expired` when the invoice can no longer be paid',
  }),
});
export type GuestPaymentView = Static<typeof GuestPaymentView>;

export const GuestLinkView = Type.Object({
  token: Type.String(),
  url: Type.String({ example: 'https://mesa.laesquina.mx/g/3q2-7w' }),
  expires_at: Type.String({ format: 'date-time' }),
});
