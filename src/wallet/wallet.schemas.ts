import { type Static, Type } from 'typebox';
import { MAX_UNIX_MS } from '../core/schemas';

/** Satoshi amounts: positive integers, capped at the 21 million bitcoin that can ever exist. */
const Sat = (options: { description?: string; example?: number } = {}) =>
  Type.Integer({ minimum: 1, maximum: 2_100_000_000_000_000, ...options });
const SatOrZero = (description?: string) => Type.Integer({ minimum: 0, ...(description && { description }) });
const UnixMs = (description: string) =>
  Type.Integer({ minimum: 0, maximum: MAX_UNIX_MS, description, example: 1795000000000 });
/**
 * An instant in an answer: whatever was stored is shown, since a bound here would turn one bad row
 * (written before the webhook checked its values) into a failure of every page that holds it.
 */
const AnsweredUnixMs = (description: string) => Type.Integer({ description });
const Nullable = <T extends ReturnType<typeof Type.String | typeof Type.Integer>>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const Hex64 = (description: string) =>
  Type.String({
    pattern: '^[0-9a-fA-F]{64}$',
    description,
    example: '5ecf7213d2f5441acf00fd1456385e0b29f68ce9b9d12292ef04d21c456d9edf',
  });

export const PaymentHashParams = Type.Object({ paymentHash: Hex64('Payment hash, 64 hex characters') });
export const PaymentIdParams = Type.Object({
  paymentId: Type.String({ format: 'uuid', description: "phoenixd's payment id (a UUID)" }),
});

export const NodeInfoReply = Type.Object({
  nodeId: Type.String(),
  channels: Type.Array(
    Type.Object({
      state: Type.String({ example: 'NORMAL' }),
      channelId: Nullable(Type.String()),
      balanceSat: Nullable(Type.Integer()),
      inboundLiquiditySat: Nullable(Type.Integer()),
      capacitySat: Nullable(Type.Integer()),
      fundingTxId: Nullable(Type.String()),
    }),
  ),
  chain: Type.String({ example: 'mainnet' }),
  blockHeight: Nullable(Type.Integer()),
  version: Type.String(),
});

export const BalanceReply = Type.Object({ balanceSat: SatOrZero(), feeCreditSat: SatOrZero() });

export const CreateInvoiceBody = Type.Object(
  {
    description: Type.String({ minLength: 1, maxLength: 128, example: 'Table 4, order 1187' }),
    amountSat: Type.Optional(Sat({ description: 'Omit for an invoice of any amount', example: 12500 })),
    externalId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 256, description: 'Your reference, e.g. the order id' }),
    ),
    expirySeconds: Type.Optional(
      Type.Integer({ minimum: 60, maximum: 604800, description: 'Default: the node’s (one hour)' }),
    ),
  },
  { additionalProperties: false },
);
export type CreateInvoiceBody = Static<typeof CreateInvoiceBody>;

export const InvoiceReply = Type.Object({
  amountSat: Nullable(Type.Integer({ description: 'null for an invoice of any amount' })),
  paymentHash: Type.String(),
  serialized: Type.String({ description: 'The BOLT11 invoice' }),
});

/** `Idempotency-Key` on the paying routes; see runPaymentOnce for what each outcome does to the key. */
export const PaymentIdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description:
        'Optional; send one so a retry never pays twice. Sent payment: a retry with the same key and body ' +
        'gets the same answer. Failed payment (400) or unreachable node (503): the key is free again. ' +
        'Outcome unknown (504): every retry answers 504 without calling the node; check the outgoing ' +
        'payments. The same key with another body: 400. Keys are scoped per user and route and remembered ' +
        'for 24 hours.',
    }),
  ),
});

export const PayInvoiceBody = Type.Object(
  {
    invoice: Type.String({ minLength: 1, maxLength: 4096, description: 'A BOLT11 invoice' }),
    amountSat: Type.Optional(Sat({ description: 'Required only when the invoice has no amount' })),
  },
  { additionalProperties: false },
);

export const PayOfferBody = Type.Object(
  {
    offer: Type.String({ minLength: 1, maxLength: 4096, description: 'A BOLT12 offer (lno1…)' }),
    amountSat: Type.Optional(Sat({ description: 'Required only when the offer has no amount' })),
    message: Type.Optional(Type.String({ maxLength: 64, description: 'A note for the recipient' })),
  },
  { additionalProperties: false },
);

export const PaymentSentReply = Type.Object({
  recipientAmountSat: SatOrZero(),
  routingFeeSat: SatOrZero(),
  paymentId: Type.String(),
  paymentHash: Type.String(),
  paymentPreimage: Type.String(),
});

export const PayOnChainBody = Type.Object(
  {
    amountSat: Sat({ example: 50000 }),
    address: Type.String({ minLength: 14, maxLength: 100, description: 'A Bitcoin address' }),
    feerateSatByte: Type.Integer({ minimum: 1, maximum: 10000, example: 5 }),
  },
  { additionalProperties: false },
);

export const OnChainReply = Type.Object({
  txId: Type.String(),
  amountSat: SatOrZero(),
  feesSat: SatOrZero('Mining fees, from the node’s record of the transaction'),
});

export const BumpFeeBody = Type.Integer({
  minimum: 1,
  maximum: 10000,
  description: 'The new fee rate in sat/byte, as a bare JSON number',
  example: 12,
});

export const BumpFeeReply = Type.Object({
  txId: Type.String({ description: 'The child transaction that pays for the pending one' }),
  newFeerateSatByte: Type.Integer(),
  additionalFeesSat: SatOrZero(),
});

const listQuery = {
  from: Type.Optional(UnixMs('Earliest creation instant, Unix ms')),
  to: Type.Optional(UnixMs('Latest creation instant, Unix ms')),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 20 }),
  // Capped because a page is cut from the newest `offset + limit` payments of each source.
  offset: Type.Integer({ minimum: 0, maximum: 100_000, default: 0 }),
  all: Type.Boolean({
    default: false,
    description:
      'true: every payment in the range, unpaid or failed ones included, without pagination. ' +
      'false: only completed (and, outgoing, pending) payments, one page.',
  }),
};
export const OutgoingListQuery = Type.Object(listQuery, { additionalProperties: false });
export type OutgoingListQuery = Static<typeof OutgoingListQuery>;
export const IncomingListQuery = Type.Object(
  { ...listQuery, externalId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })) },
  { additionalProperties: false },
);
export type IncomingListQuery = Static<typeof IncomingListQuery>;

export const IncomingPaymentView = Type.Object({
  paymentHash: Type.String(),
  amountSat: SatOrZero('The amount asked for (the amount received for an invoice of any amount)'),
  receivedSat: SatOrZero(),
  description: Type.String(),
  externalId: Nullable(Type.String()),
  createdAt: AnsweredUnixMs('Invoice creation, Unix ms'),
  completedAt: Nullable(AnsweredUnixMs('Payment received, Unix ms; null while unpaid')),
  status: Type.Union([Type.Literal('RECEIVED'), Type.Literal('PENDING'), Type.Literal('EXPIRED')]),
});
export type IncomingPaymentView = Static<typeof IncomingPaymentView>;

export const OutgoingPaymentView = Type.Object({
  paymentId: Type.String(),
  kind: Type.String({
    description: 'lightning, splice_out (on-chain payment), splice_cpfp (fee bump), channel_close, …',
    example: 'lightning',
  }),
  paymentHash: Nullable(Type.String()),
  preimage: Nullable(Type.String()),
  txId: Nullable(Type.String()),
  invoice: Nullable(Type.String()),
  sentSat: SatOrZero('Amount sent, fees included'),
  feesSat: SatOrZero('Fees, rounded down to whole sat'),
  feesMsat: SatOrZero('Fees in millisatoshi'),
  status: Type.Union([Type.Literal('SENT'), Type.Literal('PENDING'), Type.Literal('FAILED')]),
  createdAt: AnsweredUnixMs('Unix ms'),
  completedAt: Nullable(AnsweredUnixMs('Unix ms; null while pending')),
});
export type OutgoingPaymentView = Static<typeof OutgoingPaymentView>;
