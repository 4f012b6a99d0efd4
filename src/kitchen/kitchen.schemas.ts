import { type Static, Type } from 'typebox';
import { Station } from '../categories/categories.schemas';
import { OPTIONAL_BODY } from '../core/openapi';
import { OptionalText, Uuid } from '../core/schemas';
import { DishStatusSchema, ModifierSnapshot } from '../orders/orders.schemas';

export const DishStatusBody = Type.Object(
  {
    status: DishStatusSchema,
    reason: OptionalText(
      Type.String({ maxLength: 500, example: 'Guest changed their mind' }),
      'Required to void; null or omitted: none',
    ),
  },
  { additionalProperties: false },
);
export type DishStatusBody = Static<typeof DishStatusBody>;

export const VoidBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500, example: 'Sent to the wrong table' }) },
  { additionalProperties: false },
);
export type VoidBody = Static<typeof VoidBody>;

export const SendBody = Type.Object(
  {
    course: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 9, description: "Fire only this course's pending plates" }),
    ),
  },
  {
    additionalProperties: false,
    [OPTIONAL_BODY]: true,
    description: 'Optional: no body fires every pending plate',
  },
);
export type SendBody = Static<typeof SendBody>;

export const SendReply = Type.Object({
  message: Type.String({ example: 'Dishes sent to kitchen' }),
  sent: Type.Integer({ minimum: 0, example: 3 }),
});

export const KitchenQueueQuery = Type.Object(
  {
    station: Type.Optional(Station),
    limit: Type.Integer({ minimum: 1, maximum: 500, default: 200 }),
  },
  { additionalProperties: false },
);
export type KitchenQueueQuery = Static<typeof KitchenQueueQuery>;

export const KitchenQueueItem = Type.Object({
  id: Uuid({ description: 'The order-dish id' }),
  order_id: Uuid(),
  status: DishStatusSchema,
  dish_id: Uuid({ description: 'The menu dish the plate is of' }),
  dish_name: Type.String({ example: 'Margherita' }),
  notes: Type.String(),
  station: Type.String({ example: 'kitchen' }),
  table_name: Type.Union([Type.String(), Type.Null()], { description: 'null for counter orders' }),
  waiter: Type.String(),
  sent_at: Type.String({ format: 'date-time' }),
  seconds_waiting: Type.Integer({ minimum: 0, example: 240 }),
  modifiers: Type.Array(ModifierSnapshot, { description: 'The options chosen for the plate' }),
  seat: Type.Union([Type.Integer(), Type.Null()]),
  course: Type.Integer(),
  channel: Type.Union([Type.Literal('dine_in'), Type.Literal('ubereats'), Type.Literal('rappi')], {
    description: '`dine_in`, or the delivery app the order came through',
  }),
  channel_code: Type.Union([Type.String(), Type.Null()], {
    description: 'A delivery order: the short code the courier says; null in the dining room',
    example: 'A7F3C',
  }),
  customer_first_name: Type.Union([Type.String(), Type.Null()], {
    description: "A delivery order: its customer's first name",
  }),
  pickup_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: "A delivery order: when the courier comes for it (the queue's order for its plates)",
  }),
});
export type KitchenQueueItem = Static<typeof KitchenQueueItem>;
