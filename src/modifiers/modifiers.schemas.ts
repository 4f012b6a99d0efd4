import { type Static, Type } from 'typebox';
import { CENTS_KEYWORD, MAX_AMOUNT } from '../core/money';
import { Uuid } from '../core/schemas';
import { Recipe } from '../inventory/inventory.api';

export const MAX_OPTIONS_PER_GROUP = 50;
/** More choices than options a group may hold would be a group nobody can satisfy. */
const MAX_SELECT = MAX_OPTIONS_PER_GROUP;

const GroupName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', example: 'Tortilla' });
const OptionName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', example: 'Corn' });

/** What an option adds to the plate: may be 0 ("no onion") or negative ("no cheese, −5"). */
export const PriceDelta = Type.Number({
  minimum: -MAX_AMOUNT,
  maximum: MAX_AMOUNT,
  multipleOf: 0.01,
  [CENTS_KEYWORD]: true,
  description: 'Added to the dish price; 2 decimals, may be 0 or negative',
  example: 10,
});

export const ModifierOptionBody = Type.Object(
  {
    id: Type.Optional(
      Uuid({ description: 'An option of this group to keep (and update); omitted: a new option' }),
    ),
    name: OptionName,
    price_delta: PriceDelta,
    available: Type.Optional(Type.Boolean({ description: 'Default true; false: not offered for now' })),
    recipe: Type.Optional(
      Recipe(
        'What the option adds to a plate ("extra cheese": 0.03 kg of cheese), taken off the stock when ' +
          'the plate is sent; default []. An option sent with its id and without a recipe keeps its recipe',
      ),
    ),
    out_of_stock: Type.Optional(
      Type.Boolean({ readOnly: true, description: 'As a GET shows it; ignored (stock decides it)' }),
    ),
  },
  { additionalProperties: false },
);
export type ModifierOptionBody = Static<typeof ModifierOptionBody>;

export const ModifierGroupBody = Type.Object(
  {
    name: GroupName,
    min_select: Type.Integer({
      minimum: 0,
      maximum: MAX_SELECT,
      description: 'At least this many',
      example: 1,
    }),
    max_select: Type.Integer({
      minimum: 1,
      maximum: MAX_SELECT,
      description: 'At most this many',
      example: 1,
    }),
    options: Type.Array(ModifierOptionBody, {
      maxItems: MAX_OPTIONS_PER_GROUP,
      description: 'In the order a screen shows them; options of the group left out are retired',
    }),
  },
  {
    additionalProperties: false,
    example: {
      name: 'Tortilla',
      min_select: 1,
      max_select: 1,
      options: [
        { name: 'Corn', price_delta: 0 },
        { name: 'Flour', price_delta: 5 },
      ],
    },
  },
);
export type ModifierGroupBody = Static<typeof ModifierGroupBody>;

export const ModifierOptionView = Type.Object({
  id: Uuid(),
  name: Type.String(),
  price_delta: Type.Number({ example: 10 }),
  available: Type.Boolean({
    description:
      'On `GET /menu`: orderable now (neither off by hand nor out of stock); elsewhere: as set by hand',
  }),
  out_of_stock: Type.Boolean({ description: 'An item of its recipe is at or below zero' }),
  recipe: Type.Optional(Recipe('On the modifier group routes (not on `GET /menu`)')),
});
export type ModifierOptionView = Static<typeof ModifierOptionView>;

export const ModifierGroupView = Type.Object({
  id: Uuid(),
  name: Type.String(),
  min_select: Type.Integer(),
  max_select: Type.Integer(),
  options: Type.Array(ModifierOptionView, { description: 'Live options, in order' }),
});
export type ModifierGroupView = Static<typeof ModifierGroupView>;
