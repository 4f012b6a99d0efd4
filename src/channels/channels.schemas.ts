import { type Static, Type } from 'typebox';
import { CENTS_KEYWORD } from '../core/money';
import { Uuid } from '../core/schemas';

export const ChannelParams = Type.Object({
  channel: Type.String({ maxLength: 40, description: '`ubereats` or `rappi`', example: 'ubereats' }),
});

export const ChannelView = Type.Object({
  channel: Type.Union([Type.Literal('ubereats'), Type.Literal('rappi')]),
  store_id: Type.String({ description: "The restaurant's store at the platform" }),
  status: Type.Union(
    [Type.Literal('online'), Type.Literal('paused'), Type.Literal('offline'), Type.Literal('error')],
    { description: '`error`: the platform refused or did not answer our last call (`last_error`)' },
  ),
  paused_until: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  last_order_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  last_error: Type.Union([Type.String(), Type.Null()]),
  auto_accept: Type.Boolean({
    description: 'Orders are accepted as they arrive (default); off: a person accepts',
  }),
  commission_percent: Type.Number({
    minimum: 0,
    maximum: 100,
    description: "The platform's commission on sales",
  }),
});
export type ChannelView = Static<typeof ChannelView>;

export const PauseBody = Type.Object(
  { minutes: Type.Integer({ minimum: 1, maximum: 720, example: 20 }) },
  { additionalProperties: false },
);

export const ChannelSettingsBody = Type.Object(
  {
    auto_accept: Type.Optional(Type.Boolean()),
    commission_percent: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 100,
        multipleOf: 0.01,
        [CENTS_KEYWORD]: true,
        example: 25,
        description: 'Percent of the sales, to two decimals',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type ChannelSettingsBody = Static<typeof ChannelSettingsBody>;

export const DenyBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', example: 'Se acabó el pastor' }) },
  { additionalProperties: false },
);

export const MapBody = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          index: Type.Integer({ minimum: 0, maximum: 199, description: 'The line of `unmapped_items`' }),
          dish_id: Uuid(),
          option_ids: Type.Optional(Type.Array(Uuid(), { maxItems: 30 })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 200 },
    ),
  },
  { additionalProperties: false },
);
