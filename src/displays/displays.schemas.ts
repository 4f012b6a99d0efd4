import { type Static, Type } from 'typebox';
import { Uuid } from '../core/schemas';
import { TicketStatusSchema } from '../tickets/tickets.schemas';

const CODE_PATTERN = '^[0-9]{6}$';

export const PairingCodeView = Type.Object({
  code: Type.String({ pattern: CODE_PATTERN, example: '482193' }),
  expires_at: Type.String({ format: 'date-time' }),
});

export const PairBody = Type.Object(
  { code: Type.String({ pattern: CODE_PATTERN, description: 'The code the till shows' }) },
  { additionalProperties: false },
);
export type PairBody = Static<typeof PairBody>;

export const PairedView = Type.Object({
  cashier: Type.String({ description: 'The name of the cashier whose till this display shows' }),
});

export const DisplayCurrentBody = Type.Object(
  {
    ticket_id: Type.Union([Uuid({ description: 'The bill being paid' }), Type.Null()], {
      description: 'null: no bill on the display',
    }),
    payment_id: Type.Optional(
      Type.Union([
        Uuid({
          description:
            'A Lightning payment of that bill, whose QR the display shows, or a card-terminal charge ' +
            '(the display asks the guest to pay on the terminal)',
        }),
        Type.Null(),
      ]),
    ),
  },
  { additionalProperties: false },
);
export type DisplayCurrentBody = Static<typeof DisplayCurrentBody>;

export const DisplayView = Type.Object({
  cashier: Type.Union([Type.String(), Type.Null()], { description: 'null: this display is not paired' }),
  bill: Type.Union([
    Type.Object({
      id: Uuid(),
      status: TicketStatusSchema,
      total: Type.Number(),
      paid: Type.Number(),
      balance: Type.Number(),
    }),
    Type.Null(),
  ]),
  lightning: Type.Union([
    Type.Object({
      payment_id: Uuid(),
      status: Type.String({ description: 'pending, settled, expired…' }),
      amount: Type.Number(),
      tip: Type.Number(),
      amount_sat: Type.Integer(),
      invoice: Type.String({ description: 'The BOLT11 invoice the QR code carries' }),
      expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    }),
    Type.Null(),
  ]),
  terminal: Type.Optional(
    Type.Object(
      {
        payment_id: Uuid(),
        status: Type.String({ description: 'pending, action_required, settled, failed, canceled' }),
        amount: Type.Number(),
        tip: Type.Number(),
        failure_reason: Type.Union([Type.String(), Type.Null()]),
      },
      { description: 'Present while the till shows a card-terminal charge: "Pague en la terminal"' },
    ),
  ),
});
export type DisplayView = Static<typeof DisplayView>;
