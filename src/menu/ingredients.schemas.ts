import { type Static, Type } from 'typebox';
import { IngredientQuantity } from '../core/quantity';
import { Uuid } from '../core/schemas';
import { ItemName } from './menu.schemas';

export const IngredientBody = Type.Object(
  {
    name: ItemName,
    category_id: Uuid({ description: 'A live category of type ingredient' }),
    quantity: IngredientQuantity({
      description:
        'Stock in `unit`s, at most 3 decimals. A different value on an edit is recorded as an `adjustment` stock movement.',
      example: 2.5,
    }),
    unit: Type.String({ minLength: 1, maxLength: 20, pattern: '\\S', example: 'kg' }),
    reorder_level: Type.Optional(
      IngredientQuantity({
        description:
          'At or below it the item is low on stock (`GET /inventory/low-stock`). Default 0; an edit without it keeps it.',
        example: 1,
      }),
    ),
  },
  {
    additionalProperties: false,
    example: {
      name: 'Flour',
      category_id: '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e',
      quantity: 2.5,
      unit: 'kg',
    },
  },
);
export type IngredientBody = Static<typeof IngredientBody>;

export const IngredientView = Type.Object({
  id: Uuid(),
  name: Type.String(),
  category_id: Uuid(),
  quantity: Type.Number({
    description: 'Stock in `unit`s; below zero when the books are behind the kitchen',
  }),
  unit: Type.String(),
  reorder_level: Type.Number(),
});
export type IngredientView = Static<typeof IngredientView>;
