import { type Static, Type } from 'typebox';
import { MAX_QUANTITY } from '../core/quantity';
import { Uuid } from '../core/schemas';

export const StockItemTypeSchema = Type.Union([Type.Literal('ingredient'), Type.Literal('product')], {
  description: 'An ingredient (quantities in its unit, at most 3 decimals) or a product (whole units)',
});

const SignedQuantity = (description: string) =>
  Type.Number({ minimum: -MAX_QUANTITY, maximum: MAX_QUANTITY, description });

export const MovementBody = Type.Object(
  {
    item_type: StockItemTypeSchema,
    item_id: Uuid({ description: 'A live ingredient or product' }),
    delta: SignedQuantity(
      'What the stock gains (a delivery) or loses (waste, negative); not 0. At most 3 decimals for an ' +
        'ingredient, whole for a product',
    ),
    reason: Type.Union([Type.Literal('receiving'), Type.Literal('adjustment'), Type.Literal('waste')]),
    note: Type.Optional(Type.String({ maxLength: 500, example: 'Delivery from Carnes Juárez' })),
  },
  {
    additionalProperties: false,
    example: {
      item_type: 'ingredient',
      item_id: '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e',
      delta: 5,
      reason: 'receiving',
    },
  },
);
export type MovementBody = Static<typeof MovementBody>;

export const CountBody = Type.Object(
  {
    counts: Type.Array(
      Type.Object(
        {
          item_type: StockItemTypeSchema,
          item_id: Uuid(),
          counted: Type.Number({
            minimum: 0,
            maximum: MAX_QUANTITY,
            description: 'What is on the shelf, in the item’s unit',
          }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 1000, description: 'A count sheet: each live item at most once' },
    ),
  },
  { additionalProperties: false },
);
export type CountBody = Static<typeof CountBody>;

export const CountReply = Type.Object({
  message: Type.String({ example: 'Count recorded' }),
  movements: Type.Integer({
    description: 'Items whose stock differed from the count (one `count` movement each)',
  }),
});

const Reason = Type.Union([
  Type.Literal('sale'),
  Type.Literal('void'),
  Type.Literal('receiving'),
  Type.Literal('adjustment'),
  Type.Literal('waste'),
  Type.Literal('count'),
]);

export const MovementView = Type.Object({
  id: Uuid(),
  item_type: StockItemTypeSchema,
  item_id: Uuid(),
  item_name: Type.String(),
  unit: Type.String({ description: "The ingredient's unit; '' for a product" }),
  delta: Type.Number(),
  stock_after: Type.Number({ description: 'The stock this movement left' }),
  reason: Reason,
  order_dish_id: Type.Union([Uuid(), Type.Null()], { description: 'The plate sold or voided' }),
  user_id: Type.Union([Uuid(), Type.Null()]),
  user_name: Type.Union([Type.String(), Type.Null()]),
  note: Type.String(),
  at: Type.String({ format: 'date-time' }),
});
export type MovementView = Static<typeof MovementView>;

export const MovementsQuery = Type.Object(
  {
    item_type: Type.Optional(StockItemTypeSchema),
    item_id: Type.Optional(Uuid()),
    from: Type.Optional(
      Type.String({
        format: 'date',
        description: 'First local day (zone of GET /settings)',
        example: '2026-11-20',
      }),
    ),
    to: Type.Optional(
      Type.String({ format: 'date', description: 'Last local day, inclusive', example: '2026-11-26' }),
    ),
    limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
    offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
  },
  { additionalProperties: false },
);
export type MovementsQuery = Static<typeof MovementsQuery>;

export const StockItemView = Type.Object({
  item_type: StockItemTypeSchema,
  id: Uuid(),
  name: Type.String(),
  unit: Type.String({ description: "The ingredient's unit; '' for a product" }),
  stock: Type.Number(),
  reorder_level: Type.Number(),
  low: Type.Boolean({ description: 'At or below its reorder level' }),
  out: Type.Boolean({ description: 'At or below zero: what needs it is off the menu' }),
});
export type StockItemView = Static<typeof StockItemView>;
