import { type Static, Type } from 'typebox';
import { Money } from '../core/money';
import { Uuid } from '../core/schemas';
import { ItemName } from './menu.schemas';

export const ProductBody = Type.Object(
  {
    name: ItemName,
    sku: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^\\S+$',
      description: 'Unique among live products; no spaces',
      example: 'COLA-355',
    }),
    price: Money({ description: 'Price with at most 2 decimals' }),
    quantity: Type.Integer({
      minimum: 0,
      maximum: 1_000_000_000,
      description:
        'Units in stock. A different value on an edit is recorded as an `adjustment` stock movement.',
      example: 24,
    }),
    reorder_level: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1_000_000_000,
        description: 'At or below it the product is low on stock. Default 0; an edit without it keeps it.',
      }),
    ),
    category_id: Uuid({ description: 'A live category of type product' }),
  },
  {
    additionalProperties: false,
    example: {
      name: 'Cola 355 ml',
      sku: 'COLA-355',
      price: 25,
      quantity: 24,
      category_id: '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e',
    },
  },
);
export type ProductBody = Static<typeof ProductBody>;

export const ProductView = Type.Object({
  id: Uuid(),
  name: Type.String(),
  sku: Type.String(),
  price: Type.Number({ example: 25 }),
  quantity: Type.Integer({ description: 'Units in stock; below zero when the books are behind the kitchen' }),
  category_id: Uuid(),
  reorder_level: Type.Integer(),
});
export type ProductView = Static<typeof ProductView>;
