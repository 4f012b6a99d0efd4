import { Type } from 'typebox';

export const ItemName = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '\\S',
  example: 'Chocolate cake',
});
