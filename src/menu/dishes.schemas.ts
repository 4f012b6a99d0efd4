import { type Static, type TOptional, type TSchema, Type } from 'typebox';
import { DELIVERY_CHANNELS } from '../core/delivery-platform';
import { Money } from '../core/money';
import { Uuid } from '../core/schemas';
import { Recipe } from '../inventory/inventory.api';
import { ItemName } from './menu.schemas';

const MAX_GROUPS_PER_DISH = 20;

export const Description = Type.String({ maxLength: 500, example: 'Pork, pineapple, onion and coriander' });

/** One optional field per delivery app: `{ubereats?, rappi?}`. */
function perChannel<Schema extends TSchema>(schema: Schema) {
  return Object.fromEntries(DELIVERY_CHANNELS.map((channel) => [channel, Type.Optional(schema)])) as Record<
    (typeof DELIVERY_CHANNELS)[number],
    TOptional<Schema>
  >;
}

export const ChannelPricesBody = Type.Object(perChannel(Type.Union([Money(), Type.Null()])), {
  additionalProperties: false,
  description:
    "The dish's price on a delivery app, published in that app's menu (platforms' prices are often " +
    'higher); a channel without one publishes `price`. `null` removes it; a channel left out keeps its ' +
    'price. Default: none',
  example: { ubereats: 99, rappi: null },
});
export type ChannelPricesBody = Static<typeof ChannelPricesBody>;

/** The new fields are optional: a spec-only body `{name, price, category_id}` gets the defaults. */
export const DishBody = Type.Object(
  {
    name: ItemName,
    price: Money({ description: 'Price with at most 2 decimals' }),
    category_id: Uuid({ description: 'A live category of type dish' }),
    description: Type.Optional({ ...Description, description: 'Default ""; a PUT without it keeps it' }),
    available: Type.Optional(
      Type.Boolean({ description: 'Default true; false: sold out ("86"). A PUT without it keeps it' }),
    ),
    modifier_group_ids: Type.Optional(
      Type.Array(Uuid(), {
        uniqueItems: true,
        maxItems: MAX_GROUPS_PER_DISH,
        description:
          'Live modifier groups, in the order a screen asks them; default []. A PUT without it keeps them',
      }),
    ),
    recipe: Type.Optional(
      Recipe(
        'What one plate uses, taken off the stock when it is sent to the kitchen: live ingredients ' +
          '(quantity in their unit, at most 3 decimals) or products (whole units), each once; ' +
          'default []. A PUT without it keeps it',
      ),
    ),
    channel_prices: Type.Optional(ChannelPricesBody),
  },
  {
    additionalProperties: false,
    example: { name: 'Chocolate cake', price: 85.5, category_id: '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e' },
  },
);
export type DishBody = Static<typeof DishBody>;

export const DishView = Type.Object({
  id: Uuid(),
  name: Type.String(),
  price: Type.Number({ example: 85.5 }),
  category_id: Uuid(),
  description: Type.String(),
  available: Type.Boolean(),
  modifier_group_ids: Type.Array(Uuid(), { description: 'Live groups, in order' }),
  recipe: Recipe('What one plate uses'),
  out_of_stock: Type.Boolean({
    description:
      'An item of its recipe is at or below zero: not orderable until stock returns (`available` is what was set by hand)',
  }),
  channel_prices: Type.Object(perChannel(Type.Number({ example: 99 })), {
    description: 'Its price on each delivery app that has one of its own; the others publish `price`',
  }),
});
export type DishView = Static<typeof DishView>;

export const DishAvailabilityBody = Type.Object(
  { available: Type.Boolean({ description: 'false: sold out ("86"); true: back on' }) },
  { additionalProperties: false },
);
export type DishAvailabilityBody = Static<typeof DishAvailabilityBody>;
