import { type Static, Type } from 'typebox';
import { Money } from '../core/money';
import { Uuid } from '../core/schemas';
import { ItemName } from './menu.schemas';

export const DishBody = Type.Object(
  {
    name: ItemName,
    price: Money({ description: 'Price with at most 2 decimals' }),
    category_id: Uuid({ description: 'A live category of type dish' }),
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
});
export type DishView = Static<typeof DishView>;
