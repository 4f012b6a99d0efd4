import { type Static, Type } from 'typebox';
import { Uuid } from '../core/schemas';
import { ModifierGroupView } from '../modifiers/modifiers.schemas';

export const MenuDish = Type.Object({
  id: Uuid(),
  name: Type.String(),
  description: Type.String(),
  price: Type.Number({ example: 85.5 }),
  available: Type.Boolean({
    description: 'false: sold out ("86" by hand, or out of stock), refused on new plates',
  }),
  out_of_stock: Type.Boolean({
    description: 'An item of its recipe is at or below zero; it returns by itself when stock does',
  }),
  modifier_groups: Type.Array(ModifierGroupView, {
    description: "The dish's groups in order, each with its live options",
  }),
});
export type MenuDish = Static<typeof MenuDish>;

export const MenuCategory = Type.Object({
  id: Uuid(),
  name: Type.String(),
  station: Type.String({ example: 'kitchen' }),
  dishes: Type.Array(MenuDish, { description: 'Live dishes by name, sold-out ones included' }),
});

export const MenuBoard = Type.Object({
  categories: Type.Array(MenuCategory, { description: 'Live dish categories by name' }),
});
export type MenuBoard = Static<typeof MenuBoard>;
