import { type Static, Type } from 'typebox';
import { Uuid } from '../core/schemas';
import { OrderView } from './orders.schemas';

const MAX_DISHES_PER_MOVE = 200;

export const MoveOrderBody = Type.Object(
  { table_id: Uuid({ description: 'A live table that is available (neither occupied nor reserved)' }) },
  { additionalProperties: false },
);
export type MoveOrderBody = Static<typeof MoveOrderBody>;

export const MergeOrderBody = Type.Object(
  {
    from_order_id: Uuid({
      description: 'Another open order without bills: its plates move here, then it is cancelled',
    }),
  },
  { additionalProperties: false },
);
export type MergeOrderBody = Static<typeof MergeOrderBody>;

export const MoveDishesBody = Type.Object(
  {
    order_dish_ids: Type.Array(Uuid(), {
      minItems: 1,
      maxItems: MAX_DISHES_PER_MOVE,
      uniqueItems: true,
      description: 'Plates of this order (order-dish ids), none of them on a live bill or voided',
    }),
    to_order_id: Uuid({ description: 'Another open order' }),
  },
  { additionalProperties: false },
);
export type MoveDishesBody = Static<typeof MoveDishesBody>;

export const MovedDishesView = Type.Object({
  from: OrderView,
  to: OrderView,
});
export type MovedDishesView = Static<typeof MovedDishesView>;
