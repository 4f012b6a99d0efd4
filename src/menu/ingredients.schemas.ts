import { type Static, Type } from 'typebox';
import { Uuid } from '../core/schemas';
import { ItemName } from './menu.schemas';

export const IngredientBody = Type.Object(
  {
    name: ItemName,
    category_id: Uuid({ description: 'A live category of type ingredient' }),
    quantity: Type.Number({ minimum: 0, maximum: 1e12, description: 'Stock in `unit`s', example: 2.5 }),
    unit: Type.String({ minLength: 1, maxLength: 20, pattern: '\\S', example: 'kg' }),
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
  quantity: Type.Number(),
  unit: Type.String(),
});
export type IngredientView = Static<typeof IngredientView>;
